// A verified bearer token: its claims with their JSON types, and the scopes it grants.

export class Token<C extends Record<string, unknown> = Record<string, unknown>> {
  readonly claims: Readonly<C>;
  /** From the `scope` claim, a space-separated string or an array of strings; anything else grants none. */
  readonly scopes: readonly string[];

  constructor(claims: C) {
    this.claims = claims;
    this.scopes = parseScopes(claims['scope']);
  }

  /** The claim's value as it was in the JSON payload, or undefined when absent. */
  get<K extends keyof C & string>(name: K): C[K] | undefined;
  get(name: string): unknown;
  get(name: string): unknown {
    return Object.hasOwn(this.claims, name) ? this.claims[name] : undefined;
  }

  has(name: string): boolean {
    return Object.hasOwn(this.claims, name) && this.claims[name] !== undefined;
  }

  /** Compatibility with the PHP `getPayload()`: scalars as strings, arrays and objects as JSON; null or absent gives undefined. */
  getPayload(name: string): string | undefined {
    const value = this.get(name);
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value;
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
  }
}

const WHITESPACE = /\s+/;

/** Printable ASCII and plain spaces only: then the only whitespace is ' ', and a split at ' ' costs far less than a regex split. */
function isPlainAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

function parseScopes(claim: unknown): readonly string[] {
  if (typeof claim === 'string') {
    const scopes = isPlainAscii(claim) ? claim.split(' ') : claim.split(WHITESPACE);
    return scopes.filter((scope) => scope !== '');
  }
  if (Array.isArray(claim)) return claim.filter((scope): scope is string => typeof scope === 'string' && scope !== '');
  return [];
}
