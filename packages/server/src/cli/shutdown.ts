// Runs one graceful stop on the first SIGINT or SIGTERM, then exits (with `process.exitCode`, 0 unless set); later
// signals are ignored while it runs.
import type { Logger } from '@edfi-api/framework';

export function stopOnSignals(stop: () => Promise<void>, logger: Pick<Logger, 'info' | 'error'>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    stop().then(
      () => process.exit(),
      (error: unknown) => {
        logger.error('stop failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
}
