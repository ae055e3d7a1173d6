// Property tests of the router: find-my-way as an oracle for static and plain-parameter routes, priority that does not
// depend on declaration order, and case-insensitive static parts with case-preserving parameter values.

import fc from 'fast-check';
import FindMyWay from 'find-my-way';
import { describe, expect, it } from 'vitest';
import { Router } from '../../src/router/router.js';

type Segment = { readonly kind: 'static'; readonly text: string } | { readonly kind: 'param' };

interface RouteSpec {
  readonly method: 'GET' | 'POST';
  readonly segments: readonly Segment[];
}

interface Found {
  readonly route: number;
  readonly params: Record<string, string | number>;
}

// A small vocabulary, so that route sets overlap and parameters often collide with static segments.
const WORDS = ['a', 'b', 'Users'];

const segmentArb: fc.Arbitrary<Segment> = fc.oneof(
  fc.constantFrom(...WORDS).map((text) => ({ kind: 'static' as const, text })),
  fc.constant({ kind: 'param' as const }),
);

/** Parameters are named by position, so two routes of the same shape are the same route for both routers. */
function template(route: RouteSpec, syntax: 'ours' | 'find-my-way'): string {
  const parts = route.segments.map((segment, index) =>
    segment.kind === 'static' ? segment.text : syntax === 'ours' ? `{p${index}}` : `:p${index}`,
  );
  return `/${parts.join('/')}`;
}

function shapeKey(route: RouteSpec): string {
  return `${route.method} ${template(route, 'ours').toLowerCase()}`;
}

function routeSetArb(maxParams: number): fc.Arbitrary<RouteSpec[]> {
  const routeArb = fc
    .record({
      method: fc.constantFrom('GET' as const, 'POST' as const),
      segments: fc.array(segmentArb, { minLength: 1, maxLength: 3 }),
    })
    .filter((route) => route.segments.filter((segment) => segment.kind === 'param').length <= maxParams);
  return fc.uniqueArray(routeArb, { minLength: 1, maxLength: 12, selector: shapeKey });
}

function randomCase(text: string): fc.Arbitrary<string> {
  return fc
    .tuple(...[...text].map((char) => fc.constantFrom(char.toLowerCase(), char.toUpperCase())))
    .map((chars) => chars.join(''));
}

/** Parameter values that collide with static words, change case, or need percent-decoding. */
const paramTokenArb = fc.oneof(
  { arbitrary: fc.constantFrom(...WORDS).chain(randomCase), weight: 3 },
  { arbitrary: fc.constantFrom('x%2Fy', 'a%20B', '42', 'Zed', 'ü'), weight: 1 },
  { arbitrary: fc.stringMatching(/^[A-Za-z0-9_.~-]{1,6}$/), weight: 1 },
);

