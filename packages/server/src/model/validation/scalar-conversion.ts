// Converts one JSON input value to a model scalar the way the ODS binds bodies (contract §3.1, §3.12): numeric strings
// for numbers, lenient booleans, numbers as strings, dates/times/date-times normalised (times and date-times to UTC).
import { messages } from './messages.js';

/** A value that could not be converted; the message needs the (Newtonsoft-style) path of the value. */
export class ConversionError {
  constructor(readonly messageAt: (path: string) => string) {}
}

/** The converted value, `undefined` when the input counts as absent (blank text for non-text members), or an error. */
export type Converted<T> = T | undefined | ConversionError;

export type ScalarConverter = (raw: unknown) => Converted<string | number | boolean>;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;
const DECIMAL_TEXT = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const ISO_DATE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
/**
 * What .NET's invariant-culture DateTime parsing (Newtonsoft's, for DateTime members) accepts of the common forms: the
 * date as `yyyy-MM-dd`, `yyyy/M/d` or `M/d/yyyy`, then optionally a time `H:mm[:ss[.fffffff]]` after `T` or spaces,
 * with an optional AM/PM designator, then an optional `Z` or offset.
 */
const DATE_TIME =
  /^(?:(\d{4})[-/](\d{1,2})[-/](\d{1,2})|(\d{1,2})\/(\d{1,2})\/(\d{4}))(?:(?:T|\s+)(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:\s*([AP])M)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{1,2}(?::?\d{2})?)?$/i;
const MINUTES_PER_DAY = 24 * 60;
const BLANK = /^\s*$/;

function isBlankText(raw: unknown): boolean {
  return typeof raw === 'string' && BLANK.test(raw);
}

function tokenOf(raw: unknown): string {
  if (Array.isArray(raw)) return 'StartArray';
  if (typeof raw === 'object') return 'StartObject';
  if (typeof raw === 'boolean') return 'Boolean';
  if (typeof raw === 'number') return Number.isInteger(raw) ? 'Integer' : 'Float';
  return 'String';
}

function unexpected(reading: string, raw: unknown): ConversionError {
  const token = tokenOf(raw);
  return new ConversionError((path) => messages.conversion.unexpectedToken(reading, token, path));
}

/**
 * Whether a number's JavaScript text is the text the client sent, as far as can be told: the ODS keeps a number sent
 * for a string as its JSON text, but parsing has lost that text, so a number printed as `Infinity` or in exponent
 * form (beyond double range, or more than 21 digits) or an integer past 2^53 is refused rather than stored altered.
 */
function keepsItsText(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) return false;
  return !String(value).includes('e');
}

export const convertString: ScalarConverter = (raw) => {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'boolean') return String(raw);
  if (typeof raw === 'number' && keepsItsText(raw)) return String(raw);
  return unexpected('string', raw);
};

/** An optional descriptor left blank names no descriptor: absent, like null. */
export const convertOptionalDescriptor: ScalarConverter = (raw) => (isBlankText(raw) ? undefined : convertString(raw));

export const convertBoolean: ScalarConverter = (raw) => {
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'number') return raw !== 0;
  if (typeof raw !== 'string') return unexpected('boolean', raw);
  const text = raw.trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === '') return undefined;
  return new ConversionError((path) => messages.conversion.invalidBooleanString(raw, path));
};

export const convertInt32: ScalarConverter = (raw) => {
  if (typeof raw === 'number') {
    const text = String(raw);
    if (!Number.isInteger(raw))
      return new ConversionError((path) => messages.conversion.invalidInt32Number(text, path));
    if (raw < INT32_MIN || raw > INT32_MAX)
      return new ConversionError((path) => messages.conversion.int32Overflow(text, path));
    return raw;
  }
  if (typeof raw !== 'string') return unexpected('integer', raw);
  if (isBlankText(raw)) return undefined;
  const value = INTEGER_TEXT.test(raw) ? Number(raw) : NaN;
  if (Number.isNaN(value) || value < INT32_MIN || value > INT32_MAX) {
    return new ConversionError((path) => messages.conversion.invalidInt32String(raw, path));
  }
  return value;
};

