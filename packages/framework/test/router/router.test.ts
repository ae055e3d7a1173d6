// Router lookups: typed parameters, priority, case, decoding, trailing slashes and allowed methods.

import { describe, expect, it } from 'vitest';
import { InvalidInput } from '../../src/errors.js';
import type { ParameterDeclaration } from '../../src/types.js';
import { Router, type RouteMatch } from '../../src/router/router.js';

const ULID = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

function routerWith(routes: [method: string, template: string][], options = {}): Router<string> {
  const router = new Router<string>(options);
  for (const [method, template] of routes) router.add(method, template, `${method} ${template}`);
  return router;
}

function pattern(name: string, regex: string): ParameterDeclaration {
  return { name, in: 'path', required: true, schema: { type: 'string', pattern: regex } };
}

/** The match as plain data, so assertions compare values rather than prototypes. */
function summary(match: RouteMatch<string> | null): { route: string; params: Record<string, string | number> } | null {
  return match === null ? null : { route: match.value, params: { ...match.params } };
}

describe('Router static routes', () => {
  const router = routerWith([
    ['GET', '/'],
    ['GET', '/hello'],
    ['POST', '/hello'],
    ['GET', '/Users/Me'],
  ]);

  it('finds a static route by method and path', () => {
    expect(summary(router.find('GET', '/hello'))).toEqual({ route: 'GET /hello', params: {} });
    expect(summary(router.find('POST', '/hello'))).toEqual({ route: 'POST /hello', params: {} });
    expect(summary(router.find('GET', '/'))).toEqual({ route: 'GET /', params: {} });
  });

  it('matches static paths case-insensitively', () => {
    expect(router.find('GET', '/HELLO')?.value).toBe('GET /hello');
    expect(router.find('GET', '/users/me')?.value).toBe('GET /Users/Me');
    expect(router.find('GET', '/USERS/ME')?.value).toBe('GET /Users/Me');
  });

  it('matches long static paths and those spelled with İ (whose lower case i̇ is longer) in any case', () => {
    const long = '/a/static/path/of/more/than/thirty-one/characters';
    const special = routerWith([
      ['GET', long],
      ['GET', '/i\u0307tems/i\u0307d'],
    ]);
    expect(special.find('GET', long.toUpperCase())?.value).toBe(`GET ${long}`);
    expect(special.find('GET', '/\u0130tems/\u0130d')?.value).toBe('GET /i\u0307tems/i\u0307d');
    expect(special.find('GET', '/\u0130tems/i\u0307d')?.value).toBe('GET /i\u0307tems/i\u0307d');
    expect(special.allowedMethods('/\u0130TEMS/\u0130D')).toEqual(['GET']);
  });

  it('returns null for an unknown path or method', () => {
    expect(router.find('GET', '/nope')).toBeNull();
    expect(router.find('DELETE', '/hello')).toBeNull();
    expect(router.find('GET', '/hello/')).toBeNull();
    expect(router.find('GET', 'hello')).toBeNull();
  });

  it('gives a frozen, null-prototype, empty params object', () => {
    const params = router.find('GET', '/hello')!.params;
    expect(Object.getPrototypeOf(params)).toBeNull();
    expect(Object.keys(params)).toEqual([]);
    expect(Object.isFrozen(params)).toBe(true);
  });
});

