import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isToken68 } from '../../src/auth/authorization-header.js';

/** RFC 7235 §2.1 token68, as a regex: the reference the table-driven check must agree with. */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

describe('isToken68', () => {
  it('accepts token68 spellings and refuses the rest', () => {
    for (const text of ['abc', 'a.b-c_d~e+f/g', 'eyJ0.eyJz.c2ln', 'YQ==', 'a='])
      expect(isToken68(text), text).toBe(true);
    for (const text of ['', '=', '==', 'a=b', 'a b', 'a,b', 'é', 'a\n', '"a"'])
      expect(isToken68(text), text).toBe(false);
  });

  it('agrees with the grammar as a regex', () => {
    const alphabet = [...'Az09-._~+/= ,;"\n\u00e9\u2028'];
    const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 12 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(fc.oneof(text, fc.string()), (candidate) => isToken68(candidate) === TOKEN68.test(candidate)),
    );
  });
});