/** Int64 per the ODS `Int64Converter`; values beyond JavaScript's safe integers are reported as overflow. */
export const convertInt64: ScalarConverter = (raw) => {
  if (isBlankText(raw)) return undefined;
  if (typeof raw !== 'number' && typeof raw !== 'string') return unexpected('integer', raw);
  const text = String(raw).trim();
  if (typeof raw === 'string' ? !INTEGER_TEXT.test(raw) : !Number.isInteger(raw)) {
    return new ConversionError((path) => messages.conversion.invalidInt64(text, path));
  }
  const value = Number(text);
  if (!Number.isSafeInteger(value)) return new ConversionError((path) => messages.conversion.int64Overflow(text, path));
  return value;
};

/** .NET's decimal.MaxValue: the ODS binds decimals to it, so larger magnitudes (and infinities) are refused. */
const DECIMAL_MAX = Number('79228162514264337593543950335');

/**
 * Decimals keep at most `scale` fractional digits, rounded half away from zero as the database stores them; beyond
 * .NET's decimal range (e.g. `1e400`, which parses as Infinity) is a conversion error.
 */
export function decimalConverter(scale: number | undefined): ScalarConverter {
  return (raw) => {
    let value: number;
    if (typeof raw === 'number') value = raw;
    else if (typeof raw === 'string') {
      if (isBlankText(raw)) return undefined;
      if (!DECIMAL_TEXT.test(raw))
        return new ConversionError((path) => messages.conversion.invalidDecimalString(raw, path));
      value = Number(raw);
    } else return unexpected('decimal', raw);
    if (!(Math.abs(value) <= DECIMAL_MAX))
      return new ConversionError((path) => messages.conversion.decimalOverflow(path));
    return scale === undefined ? value : roundToScale(value, scale);
  };
}

