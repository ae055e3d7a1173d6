// compileBaseUri: version and path extraction with the default pattern, RegExps and PCRE-style strings.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors.js';
import { compileBaseUri } from '../../src/router/base-uri.js';

describe('compileBaseUri with the default pattern', () => {
  const match = compileBaseUri();

  it('splits /api/v<n>/… into the version and the path', () => {
    expect(match('/api/v1/users/1')).toEqual({ version: 1, path: '/users/1' });
    expect(match('/api/v12/')).toEqual({ version: 12, path: '/' });
  });

  it('reads the version as a number, so v01 is version 1', () => {
    expect(match('/api/v01/users')).toEqual({ version: 1, path: '/users' });
    expect(match('/api/v007/x')).toEqual({ version: 7, path: '/x' });
  });

  it('collapses leading slashes of the path into one', () => {
    expect(match('/api/v2//users')).toEqual({ version: 2, path: '/users' });
    expect(match('/api/v2///')).toEqual({ version: 2, path: '/' });
  });

  it('keeps the rest of the path as it is', () => {
    expect(match('/api/v3/Users/a%20b/')).toEqual({ version: 3, path: '/Users/a%20b/' });
  });

  it('matches the prefix in any letter case, like the routes', () => {
    expect(match('/API/V1/USERS/SEARCH')).toEqual({ version: 1, path: '/USERS/SEARCH' });
    expect(match('/Api/v2/x')).toEqual({ version: 2, path: '/x' });
  });

  it.each([
    '/api/v1',
    '/api/v/users',
    '/api/vx/users',
    '/api/v1users',
    '/APİ/v1/users',
    '/other/v1/users',
    'api/v1/users',
    '',
    '/api/v1/a\nb',
  ])('does not match %j', (pathname) => {
    expect(match(pathname)).toBeNull();
  });

  it('behaves exactly like the default regular expression, case-insensitive', () => {
    const regex = /^\/api\/v(?<Version>[0-9]+)(?<Path>\/.*)$/i;
    const pieces = fc.constantFrom('/api/v', '/API/V', '/Api/v', '/', '1', '0', '9', 'v', 'a', 'API', '//', '\n', '?');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 8 }), (parts) => {
        const pathname = parts.join('');
        const groups = regex.exec(pathname)?.groups;
        const expected =
          groups === undefined
            ? null
            : { version: Number(groups.Version), path: '/' + (groups.Path ?? '').replace(/^\/+/, '') };
        expect(match(pathname)).toEqual(expected);
      }),
    );
  });

  it('gives the default spelled as a case-insensitive pattern the same answers', () => {
    for (const pattern of ['#^/api/v(?P<Version>[0-9]+)(?P<Path>/.*)$#i', /^\/api\/v(?<Version>\d+)(?<Path>\/.*)$/i]) {
      expect(compileBaseUri(pattern)('/API/v4//x')).toEqual({ version: 4, path: '/x' });
    }
  });

  it('keeps a user pattern case-sensitive when it has no i flag, even when it spells the default', () => {
    for (const pattern of ['^/api/v(?<Version>[0-9]+)(?<Path>/.*)$', /^\/api\/v(?<Version>\d+)(?<Path>\/.*)$/]) {
      expect(compileBaseUri(pattern)('/api/v4//x')).toEqual({ version: 4, path: '/x' });
      expect(compileBaseUri(pattern)('/API/v4/x')).toBeNull();
    }
  });
});

