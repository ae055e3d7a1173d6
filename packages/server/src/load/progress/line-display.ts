// Progress for logs and pipes: one plain line every few seconds, and a last one at the end.
import { etaSecondsOf, rateOf, type ProgressDisplay, type ProgressState } from './progress-state.js';
import { formatDuration } from './format-duration.js';

const INTERVAL_MS = 5000;

function lineOf(state: ProgressState): string {
  const percent = state.total > 0 ? Math.floor((state.completed / state.total) * 100) : 100;
  const eta = etaSecondsOf(state);
  return (
    `loaded ${state.completed}/${state.total} (${percent}%), ${Math.round(rateOf(state))} docs/s, ` +
    `ETA ${eta === undefined ? '-' : formatDuration(eta)}, ${state.failed} failed, order ${state.order}\n`
  );
}

export function createLineDisplay(stream: NodeJS.WritableStream, intervalMs = INTERVAL_MS): ProgressDisplay {
  let lastPrinted = 0;
  return {
    update(state) {
      if (state.elapsedMs - lastPrinted < intervalMs) return;
      lastPrinted = state.elapsedMs;
      stream.write(lineOf(state));
    },
    finish(state) {
      stream.write(lineOf(state));
    },
  };
}