function roundToScale(value: number, scale: number): number {
  if (Number.isInteger(value)) return value;
  const text = String(Math.abs(value));
  if (text.includes('e')) return Math.abs(value) < 1 ? Number(value.toFixed(scale)) : value;
  const point = text.indexOf('.');
  if (text.length - point - 1 <= scale) return value;
  const kept = BigInt(text.slice(0, point) + text.slice(point + 1, point + 1 + scale));
  const rounded = text.charCodeAt(point + 1 + scale) >= 53 /* '5' */ ? kept + 1n : kept;
  const magnitude = Number(rounded) / 10 ** scale;
  return value < 0 ? -magnitude : magnitude;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leapDay = month === 2 && ((year % 4 === 0 && year % 100 !== 0) || year % 400 === 0) ? 1 : 0;
  return day <= (DAYS_IN_MONTH[month - 1] ?? 0) + leapDay;
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

const invalidDate = new ConversionError(() => messages.invalidDate);

function dateParts(text: string): [number, number, number] | undefined {
  const iso = ISO_DATE.exec(text);
  if (iso) return [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  const us = US_DATE.exec(text);
  return us ? [Number(us[3]), Number(us[1]), Number(us[2])] : undefined;
}

/** The number written by `count` ASCII digits at `start`, or -1. */
function digitsAt(text: string, start: number, count: number): number {
  let value = 0;
  for (let index = start; index < start + count; index++) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** `yyyy-MM-dd` naming a real day: already canonical, so it can be kept as sent. */
function isCanonicalDate(text: string): boolean {
  return (
    text.length === 10 &&
    text.charCodeAt(4) === 45 /* - */ &&
    text.charCodeAt(7) === 45 &&
    isCalendarDate(digitsAt(text, 0, 4), digitsAt(text, 5, 2), digitsAt(text, 8, 2))
  );
}

/** Two digits at `start` forming a number from 0 to `max`. */
function isTwoDigitsUpTo(text: string, start: number, max: number): boolean {
  const value = digitsAt(text, start, 2);
  return value >= 0 && value <= max;
}

/** `yyyy-MM-ddTHH:mm:ssZ`, a real instant: already canonical. */
function isCanonicalDateTime(text: string): boolean {
  return (
    text.length === 20 &&
    text.charCodeAt(10) === 84 /* T */ &&
    text.charCodeAt(13) === 58 /* : */ &&
    text.charCodeAt(16) === 58 &&
    text.charCodeAt(19) === 90 /* Z */ &&
    isTwoDigitsUpTo(text, 11, 23) &&
    isTwoDigitsUpTo(text, 14, 59) &&
    isTwoDigitsUpTo(text, 17, 59) &&
    isCanonicalDate(text.slice(0, 10))
  );
}

/** Dates: `yyyy-MM-dd` out; ISO and US-style input accepted; anything with a time part is rejected. */
export const convertDate: ScalarConverter = (raw) => {
  if (typeof raw === 'string' && isCanonicalDate(raw)) return raw;
  if (isBlankText(raw)) return undefined;
  const parts = typeof raw === 'string' ? dateParts(raw.trim()) : undefined;
  if (parts === undefined || !isCalendarDate(...parts)) return invalidDate;
  const [year, month, day] = parts;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
};

const suppliedValueInvalid = new ConversionError(() => messages.suppliedValueInvalid);

/** A required date cannot be blank: the ODS binds it to a non-nullable date, which refuses empty text. */
export const convertRequiredDate: ScalarConverter = (raw) =>
  isBlankText(raw) ? suppliedValueInvalid : convertDate(raw);

/** Offsets like `+05`, `-05:30`, `+0530` in minutes; `Z` or none is UTC. */
function offsetMinutes(offset: string | undefined): number {
  if (offset === undefined || offset.toUpperCase() === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const hours = digits.length > 2 ? digits.slice(0, -2) : digits;
  const minutes = digits.length > 2 ? digits.slice(-2) : '0';
  return sign * (Number(hours) * 60 + Number(minutes));
}

interface DateTimeParts {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly fraction: string;
  readonly offset: string | undefined;
}

/** A 12-hour clock's hour on the 24-hour clock; undefined when it is no 12-hour hour. */
function hourOf(hour: number, designator: string | undefined): number | undefined {
  if (designator === undefined) return hour;
  if (hour < 1 || hour > 12) return undefined;
  return (hour % 12) + (designator.toUpperCase() === 'P' ? 12 : 0);
}

function dateTimePartsOf(text: string): DateTimeParts | undefined {
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const number = (group: number) => Number(match[group] ?? 0);
  const isoDate = match[1] !== undefined;
  const hour = hourOf(number(7), match[11]);
  if (hour === undefined) return undefined;
  return {
    year: isoDate ? number(1) : number(6),
    month: isoDate ? number(2) : number(4),
    day: isoDate ? number(3) : number(5),
    hour,
    minute: number(8),
    second: number(9),
    fraction: match[10] ?? '',
    offset: match[12],
  };
}

/** Date-times: .NET-parsable text in, UTC `yyyy-MM-ddTHH:mm:ss[.fffffff]Z` out (no offset means UTC, as the ODS assumes). */
export const convertDateTime: ScalarConverter = (raw) => {
  if (typeof raw === 'string' && isCanonicalDateTime(raw)) return raw;
  if (isBlankText(raw)) return undefined;
  if (typeof raw === 'object') return unexpected('date', raw);
  const parts = typeof raw === 'string' ? dateTimePartsOf(raw.trim()) : undefined;
  if (
    parts === undefined ||
    !isCalendarDate(parts.year, parts.month, parts.day) ||
    parts.hour > 23 ||
    parts.minute > 59 ||
    parts.second > 59
  ) {
    return new ConversionError((path) => messages.conversion.invalidDateTime(String(raw), path));
  }
  const utc = new Date(0);
  utc.setUTCFullYear(parts.year, parts.month - 1, parts.day);
  utc.setUTCHours(parts.hour, parts.minute - offsetMinutes(parts.offset), parts.second);
  const fraction = parts.fraction.slice(0, 7).replace(/0+$/, '');
  return `${utc.toISOString().slice(0, 19)}${fraction ? `.${fraction}` : ''}Z`;
};

/** Times: `HH:mm[:ss]` with an optional `Z`/offset in, UTC `HH:mm:ss` out (rolling over midnight). */
export const convertTime: ScalarConverter = (raw) => {
  if (typeof raw !== 'string') return unexpected('time', raw);
  if (isBlankText(raw)) return undefined;
  const match = TIME.exec(raw.trim());
  const [hour, minute, second] = [Number(match?.[1]), Number(match?.[2]), Number(match?.[3] ?? 0)];
  if (!match || hour > 23 || minute > 59 || second > 59) {
    return new ConversionError((path) => messages.conversion.invalidTime(raw, path));
  }
  const minutes =
    (((hour * 60 + minute - offsetMinutes(match[4])) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}:${pad(second)}`;
};