/** Paths built from one of the routes (so some match) or from loose segments (so some do not). */
function pathArb(routes: readonly RouteSpec[]): fc.Arbitrary<string> {
  const fromRoute = fc
    .constantFrom(...routes)
    .chain((route) =>
      fc
        .tuple(
          ...route.segments.map((segment) => (segment.kind === 'static' ? randomCase(segment.text) : paramTokenArb)),
        )
        .map((parts) => `/${parts.join('/')}`),
    );
  const loose = fc.array(paramTokenArb, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`);
  return fc.oneof(fromRoute, loose);
}

function ours(routes: readonly RouteSpec[], order: readonly number[]): Router<number> {
  const router = new Router<number>();
  for (const index of order) router.add(routes[index]!.method, template(routes[index]!, 'ours'), index);
  return router;
}

function findMyWay(routes: readonly RouteSpec[]): FindMyWay.Instance<FindMyWay.HTTPVersion.V1> {
  const router = FindMyWay({ caseSensitive: false });
  routes.forEach((route, index) => router.on(route.method, template(route, 'find-my-way'), () => undefined, { index }));
  return router;
}

function oracleFind(
  router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>,
  method: 'GET' | 'POST',
  path: string,
): Found | null {
  const found = router.find(method, path);
  if (found === null) return null;
  return { route: (found.store as { index: number }).index, params: { ...found.params } as Record<string, string> };
}

function oursFind(router: Router<number>, method: string, path: string): Found | null {
  const found = router.find(method, path);
  return found === null ? null : { route: found.value, params: { ...found.params } };
}

const declarationOrderArb = (routes: readonly RouteSpec[]): fc.Arbitrary<number[]> =>
  fc.shuffledSubarray(
    routes.map((_, index) => index),
    { minLength: routes.length },
  );

describe('Router against find-my-way', () => {
  it('agrees with find-my-way on routes with at most one plain parameter, in any declaration order', () => {
    // With one parameter at most, "more static segments first" and find-my-way's "static branch first" coincide.
    const scenario = routeSetArb(1).chain((routes) =>
      fc.record({
        routes: fc.constant(routes),
        order: declarationOrderArb(routes),
        requests: fc.array(fc.tuple(fc.constantFrom('GET' as const, 'POST' as const), pathArb(routes)), {
          minLength: 1,
          maxLength: 10,
        }),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ routes, order, requests }) => {
        const router = ours(routes, order);
        const oracle = findMyWay(routes);
        for (const [method, path] of requests) {
          expect(oursFind(router, method, path)).toEqual(oracleFind(oracle, method, path));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('picks, among the routes find-my-way matches one by one, the one with the most and leftmost static segments', () => {
    const scenario = routeSetArb(3).chain((routes) =>
      fc.record({
        routes: fc.constant(routes),
        order: declarationOrderArb(routes),
        requests: fc.array(fc.tuple(fc.constantFrom('GET' as const, 'POST' as const), pathArb(routes)), {
          minLength: 1,
          maxLength: 10,
        }),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ routes, order, requests }) => {
        const router = ours(routes, order);
        const singleRouteOracles = routes.map((route) => findMyWay([route]));
        for (const [method, path] of requests) {
          const candidates = singleRouteOracles.flatMap((oracle, index) => {
            const found = oracleFind(oracle, method, path);
            return found === null ? [] : [{ ...found, route: index }];
          });
          // Shapes are unique and all plain, so the static count and the leftmost static segment decide.
          const staticMask = (index: number): string =>
            routes[index]!.segments.map((segment) => (segment.kind === 'static' ? '1' : '0')).join('');
          const staticCount = (index: number): number => staticMask(index).replaceAll('0', '').length;
          candidates.sort(
            (x, y) =>
              staticCount(y.route) - staticCount(x.route) || staticMask(y.route).localeCompare(staticMask(x.route)),
          );
          expect(oursFind(router, method, path)).toEqual(candidates[0] ?? null);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('Router.allowedMethods', () => {
  it('lists exactly the methods find answers for, on any route set and path', () => {
    const scenario = routeSetArb(3).chain((routes) =>
      fc.record({ routes: fc.constant(routes), paths: fc.array(pathArb(routes), { minLength: 1, maxLength: 10 }) }),
    );
    fc.assert(
      fc.property(scenario, ({ routes, paths }) => {
        const router = ours(
          routes,
          routes.map((_, index) => index),
        );
        for (const path of paths) {
          const found = (['GET', 'POST'] as const).filter((method) => router.find(method, path) !== null);
          expect(router.allowedMethods(path)).toEqual(found);
        }
      }),
    );
  });
});

describe('Router priority is independent of declaration order', () => {
  const ULID = '01HZY8K2Q3R4S5T6V7W8X9YZAB';
  const CHOICES = ['/x/search', '/x/{id}', '/x/{int:id}', '/x/{ulid:id}'] as const;
  type Choice = (typeof CHOICES)[number];

  const idSegmentArb = fc.oneof(
    randomCase('search'),
    fc.stringMatching(/^[0-9]{1,15}$/),
    fc.constantFrom('9007199254740993', '00000000000000000000000000'),
    randomCase(ULID),
    fc.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
    fc.stringMatching(/^[a-z][A-Za-z0-9-]{0,10}$/),
  );

  /** What the contract says wins, decided from the segment alone. */
  function expectedWinner(
    available: readonly Choice[],
    segment: string,
  ): { route: Choice; id?: string | number } | null {
    if (segment.toLowerCase() === 'search' && available.includes('/x/search')) return { route: '/x/search' };
    if (/^[0-9]+$/.test(segment) && Number.isSafeInteger(Number(segment)) && available.includes('/x/{int:id}')) {
      return { route: '/x/{int:id}', id: Number(segment) };
    }
    if (/^[0-9A-HJKMNP-TV-Z]{26}$/i.test(segment) && available.includes('/x/{ulid:id}')) {
      return { route: '/x/{ulid:id}', id: segment };
    }
    return available.includes('/x/{id}') ? { route: '/x/{id}', id: segment } : null;
  }

  it('gives the same winner for every permutation of the declarations', () => {
    const scenario = fc.record({
      available: fc.subarray([...CHOICES], { minLength: 1 }),
      segments: fc.array(idSegmentArb, { minLength: 1, maxLength: 8 }),
    });
    fc.assert(
      fc.property(scenario, ({ available, segments }) => {
        for (const order of permutations(available)) {
          const router = new Router<Choice>();
          for (const choice of order) router.add('GET', choice, choice);
          for (const segment of segments) {
            const match = router.find('GET', `/x/${segment}`);
            const actual = match === null ? null : { route: match.value, ...match.params };
            expect(actual, `${order.join(', ')} for ${segment}`).toEqual(expectedWinner(available, segment));
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('Router case handling', () => {
  const TEMPLATES = [
    '/Users/{name}/Posts/{int:id}',
    '/users/{name}/settings',
    '/Teams/{ulid:team}/Members/{member}',
    '/Admin/Reports/Daily',
  ];

  const valueArb = fc.oneof(
    fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,8}$/),
    fc.constantFrom('POSTS', 'Users', 'daily'),
  );
  const ulidArb = fc.stringMatching(/^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$/);

  const requestArb = fc.oneof(
    fc
      .tuple(randomCase('users'), valueArb, randomCase('posts'), fc.integer({ min: 0, max: 1e9 }))
      .map(([users, name, posts, id]) => ({
        path: `/${users}/${name}/${posts}/${id}`,
        route: 0,
        params: { name, id },
      })),
    fc
      .tuple(randomCase('users'), valueArb, randomCase('settings'))
      .map(([users, name, settings]) => ({ path: `/${users}/${name}/${settings}`, route: 1, params: { name } })),
    fc.tuple(randomCase('teams'), ulidArb, randomCase('members'), valueArb).map(([teams, team, members, member]) => ({
      path: `/${teams}/${team}/${members}/${member}`,
      route: 2,
      params: { team, member },
    })),
    fc
      .tuple(randomCase('admin'), randomCase('reports'), randomCase('daily'))
      .map((parts) => ({ path: `/${parts.join('/')}`, route: 3, params: {} })),
  );

  it('matches static parts in any case and keeps the case of parameter values', () => {
    const router = new Router<number>();
    TEMPLATES.forEach((template, index) => router.add('GET', template, index));
    fc.assert(
      fc.property(requestArb, ({ path, route, params }) => {
        expect(oursFind(router, 'GET', path)).toEqual({ route, params });
      }),
      { numRuns: 500 },
    );
  });
});

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]),
  );
}