describe('Router parameters', () => {
  it('delivers {name} as the raw string and {int:name} as a number', () => {
    const router = routerWith([['GET', '/users/{int:id}/posts/{slug}']]);
    expect(summary(router.find('GET', '/users/42/posts/Hello-World'))).toEqual({
      route: 'GET /users/{int:id}/posts/{slug}',
      params: { id: 42, slug: 'Hello-World' },
    });
  });

  it('gives a params object that inherits no names', () => {
    const router = routerWith([['GET', '/users/{id}']]);
    const params = router.find('GET', '/users/7')!.params;
    for (const name of ['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf']) {
      expect(name in params).toBe(false);
      expect(params[name]).toBeUndefined();
    }
    expect(Object.getPrototypeOf(Object.getPrototypeOf(params))).toBeNull();
    expect({ ...params }).toEqual({ id: '7' });
  });

  it('accepts only ASCII digits that form a safe integer for {int:}', () => {
    const router = routerWith([['GET', '/n/{int:id}']]);
    expect(router.find('GET', '/n/007')?.params.id).toBe(7);
    expect(router.find('GET', '/n/9007199254740991')?.params.id).toBe(9007199254740991);
    for (const rejected of ['9007199254740992', '12345678901234567890', '-1', '1.5', '1e3', '12a', '٣', '%31', ' 1']) {
      expect(router.find('GET', `/n/${rejected}`), rejected).toBeNull();
    }
  });

  it('accepts a 26-character Crockford ULID in either case and delivers it as sent', () => {
    const router = routerWith([['GET', '/items/{ulid:id}']]);
    expect(router.find('GET', `/items/${ULID}`)?.params.id).toBe(ULID);
    expect(router.find('GET', `/items/${ULID.toLowerCase()}`)?.params.id).toBe(ULID.toLowerCase());
    for (const rejected of [
      ULID.slice(1),
      `${ULID}0`,
      `${ULID.slice(0, 25)}I`,
      `${ULID.slice(0, 25)}u`,
      'O'.repeat(26),
    ]) {
      expect(router.find('GET', `/items/${rejected}`), rejected).toBeNull();
    }
  });

  it('checks a declared pattern case-insensitively, anchored to the whole segment', () => {
    const router = new Router<string>();
    router.add('GET', '/colors/{hex}', 'hex', { parameters: [pattern('hex', '^[0-9a-f]{6}$')] });
    expect(router.find('GET', '/colors/FF00aa')?.params.hex).toBe('FF00aa');
    expect(router.find('GET', '/colors/ff00aa0')).toBeNull();
    expect(router.find('GET', '/colors/gg00aa')).toBeNull();
  });

  it('gives each lookup its own params, also after a lookup that threw while matching', () => {
    const router = new Router<string>();
    router.add('GET', '/colors/{hex}/{int:shade}', 'hex', { parameters: [pattern('hex', '^[0-9a-f]{6}$')] });
    router.add('GET', '/users/{int:id}/{name}', 'user');
    const first = router.find('GET', '/colors/ff00aa/7');
    expect(() => router.find('GET', '/colors/%E0%A4%A/7')).toThrow(InvalidInput);
    const second = router.find('GET', '/users/42/ada');
    expect({ ...first?.params }).toEqual({ hex: 'ff00aa', shade: 7 });
    expect({ ...second?.params }).toEqual({ id: 42, name: 'ada' });
    expect(router.find('GET', '/colors/ff00aa/x')).toBeNull();
  });

  it('anchors an unanchored declared pattern too', () => {
    const router = new Router<string>();
    router.add('GET', '/codes/{code}', 'code', { parameters: [pattern('code', '[A-Z]{2}')] });
    expect(router.find('GET', '/codes/fr')?.params.code).toBe('fr');
    expect(router.find('GET', '/codes/fra')).toBeNull();
  });

  it('treats a {name} declared with type integer like {int:name}', () => {
    const router = new Router<string>();
    router.add('GET', '/pages/{page}', 'page', {
      parameters: [{ name: 'page', in: 'path', schema: { type: 'integer' } }],
    });
    expect(router.find('GET', '/pages/3')?.params.page).toBe(3);
    expect(router.find('GET', '/pages/three')).toBeNull();
  });

  it('supports a parameter between a static prefix and suffix', () => {
    const router = routerWith([
      ['GET', '/files/{name}.json'],
      ['GET', '/v{int:major}'],
    ]);
    expect(summary(router.find('GET', '/files/report.json'))).toEqual({
      route: 'GET /files/{name}.json',
      params: { name: 'report' },
    });
    expect(router.find('GET', '/files/report.tar.JSON')?.params.name).toBe('report.tar');
    expect(router.find('GET', '/files/.json')).toBeNull();
    expect(router.find('GET', '/files/report.xml')).toBeNull();
    expect(router.find('GET', '/V12')?.params.major).toBe(12);
    expect(router.find('GET', '/vx')).toBeNull();
  });

  it('percent-decodes parameter values, keeping %2F inside one segment', () => {
    const router = routerWith([
      ['GET', '/files/{name}'],
      ['GET', '/files/{name}/raw'],
    ]);
    expect(summary(router.find('GET', '/files/a%2Fb'))).toEqual({
      route: 'GET /files/{name}',
      params: { name: 'a/b' },
    });
    expect(router.find('GET', '/files/caf%C3%A9%20au%20lait/raw')?.params.name).toBe('café au lait');
    expect(router.find('GET', '/files/100+')?.params.name).toBe('100+');
  });

  it('throws InvalidInput for a malformed percent-encoding', () => {
    const router = routerWith([['GET', '/files/{name}']]);
    expect(() => router.find('GET', '/files/%E0%A4%A')).toThrow(InvalidInput);
    expect(() => router.find('GET', '/files/%zz')).toThrow('Malformed percent-encoding in path.');
  });

  it('never matches a parameter with an empty segment', () => {
    const router = routerWith([
      ['GET', '/users/{id}'],
      ['GET', '/users/{id}/posts'],
    ]);
    expect(router.find('GET', '/users/')).toBeNull();
    expect(router.find('GET', '/users//posts')).toBeNull();
  });

  it('keeps the case of parameter values while ignoring the case of static parts', () => {
    const router = routerWith([['GET', '/Users/{name}/Posts']]);
    expect(summary(router.find('GET', '/uSERS/JoHn/pOSTS'))).toEqual({
      route: 'GET /Users/{name}/Posts',
      params: { name: 'JoHn' },
    });
  });
});

