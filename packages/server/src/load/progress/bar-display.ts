// The terminal progress bar (cli-progress): done/total, documents per second, ETA, failures and the current order.
import { SingleBar } from 'cli-progress';
import { etaSecondsOf, rateOf, type ProgressDisplay, type ProgressState } from './progress-state.js';
import { formatDuration } from './format-duration.js';

const FORMAT =
  ' {bar} {percentage}% | {value}/{total} docs | {rate} docs/s | ETA {etaText} | {failed} failed | order {order}';

function payloadOf(state: ProgressState): Record<string, string | number> {
  const eta = etaSecondsOf(state);
  return {
    rate: Math.round(rateOf(state)),
    etaText: eta === undefined ? '-' : formatDuration(eta),
    failed: state.failed,
    order: state.order,
  };
}

export function createBarDisplay(stream: NodeJS.WriteStream): ProgressDisplay {
  const bar = new SingleBar({ format: FORMAT, stream, hideCursor: true, barsize: 30, fps: 5 });
  let started = false;
  return {
    update(state) {
      if (!started) {
        bar.start(state.total, state.completed, payloadOf(state));
        started = true;
      } else {
        bar.update(state.completed, payloadOf(state));
      }
    },
    finish(state) {
      if (!started) return;
      bar.update(state.completed, payloadOf(state));
      bar.stop();
    },
  };
}
