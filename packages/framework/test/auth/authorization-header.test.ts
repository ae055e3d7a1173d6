import { describe, expect, it } from 'vitest';
import { isToken68 } from '../../src/auth/authorization-header.js';

describe('isToken68', () => {
  it('accepts token68 spellings and refuses the rest', () => {
    for (const text of ['abc', 'a.b-c_d~e+f/g', 'eyJ0.eyJz.c2ln', 'YQ==', 'a='])
      expect(isToken68(text), text).toBe(true);
    for (const text of ['', '=', '==', 'a=b', 'a b', 'a,b', 'é', 'a\n', '"a"'])
      expect(isToken68(text), text).toBe(false);
  });
});