describe('Router priority', () => {
  const orders: [string, string][][] = [
    [
      ['GET', '/users/{id}'],
      ['GET', '/users/{int:id}'],
      ['GET', '/users/search'],
    ],
    [
      ['GET', '/users/search'],
      ['GET', '/users/{int:id}'],
      ['GET', '/users/{id}'],
    ],
    [
      ['GET', '/users/{int:id}'],
      ['GET', '/users/{id}'],
      ['GET', '/users/search'],
    ],
  ];

  it.each(orders)('prefers static, then typed, then plain whatever the order (%#)', (...routes) => {
    const router = routerWith(routes);
    expect(router.find('GET', '/users/search')?.value).toBe('GET /users/search');
    expect(router.find('GET', '/users/SEARCH')?.value).toBe('GET /users/search');
    expect(summary(router.find('GET', '/users/12'))).toEqual({ route: 'GET /users/{int:id}', params: { id: 12 } });
    expect(summary(router.find('GET', '/users/bob'))).toEqual({ route: 'GET /users/{id}', params: { id: 'bob' } });
  });

  it('prefers more static segments even when a plain parameter comes first', () => {
    const router = routerWith([
      ['GET', '/a/{x}/{y}'],
      ['GET', '/{x}/b/c'],
    ]);
    expect(router.find('GET', '/a/b/c')?.value).toBe('GET /{x}/b/c');
    expect(router.find('GET', '/a/b/d')?.value).toBe('GET /a/{x}/{y}');
  });

  it('backtracks out of a static branch that leads nowhere', () => {
    const router = routerWith([
      ['GET', '/users/search/recent'],
      ['GET', '/users/{id}/posts'],
    ]);
    expect(summary(router.find('GET', '/users/search/posts'))).toEqual({
      route: 'GET /users/{id}/posts',
      params: { id: 'search' },
    });
  });

  it('breaks ties by the leftmost static segment, then by declaration order', () => {
    const router = routerWith([
      ['GET', '/{x}/b'],
      ['GET', '/a/{y}'],
    ]);
    expect(router.find('GET', '/a/b')?.value).toBe('GET /a/{y}');
    const first = new Router<string>();
    first.add('GET', '/p/{code}', 'letters', { parameters: [pattern('code', '[a-z0-9]+')] });
    first.add('GET', '/p/{code}', 'digits', { parameters: [pattern('code', '[0-9]+')] });
    expect(first.find('GET', '/p/42')?.value).toBe('letters');
  });

  it('prefers int, then ulid, then a declared pattern when several typed checks accept a segment', () => {
    const zeros = '0'.repeat(26);
    const ulid = ULID.toLowerCase();
    for (const reversed of [false, true]) {
      const router = new Router<string>();
      const declarations: [string, string, ParameterDeclaration[]][] = [
        ['pattern', '/z/{id}', [pattern('id', '[0-9a-z]+')]],
        ['ulid', '/z/{ulid:id}', []],
        ['int', '/z/{int:id}', []],
      ];
      if (reversed) declarations.reverse();
      for (const [value, template, parameters] of declarations) router.add('GET', template, value, { parameters });
      expect(summary(router.find('GET', `/z/${zeros}`))).toEqual({ route: 'int', params: { id: 0 } });
      expect(summary(router.find('GET', `/z/${ulid}`))).toEqual({ route: 'ulid', params: { id: ulid } });
      expect(summary(router.find('GET', '/z/000'))).toEqual({ route: 'int', params: { id: 0 } });
      expect(summary(router.find('GET', '/z/90071992547409930'))).toEqual({
        route: 'pattern',
        params: { id: '90071992547409930' },
      });
    }
  });

  it('ranks a typed parameter above a plain one further left', () => {
    const router = routerWith([
      ['GET', '/{a}/{b}'],
      ['GET', '/{a}/{int:b}'],
    ]);
    expect(router.find('GET', '/x/5')?.value).toBe('GET /{a}/{int:b}');
    expect(router.find('GET', '/x/y')?.value).toBe('GET /{a}/{b}');
  });

  it('looks for another route of the requested method when the static path has other methods only', () => {
    const router = routerWith([
      ['GET', '/users/search'],
      ['DELETE', '/users/{id}'],
    ]);
    expect(summary(router.find('DELETE', '/users/search'))).toEqual({
      route: 'DELETE /users/{id}',
      params: { id: 'search' },
    });
  });
});

