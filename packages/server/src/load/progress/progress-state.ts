// What a load reports of its progress, and the rate and ETA every display derives from it.

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
