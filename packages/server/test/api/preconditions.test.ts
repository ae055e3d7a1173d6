// If-Match: quotes trimmed, values .NET cannot turn back into a DateTime refused with the ODS's 400; If-None-Match raw.
import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../../src/api/index.js';
import { ifMatchOf, isNotModified } from '../../src/api/preconditions.js';

function problemOf(action: () => unknown): ApiProblem {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiProblem) return error;
    throw error;
  }
  throw new Error('Expected an ApiProblem');
}

describe('If-Match', () => {
  it('is absent without the header and unquoted with it', () => {
    expect(ifMatchOf({})).toBeUndefined();
    expect(ifMatchOf({ 'if-match': '"5250093105232954695"' })).toBe('5250093105232954695');
    expect(ifMatchOf({ 'if-match': '5250093105232954695' })).toBe('5250093105232954695');
  });

  it('passes values that can never match on to the store (412)', () => {
    expect(ifMatchOf({ 'if-match': 'W/"12"' })).toBe('W/"12');
    expect(ifMatchOf({ 'if-match': '""' })).toBe('');
    expect(ifMatchOf({ 'if-match': '99999999999999999999' })).toBe('99999999999999999999');
  });

  it.each(['4611686018427387903', '3155378976000000000', '-6067993060854775808'])(
    'refuses %s, which is not a DateTime binary',
    (value) => {
      const problem = problemOf(() => ifMatchOf({ 'if-match': `"${value}"` }));
      expect(problem.problem.type).toBe('urn:ed-fi:api:bad-request:parameter-validation-failed');
      expect(problem.detail).toBe('An invalid value was provided for use in detecting changes applied by other users.');
      expect(problem.errors).toEqual([
        'An invalid ETag value was provided that could not be processed back into a Date/Time value.',
      ]);
    },
  );

  it.each(['0', '3155378975999999999', '5250093105232954695', '-8588535917854752009'])(
    'accepts the DateTime binary %s',
    (value) => {
      expect(ifMatchOf({ 'if-match': value })).toBe(value);
    },
  );
});

describe('If-None-Match', () => {
  it('matches the unquoted etag only', () => {
    expect(isNotModified({ 'if-none-match': '123' }, '123')).toBe(true);
    expect(isNotModified({ 'if-none-match': '"123"' }, '123')).toBe(false);
    expect(isNotModified({}, '123')).toBe(false);
  });
});
