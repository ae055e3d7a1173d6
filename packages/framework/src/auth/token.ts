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
const SPACE = 0x20;

/**
 * The scopes of a claim in printable ASCII and plain spaces, split in one pass (String.split costs several times
 * more); undefined at the first other character, since other whitespace may then separate scopes too.
 */
function splitPlainAscii(claim: string): string[] | undefined {
  const scopes: string[] = [];
  let start = 0;
  for (let index = 0; index < claim.length; index++) {
    const code = claim.charCodeAt(index);
    if (code === SPACE) {
      if (index > start) scopes.push(claim.slice(start, index));
      start = index + 1;
    } else if (code < SPACE || code > 0x7e) return undefined;
  }
  if (claim.length > start) scopes.push(claim.slice(start));
  return scopes;
}

function parseScopes(claim: unknown): readonly string[] {
  if (typeof claim === 'string') {
    return splitPlainAscii(claim) ?? claim.split(WHITESPACE).filter((scope) => scope !== '');
  }
  if (Array.isArray(claim)) return claim.filter((scope): scope is string => typeof scope === 'string' && scope !== '');
  return [];
}
