// Query-string values bound the way ASP.NET binds simple types (contract §3.2): a value that does not convert is
// reported as `"$.name": ["The value 'x' is not valid for Name."]`; an empty value counts as not given.
import { convertDate, convertDateTime, convertTime } from '../model/validation/index.js';
import { ApiProblem } from './problems.js';
import { parseResourceId } from './resource-id.js';

export const INVALID = Symbol('invalid query value');

/** Converts a non-empty query value; INVALID when it does not convert. */
export type Binder<T> = (text: string) => T | typeof INVALID;

const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;
const DECIMAL_TEXT = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

function integerBinder(min: number, max: number): Binder<number> {
  return (text) => {
    const value = INTEGER_TEXT.test(text) ? Number(text) : NaN;
    return Number.isSafeInteger(value) && value >= min && value <= max ? value : INVALID;
  };
}

export const bindInt32 = integerBinder(-2_147_483_648, 2_147_483_647);
export const bindInt64 = integerBinder(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);

export const bindDecimal: Binder<number> = (text) => (DECIMAL_TEXT.test(text) ? Number(text) : INVALID);

export const bindBoolean: Binder<boolean> = (text) => {
  const normalized = text.trim().toLowerCase();
  if (normalized === 'true') return true;
  return normalized === 'false' ? false : INVALID;
};

export const bindString: Binder<string> = (text) => text;

export const bindResourceId: Binder<string> = (text) => parseResourceId(text) ?? INVALID;

/** Temporal values take the canonical form documents are stored with, so equality filters compare like with like. */
function temporalBinder(convert: (raw: unknown) => unknown): Binder<string> {
  return (text) => {
    const value = convert(text);
    return typeof value === 'string' ? value : INVALID;
  };
}

export const bindDate = temporalBinder(convertDate);
export const bindDateTime = temporalBinder(convertDateTime);
export const bindTime = temporalBinder(convertTime);

/** Collects binding failures across all parameters, reported together as one 400. */
export class QueryBindingErrors {
  private readonly errors: Record<string, string[]> = {};
  private empty = true;

  private add(name: string, text: string): void {
    const member = name.charAt(0).toUpperCase() + name.slice(1);
    (this.errors[`$.${name}`] ??= []).push(`The value '${text}' is not valid for ${member}.`);
    this.empty = false;
  }

  /** Binds a value, recording a failure; undefined when the value is absent, empty or invalid. */
  bind<T>(name: string, text: string | undefined, binder: Binder<T>): T | undefined {
    if (text === undefined || text === '') return undefined;
    const value = binder(text);
    if (value !== INVALID) return value;
    this.add(name, text);
    return undefined;
  }

  throwIfAny(): void {
    if (!this.empty) throw new ApiProblem('dataValidationFailed', { validationErrors: this.errors });
  }
}
