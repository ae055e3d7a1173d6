// Micro-benchmark of one router lookup (`GET /users/12345` on `/users/{int:id}`) among `routeCount` routes, the S2/S6
// shape; run directly (`npx tsx bench/micro/router-lookup.ts`) it prints the figures for 60 and 600 routes.

import { pathToFileURL } from 'node:url';
import { Router } from '../../src/router/router.js';

const BATCHES = 9;

export function measureRouterLookup(routeCount: number, iterations: number): { nsPerLookup: number } {
  const router = buildRouter(routeCount);
  const match = router.find('GET', '/users/12345');
  if (match?.value !== 1 || match.params.id !== 12345) throw new Error('The benchmark route did not match.');
  // Counting the matches keeps every lookup observable, so the loops cannot be optimised away.
  let matched = 0;
  for (let i = 0; i < iterations; i++) if (router.find('GET', '/users/12345') !== null) matched++;
  const batchTimes: number[] = [];
  for (let batch = 0; batch < BATCHES; batch++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) if (router.find('GET', '/users/12345') !== null) matched++;
    batchTimes.push(Number(process.hrtime.bigint() - started) / iterations);
  }
  if (matched !== iterations * (BATCHES + 1)) throw new Error('A benchmark lookup missed.');
  batchTimes.sort((a, b) => a - b);
  return { nsPerLookup: batchTimes[Math.floor(BATCHES / 2)]! };
}

/** `/users/{int:id}` first, then a realistic mix of static, plain-parameter and nested routes. */
function buildRouter(routeCount: number): Router<number> {
  const router = new Router<number>();
  router.add('GET', '/users/{int:id}', 1);
  for (let i = 1; i < routeCount; i++) {
    const resource = `/resource${Math.floor(i / 4)}`;
    const templates = [`${resource}/{id}`, `${resource}/static`, `${resource}/{id}/items`, resource];
    router.add(i % 8 < 4 ? 'GET' : 'POST', templates[i % 4]!, i + 1);
  }
  return router;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const routeCount of [60, 600]) {
    const { nsPerLookup } = measureRouterLookup(routeCount, 200_000);
    console.log(`${routeCount} routes: ${nsPerLookup.toFixed(1)} ns per lookup`);
  }
}
