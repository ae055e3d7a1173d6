// Start-up errors of Router.add: malformed templates, parameter declarations, unsafe patterns and duplicates.

import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors.js';
import type { ParameterDeclaration } from '../../src/types.js';
import { Router } from '../../src/router/router.js';

function declaration(name: string, schema: ParameterDeclaration['schema']): ParameterDeclaration {
  return { name, in: 'path', required: true, schema };
}

function addError(template: string, parameters: readonly ParameterDeclaration[] = []): unknown {
  try {
    new Router<string>().add('GET', template, 'x', { parameters, source: 'V1/Users.ts#get' });
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('Router.add template errors', () => {
  it.each([
    ['users', /must start with "\/"/],
    ['/users/{kind:id}', /unknown parameter type "kind"/],
    ['/users/{id}/{id}', /\{id\} appears twice/],
    ['/users/{int:id}/{id}', /\{id\} appears twice/],
    ['/users/{a}{b}', /exactly one \{parameter\}/],
    ['/users/{a', /exactly one \{parameter\}/],
    ['/users/a}', /exactly one \{parameter\}/],
    ['/users/}a{', /exactly one \{parameter\}/],
    ['/users/{}', /invalid parameter name/],
    ['/users/{int:}', /invalid parameter name/],
    ['/users//{id}', /empty segment/],
  ])('rejects %s', (template, message) => {
    const error = addError(template);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(`GET ${template} (V1/Users.ts#get)`);
  });
});

describe('Router.add parameter declarations', () => {
  it('rejects a declared parameter that is not in the path', () => {
    const error = addError('/users/{id}', [declaration('userId', { type: 'string', pattern: '[a-z]+' })]);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/userId are not in the path/);
  });

  it('rejects a parameter declared twice', () => {
    const twice = [declaration('id', { type: 'string' }), declaration('id', { type: 'integer' })];
    expect((addError('/users/{id}', twice) as Error).message).toMatch(/declared twice/);
  });

  it.each([
    ['/users/{int:id}', { type: 'string' } as const],
    ['/users/{int:id}', { type: 'integer', pattern: '[0-9]+' } as const],
    ['/users/{ulid:id}', { type: 'integer' } as const],
    ['/users/{ulid:id}', { type: 'string', pattern: '[0-9A-Z]{26}' } as const],
    ['/users/{id}', { type: 'integer', pattern: '[0-9]+' } as const],
  ])('rejects %s declared with a conflicting schema %j', (template, schema) => {
    expect(addError(template, [declaration('id', schema)])).toBeInstanceOf(ConfigurationError);
  });

  it('accepts declarations that agree with the type prefix', () => {
    expect(addError('/users/{int:id}', [declaration('id', { type: 'integer' })])).toBeUndefined();
    expect(addError('/users/{ulid:id}', [declaration('id', { type: 'string' })])).toBeUndefined();
  });

  it.each(['.+', '[^a]+', '\\S+', '[\\s\\S]*', '[!-~]+', '\\x2f', '\\u002F', '\\57', '(a|/)', 'a|b/c'])(
    'rejects the pattern %s, which can match "/"',
    (pattern) => {
      const error = addError('/files/{name}', [declaration('name', { type: 'string', pattern })]);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(/can match "\/"/);
    },
  );

  it.each(['(a+)+', '(a*)*', '([a-z]+)*', '(?:\\d+){2,}', '((ab)+c)+', '(a?b?)+', '(?<x>\\w+)+$'])(
    'rejects the catastrophic pattern %s',
    (pattern) => {
      const error = addError('/files/{name}', [declaration('name', { type: 'string', pattern })]);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(/nests repeated quantifiers/);
    },
  );

  it.each([
    '^[0-9A-HJKMNP-TV-Z]{26}$',
    '[^/]+',
    '[a-z0-9-]+',
    '\\w+(?:\\.\\w+)?',
    '(ab)+',
    '(a+)?',
    '(?:a{2}){3}',
    '[a-z]+\\$',
    '(?!.*--)[a-z-]+',
    'a\\{1\\}',
  ])('accepts the pattern %s', (pattern) => {
    expect(addError('/files/{name}', [declaration('name', { type: 'string', pattern })])).toBeUndefined();
  });

  it('rejects an invalid regular expression', () => {
    const error = addError('/files/{name}', [declaration('name', { type: 'string', pattern: '[a-z' })]);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/not a valid regular expression/);
  });
});

describe('Router.add duplicates', () => {
  function duplicateMessage(first: [string, string, string], second: [string, string, string]): string {
    const router = new Router<string>();
    router.add(first[0], first[1], 'first', { source: first[2] });
    try {
      router.add(second[0], second[1], 'second', { source: second[2] });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      return (error as Error).message;
    }
    throw new Error('expected a duplicate-route error');
  }

  it('names both sources of a duplicate static route, ignoring case', () => {
    const message = duplicateMessage(['GET', '/Users/Me', 'a.ts#me'], ['get', '/users/me', 'b.ts#self']);
    expect(message).toContain('GET /users/me (b.ts#self)');
    expect(message).toContain('GET /Users/Me (a.ts#me)');
  });

  it('compares parameters by position and type, not by name', () => {
    const message = duplicateMessage(['GET', '/users/{int:id}', 'a.ts'], ['GET', '/USERS/{int:userId}', 'b.ts']);
    expect(message).toMatch(/GET \/USERS\/\{int:userId\} \(b\.ts\).*GET \/users\/\{int:id\} \(a\.ts\)/);
    expect(duplicateMessage(['GET', '/f/{a}.JSON', 'a.ts'], ['GET', '/f/{b}.json', 'b.ts'])).toMatch(/b\.ts.*a\.ts/);
  });

  it('allows the same path with another method or another parameter type', () => {
    const router = new Router<string>();
    router.add('GET', '/users/{id}', 'a');
    router.add('PUT', '/users/{id}', 'b');
    router.add('GET', '/users/{int:id}', 'c');
    router.add('GET', '/users/{ulid:id}', 'd');
    router.add('GET', '/users/search', 'e');
    expect(router.allowedMethods('/users/x')).toEqual(['GET', 'PUT']);
  });

  it('sees /users/ and /users as one route under ignoreTrailingSlash', () => {
    const router = new Router<string>({ ignoreTrailingSlash: true });
    router.add('GET', '/users', 'a', { source: 'a.ts' });
    expect(() => router.add('GET', '/users/', 'b', { source: 'b.ts' })).toThrow(/b\.ts.*a\.ts/);
  });
});
