// Which route wins when several match one path: more static segments, then more typed parameters, then the leftmost
// static segment, then the leftmost more specific parameter (int, ulid, pattern, mixed), then the earlier declaration.

import type { TemplateSegment } from './route-template.js';

export interface RoutePriority {
  /**
   * Orders routes like the reference score (100 per static segment, 10 per typed and 1 per plain parameter, minus
   * the parameter count) for paths of up to 11 segments; the heavier static weight keeps static-first beyond that.
   */
  readonly rank: number;
  /** One character per segment, `1` static and `0` parameter: the greater string has the leftmost static segment. */
  readonly staticMask: string;
  /** One character per segment, the parameter's matcher order: the smaller string has the leftmost specific check. */
  readonly paramKinds: string;
  readonly order: number;
}

const STATIC_WEIGHT = 1000;

export function priorityOf(segments: readonly TemplateSegment[], order: number): RoutePriority {
  let rank = 0;
  let staticMask = '';
  let paramKinds = '';
  for (const segment of segments) {
    if (segment.kind === 'static') {
      rank += STATIC_WEIGHT;
      staticMask += '1';
      paramKinds += '-';
    } else {
      if (segment.matcher.typed) rank += 1;
      staticMask += '0';
      paramKinds += String(segment.matcher.order);
    }
  }
  return { rank, staticMask, paramKinds, order };
}

/** Whether `a` beats `b`, two routes matching the same path (so with the same number of segments). */
export function outranks(a: RoutePriority, b: RoutePriority): boolean {
  if (a.rank !== b.rank) return a.rank > b.rank;
  if (a.staticMask !== b.staticMask) return a.staticMask > b.staticMask;
  if (a.paramKinds !== b.paramKinds) return a.paramKinds < b.paramKinds;
  return a.order < b.order;
}
