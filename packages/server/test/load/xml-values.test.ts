import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertXmlValue } from '../../src/load/xml/xml-values.js';

describe('XML leaf values', () => {
  it('reads XSD integers, decimals and booleans, and refuses other text', () => {
    fc.assert(
      fc.property(fc.integer(), (value) => {
        expect(convertXmlValue(` ${value} `, 'integer')).toEqual({ ok: true, value });
      }),
    );
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        // String(-0) is '0', so -0 reads back as 0.
        expect(convertXmlValue(String(value), 'number')).toEqual({ ok: true, value: value === 0 ? 0 : value });
      }),
    );
    expect(['true', '1', 'false', '0'].map((text) => convertXmlValue(text, 'boolean'))).toEqual([
      { ok: true, value: true },
      { ok: true, value: true },
      { ok: true, value: false },
      { ok: true, value: false },
    ]);
    expect(convertXmlValue('1.5', 'integer')).toEqual({ ok: false, problem: "'1.5' is not an integer" });
    expect(convertXmlValue('', 'number')).toEqual({ ok: false, problem: "'' is not a number" });
    expect(convertXmlValue('yes', 'boolean')).toEqual({ ok: false, problem: "'yes' is not a boolean" });
  });

  it('reads a school year range as its ending year', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1990, max: 2100 }), (year) => {
        expect(convertXmlValue(`${year - 1}-${year}`, 'schoolYear')).toEqual({ ok: true, value: year });
      }),
    );
    expect(convertXmlValue('2022', 'schoolYear')).toEqual({ ok: true, value: 2022 });
    expect(convertXmlValue('SY22', 'schoolYear')).toMatchObject({ ok: false });
  });

  it('keeps descriptor URIs and completes bare code values', () => {
    const namespace = 'uri://ed-fi.org/SexDescriptor';
    expect(convertXmlValue('uri://x.org/SexDescriptor#F', 'descriptor', namespace)).toEqual({
      ok: true,
      value: 'uri://x.org/SexDescriptor#F',
    });
    expect(convertXmlValue(' Female ', 'descriptor', namespace)).toEqual({ ok: true, value: `${namespace}#Female` });
  });
});
