// The router micro-benchmark module builds its route set and reports a lookup time.

import { expect, it } from 'vitest';
import { measureRouterLookup } from '../../bench/micro/router-lookup.js';

it('measures a lookup among 60 and 600 routes', () => {
  for (const routeCount of [60, 600]) {
    const { nsPerLookup } = measureRouterLookup(routeCount, 200);
    expect(nsPerLookup).toBeGreaterThan(0);
    expect(Number.isFinite(nsPerLookup)).toBe(true);
  }
});
