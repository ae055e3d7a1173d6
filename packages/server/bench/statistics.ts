// Summaries of repeated measurements: the median and the range, never the best round.

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/** The middle value (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function spreadOf(values: readonly number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** Significant figures that suit the size: 12345, 123.4, 1.23. */
export function formatNumber(value: number): string {
  const size = Math.abs(value);
  return size >= 100 ? value.toFixed(0) : size >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** `median (min–max)`, or only the median of a single value; `–` when nothing was measured. */
export function formatSpread(values: readonly number[]): string {
  if (values.length === 0) return '–';
  const { median: middle, min, max } = spreadOf(values);
  return values.length === 1
    ? formatNumber(middle)
    : `${formatNumber(middle)} (${formatNumber(min)}–${formatNumber(max)})`;
}

/** The ratio of two medians, to two decimals; `–` when either side is missing. */
export function formatRatio(numerator: readonly number[], denominator: readonly number[]): string {
  if (numerator.length === 0 || denominator.length === 0) return '–';
  const below = median(denominator);
  return below === 0 ? '–' : (median(numerator) / below).toFixed(2);
}
