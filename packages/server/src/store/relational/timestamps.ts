// `_lastModifiedDate` values: UTC with up to 7 fractional digits (100 ns ticks), trailing zeros trimmed, as .NET's
// round-trip `yyyy-MM-ddTHH:mm:ss.FFFFFFFZ` prints them.
const NS_PER_MS = 1_000_000n;
const NS_PER_TICK = 100n;
const TICKS_PER_SECOND = 10_000_000n;

/** Wall-clock nanoseconds = anchor + monotonic clock; re-anchored whenever it drifts from Date.now() by over 1 ms. */
let anchorNs = BigInt(Date.now()) * NS_PER_MS - process.hrtime.bigint();

function nowNs(): bigint {
  const monotonic = process.hrtime.bigint();
  const wallMs = Date.now();
  let ns = anchorNs + monotonic;
  if (Math.abs(Number(ns / NS_PER_MS) - wallMs) > 1) {
    anchorNs = BigInt(wallMs) * NS_PER_MS - monotonic;
    ns = anchorNs + monotonic;
  }
  return ns;
}

/** The whole second last formatted and its text: a busy writer formats thousands of times within one second. */
let formattedSecond = -1n;
let secondText = '';

function formatUtcTicks(ns: bigint): string {
  const allTicks = ns / NS_PER_TICK;
  const second = allTicks / TICKS_PER_SECOND;
  if (second !== formattedSecond) {
    secondText = new Date(Number(second) * 1000).toISOString().slice(0, 19);
    formattedSecond = second;
  }
  const fraction = (allTicks % TICKS_PER_SECOND).toString().padStart(7, '0').replace(/0+$/, '');
  return fraction ? `${secondText}.${fraction}Z` : `${secondText}Z`;
}

export function utcNow(): string {
  return formatUtcTicks(nowNs());
}
