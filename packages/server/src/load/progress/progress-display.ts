// How a running load shows its progress: a bar with rate and ETA on a terminal, a line every few seconds otherwise
// (logs, CI), or nothing. The runner pushes its state on every finished document; displays throttle themselves.
import { createBarDisplay } from './bar-display.js';
import { createLineDisplay } from './line-display.js';

export interface ProgressState {
  /** Documents finished: created, updated, failed or skipped. */
  readonly completed: number;
  /** Documents skipped because a resumed load had them done. */
  readonly skipped: number;
  readonly failed: number;
  readonly total: number;
  /** The dependency order being loaded. */
  readonly order: number;
  /** Since documents started being sent (the indexing pass excluded). */
  readonly elapsedMs: number;
}

export interface ProgressDisplay {
  update(state: ProgressState): void;
  finish(state: ProgressState): void;
}

export type ProgressMode = 'auto' | 'bar' | 'lines' | 'none';

/** Documents per second actually sent (skipped ones excluded). */
export function rateOf(state: ProgressState): number {
  const seconds = state.elapsedMs / 1000;
  return seconds > 0 ? (state.completed - state.skipped) / seconds : 0;
}

/** Seconds left at the current rate, or undefined before there is a rate. */
export function etaSecondsOf(state: ProgressState): number | undefined {
  const rate = rateOf(state);
  return rate > 0 ? Math.max(0, state.total - state.completed) / rate : undefined;
}

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
