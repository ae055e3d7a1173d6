import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Token } from '../../src/auth/token.js';

describe('Token', () => {
  const token = new Token({
    sub: 'client-1',
    count: 42,
    admin: true,
    roles: ['a', 'b'],
    profile: { name: 'Ada' },
    nothing: null,
    scope: 'read write',
  });

  it('keeps claims with their JSON types', () => {
    expect(token.claims.count).toBe(42);
    expect(token.get('count')).toBe(42);
    expect(token.get('admin')).toBe(true);
    expect(token.get('roles')).toEqual(['a', 'b']);
    expect(token.get('profile')).toEqual({ name: 'Ada' });
    expect(token.get('nothing')).toBeNull();
  });

  it('answers undefined for absent claims, including inherited names', () => {
    expect(token.get('missing')).toBeUndefined();
    expect(token.get('constructor')).toBeUndefined();
    expect(token.get('toString')).toBeUndefined();
  });

  it('has() tells present claims from absent ones', () => {
    expect(token.has('sub')).toBe(true);
    expect(token.has('nothing')).toBe(true);
    expect(token.has('missing')).toBe(false);
    expect(token.has('constructor')).toBe(false);
  });

  it('getPayload() stringifies scalars and serialises arrays and objects', () => {
    expect(token.getPayload('sub')).toBe('client-1');
    expect(token.getPayload('count')).toBe('42');
    expect(token.getPayload('admin')).toBe('true');
    expect(token.getPayload('roles')).toBe('["a","b"]');
    expect(token.getPayload('profile')).toBe('{"name":"Ada"}');
    expect(token.getPayload('nothing')).toBeUndefined();
    expect(token.getPayload('missing')).toBeUndefined();
  });

  it('parses a space-separated scope string', () => {
    expect(token.scopes).toEqual(['read', 'write']);
    expect(new Token({ scope: '  read \t write\n admin ' }).scopes).toEqual(['read', 'write', 'admin']);
    expect(new Token({ scope: '' }).scopes).toEqual([]);
    expect(new Token({ scope: ' read  write ' }).scopes).toEqual(['read', 'write']);
    expect(new Token({ scope: 'read\u00a0write' }).scopes).toEqual(['read', 'write']);
  });

  it('takes a scope array, keeping only non-empty strings', () => {
    expect(new Token({ scope: ['read', 'write'] }).scopes).toEqual(['read', 'write']);
    expect(new Token({ scope: ['read', 7, null, '', { a: 1 }, 'admin'] }).scopes).toEqual(['read', 'admin']);
  });

  it('grants no scopes for an absent or non-string, non-array scope claim', () => {
    expect(new Token({}).scopes).toEqual([]);
    expect(new Token({ scope: 12 }).scopes).toEqual([]);
    expect(new Token({ scope: null }).scopes).toEqual([]);
    expect(new Token({ scope: { read: true } }).scopes).toEqual([]);
  });

  it('never throws, whatever the claims hold', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue(), (claims, scope) => {
        const parsed = new Token({ ...claims, scope });
        for (const granted of parsed.scopes) expect(granted.length).toBeGreaterThan(0);
        if (typeof scope === 'string') for (const granted of parsed.scopes) expect(granted).toMatch(/^\S+$/);
        for (const name of Object.keys(claims)) expect(() => parsed.getPayload(name)).not.toThrow();
      }),
    );
  });

  it('types get() from the claim type', () => {
    const typed = new Token<{ sub: string; level: number }>({ sub: 'x', level: 3 });
    expectTypeOf(typed.get('sub')).toEqualTypeOf<string | undefined>();
    expectTypeOf(typed.get('level')).toEqualTypeOf<number | undefined>();
    expectTypeOf(typed.get('other')).toEqualTypeOf<unknown>();
    expect(typed.get('level')).toBe(3);
  });
});