describe('Router trailing slashes', () => {
  it('is strict by default', () => {
    const router = routerWith([
      ['GET', '/users'],
      ['GET', '/users/{id}'],
      ['GET', '/teams/'],
    ]);
    expect(router.find('GET', '/users/')).toBeNull();
    expect(router.find('GET', '/users/1/')).toBeNull();
    expect(router.find('GET', '/teams/')?.value).toBe('GET /teams/');
    expect(router.find('GET', '/teams')).toBeNull();
  });

  it('ignores one trailing slash with ignoreTrailingSlash', () => {
    const router = routerWith(
      [
        ['GET', '/users'],
        ['GET', '/users/{id}'],
        ['GET', '/teams/'],
        ['GET', '/'],
      ],
      { ignoreTrailingSlash: true },
    );
    expect(router.find('GET', '/users/')?.value).toBe('GET /users');
    expect(router.find('GET', '/users/1/')?.params.id).toBe('1');
    expect(router.find('GET', '/teams')?.value).toBe('GET /teams/');
    expect(router.find('GET', '/')?.value).toBe('GET /');
  });
});

describe('Router.allowedMethods', () => {
  const router = routerWith([
    ['PUT', '/users/{int:id}'],
    ['GET', '/users/{id}'],
    ['DELETE', '/users/{int:id}'],
    ['POST', '/users'],
    ['get', '/users'],
  ]);

  it('lists the sorted methods that have a route for the path', () => {
    expect(router.allowedMethods('/users/5')).toEqual(['DELETE', 'GET', 'PUT']);
    expect(router.allowedMethods('/users/bob')).toEqual(['GET']);
    expect(router.allowedMethods('/USERS')).toEqual(['GET', 'POST']);
  });

  it('is empty for an unknown path', () => {
    expect(router.allowedMethods('/teams')).toEqual([]);
    expect(router.allowedMethods('/users/5/x')).toEqual([]);
  });

  it('upper-cases methods given at registration', () => {
    expect(router.find('GET', '/users')?.value).toBe('get /users');
  });
});