describe('compileBaseUri with a custom pattern', () => {
  it('accepts a RegExp', () => {
    const match = compileBaseUri(/^\/svc\/(?<Version>\d+)(?<Path>\/.*)$/);
    expect(match('/svc/3/items/9')).toEqual({ version: 3, path: '/items/9' });
    expect(match('/api/v3/items/9')).toBeNull();
  });

  it('adds the leading slash when the Path group starts after it', () => {
    const match = compileBaseUri('^/api/v(?<Version>[0-9]+)/(?<Path>.*)$');
    expect(match('/api/v1/users/1')).toEqual({ version: 1, path: '/users/1' });
    expect(match('/api/v1/')).toEqual({ version: 1, path: '/' });
  });

  it('ignores the g and y flags, which would make matching depend on earlier calls', () => {
    const match = compileBaseUri(/^\/v(?<Version>\d+)(?<Path>\/.*)$/gy);
    expect(match('/v1/a')).toEqual({ version: 1, path: '/a' });
    expect(match('/v1/a')).toEqual({ version: 1, path: '/a' });
  });

  it('accepts a PCRE string with (?P< groups and #…#i delimiters', () => {
    const match = compileBaseUri('#^/API/V(?P<Version>[0-9]+)(?P<Path>/.*)$#i');
    expect(match('/api/v2/users')).toEqual({ version: 2, path: '/users' });
    expect(match('/Api/V02/Users')).toEqual({ version: 2, path: '/Users' });
  });

  it('accepts a PCRE string with /…/ delimiters and escaped slashes', () => {
    const match = compileBaseUri('/^\\/rest\\/(?P<Version>\\d+)(?P<Path>\\/.*)$/');
    expect(match('/rest/5/a')).toEqual({ version: 5, path: '/a' });
    expect(match('/REST/5/a')).toBeNull();
  });

  it('reads an undelimited string as a JS pattern even when it starts with a slash', () => {
    const match = compileBaseUri('/v(?<Version>\\d+)(?<Path>/.*)');
    expect(match('/x/v6/a/b')).toEqual({ version: 6, path: '/a/b' });
  });

  it('unescapes the delimiter inside a delimited pattern', () => {
    const match = compileBaseUri('#^/v(?P<Version>\\d+)(?P<Path>/[^\\#]*)$#');
    expect(match('/v1/a')).toEqual({ version: 1, path: '/a' });
    expect(match('/v1/a#b')).toBeNull();
  });

  it('does not match when the Version group captured no digits', () => {
    const match = compileBaseUri('^/(?<Version>[a-z0-9]*)(?<Path>/.*)$');
    expect(match('/abc/x')).toBeNull();
    expect(match('//x')).toBeNull();
    expect(match('/10/x')).toEqual({ version: 10, path: '/x' });
  });

  it('treats an optional Path group that did not take part as the root path', () => {
    const match = compileBaseUri('^/v(?<Version>\\d+)(?<Path>/.*)?$');
    expect(match('/v1')).toEqual({ version: 1, path: '/' });
  });
});

describe('compileBaseUri without a Version group', () => {
  it('serves every request as version 1 of a single-version API', () => {
    const match = compileBaseUri('#^/v7\\.3/api(?P<Path>/.*)?$#i');
    expect(match('/v7.3/api/data/v3/ed-fi/students')).toEqual({ version: 1, path: '/data/v3/ed-fi/students' });
    expect(match('/V7.3/API')).toEqual({ version: 1, path: '/' });
    expect(match('/v7.3/api/')).toEqual({ version: 1, path: '/' });
    expect(match('/v7x3/api/x')).toBeNull();
  });
});

describe('compileBaseUri configuration errors', () => {
  it.each([['^/api/v(?<Version>[0-9]+)/.*$'], [/^\/api$/]])('rejects %s, which lacks the Path group', (pattern) => {
    expect(() => compileBaseUri(pattern)).toThrow(ConfigurationError);
    expect(() => compileBaseUri(pattern)).toThrow(/named group Path/);
  });

  it('rejects an invalid regular expression', () => {
    expect(() => compileBaseUri('^/api/v(?<Version>[0-9+)(?<Path>/.*)$')).toThrow(ConfigurationError);
  });

  it('rejects a PCRE modifier without a JS equivalent', () => {
    expect(() => compileBaseUri('#^/v(?P<Version>\\d+)(?P<Path>/.*)$#x')).toThrow(/modifier 'x'/);
  });
});
