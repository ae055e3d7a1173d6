// Converts the text of a leaf XML element to its JSON value (XSD lexical forms → JSON scalars).
import type { XmlValueType } from './interchange-mapping.js';

export type XmlValueResult = { ok: true; value: string | number | boolean } | { ok: false; problem: string };

const INTEGER = /^[+-]?\d+$/;
/** XSD `SchoolYearType` values are `2021-2022`; the API's school year is the ending year. */
const SCHOOL_YEAR_RANGE = /^(\d{4})-(\d{4})$/;
const SCHOOL_YEAR = /^\d{4}$/;

function invalid(text: string, what: string): XmlValueResult {
  return { ok: false, problem: `'${text}' is not ${what}` };
}

export function convertXmlValue(rawText: string, type: XmlValueType, codeValueNamespace?: string): XmlValueResult {
  const text = rawText.trim();
  switch (type) {
    case 'string':
      return { ok: true, value: text };
    case 'descriptor':
      // DS 5.2 XML carries URIs; older producers wrote the code value of a default descriptor.
      return { ok: true, value: text.includes('#') || !codeValueNamespace ? text : `${codeValueNamespace}#${text}` };
    case 'integer':
      return INTEGER.test(text) ? { ok: true, value: Number(text) } : invalid(text, 'an integer');
    case 'number': {
      const value = text === '' ? Number.NaN : Number(text);
      return Number.isFinite(value) ? { ok: true, value } : invalid(text, 'a number');
    }
    case 'boolean':
      if (text === 'true' || text === '1') return { ok: true, value: true };
      if (text === 'false' || text === '0') return { ok: true, value: false };
      return invalid(text, 'a boolean');
    case 'schoolYear': {
      const range = SCHOOL_YEAR_RANGE.exec(text);
      if (range) return { ok: true, value: Number(range[2]) };
      return SCHOOL_YEAR.test(text) ? { ok: true, value: Number(text) } : invalid(text, 'a school year (2021-2022)');
    }
  }
}
