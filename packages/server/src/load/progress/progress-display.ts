// How a running load shows its progress: a bar with rate and ETA on a terminal, a line every few seconds otherwise
// (logs, CI), or nothing. The runner pushes its state on every finished document; displays throttle themselves.
import { createBarDisplay } from './bar-display.js';
import { createLineDisplay } from './line-display.js';
import type { ProgressDisplay } from './progress-state.js';

export type { ProgressDisplay, ProgressState } from './progress-state.js';

export type ProgressMode = 'auto' | 'bar' | 'lines' | 'none';

const silent: ProgressDisplay = { update: () => undefined, finish: () => undefined };

export function createProgressDisplay(
  mode: ProgressMode,
  stream: NodeJS.WriteStream = process.stderr,
): ProgressDisplay {
  const chosen = mode === 'auto' ? (stream.isTTY ? 'bar' : 'lines') : mode;
  if (chosen === 'bar') return createBarDisplay(stream);
  if (chosen === 'lines') return createLineDisplay(stream);
  return silent;
}
