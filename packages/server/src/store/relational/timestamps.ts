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

function formatUtcTicks(ns: bigint): string {
  const seconds = new Date(Number(ns / NS_PER_MS)).toISOString().slice(0, 19);
  const ticks = (ns / NS_PER_TICK) % TICKS_PER_SECOND;
  const fraction = ticks.toString().padStart(7, '0').replace(/0+$/, '');
  return fraction ? `${seconds}.${fraction}Z` : `${seconds}Z`;
}

export function utcNow(): string {
  return formatUtcTicks(nowNs());
}
