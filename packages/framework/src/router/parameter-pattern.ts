// Compiles the OpenAPI `pattern` of a path parameter, refusing at start-up the patterns that could match `/` (a
// parameter never spans segments) and nested repeats such as `(a+)+` that backtrack catastrophically.

import { ConfigurationError } from '../errors.js';

type Token =
  | { readonly kind: 'atom'; readonly text: string }
  | { readonly kind: 'open'; readonly lookaround: boolean }
  | { readonly kind: 'close' }
  | { readonly kind: 'repeat'; readonly variable: boolean; readonly many: boolean }
  | { readonly kind: 'assertion' };

interface Group {
  readonly parent: Group | null;
  /** Inside a lookahead or lookbehind, which consumes nothing. */
  readonly lookaround: boolean;
  /** Contains a quantifier whose repeat count varies. */
  variable: boolean;
}

/** `owner` names the route and parameter in error messages. */
export function compileParameterPattern(pattern: string, owner: string): RegExp {
  const body = stripAnchors(pattern);
  let regex: RegExp;
  try {
    regex = new RegExp(`^(?:${body})$`, 'i');
  } catch (error) {
    throw new ConfigurationError(
      `${owner}: the pattern ${JSON.stringify(pattern)} is not a valid regular expression.`,
      {
        cause: error,
      },
    );
  }
  const problem = findUnsafeConstruct(body);
  if (problem !== null) throw new ConfigurationError(`${owner}: the pattern ${JSON.stringify(pattern)} ${problem}.`);
  return regex;
}

function stripAnchors(pattern: string): string {
  const body = pattern.startsWith('^') ? pattern.slice(1) : pattern;
  return body.endsWith('$') && !isEscaped(body, body.length - 1) ? body.slice(0, -1) : body;
}

function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  while (text.charAt(index - 1 - backslashes) === '\\') backslashes++;
  return backslashes % 2 === 1;
}

function findUnsafeConstruct(body: string): string | null {
  let group: Group = { parent: null, lookaround: false, variable: false };
  let justClosed: Group | null = null;
  for (const token of tokenize(body)) {
    if (token.kind === 'close') {
      if (group.parent !== null) {
        group.parent.variable ||= group.variable;
        justClosed = group;
        group = group.parent;
      }
      continue;
    }
    if (token.kind === 'atom' && !group.lookaround && matchesSlash(token.text)) {
      return 'can match "/", so a parameter could span path segments';
    }
    if (token.kind === 'open')
      group = { parent: group, lookaround: group.lookaround || token.lookaround, variable: false };
    if (token.kind === 'repeat') {
      if (justClosed?.variable === true && token.variable && token.many) {
        return 'nests repeated quantifiers, which can backtrack catastrophically';
      }
      group.variable ||= token.variable;
    }
    justClosed = null;
  }
  return null;
}

/** Each atom (literal, escape, class or `.`) stands for one character, so testing it alone against `/` is exact. */
function matchesSlash(atom: string): boolean {
  return new RegExp(`^(?:${atom})$`, 'i').test('/');
}

function* tokenize(source: string): Generator<Token> {
  let index = 0;
  while (index < source.length) {
    const rest = source.slice(index);
    const char = rest.charAt(0);
    const repeat = quantifier(rest);
    let length = 1;
    if (repeat !== null) {
      length = repeat.length;
      yield { kind: 'repeat', variable: repeat.variable, many: repeat.many };
    } else if (char === '\\') {
      length = /^\\(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|c[A-Za-z]|\d{1,3}|[^])/.exec(rest)?.[0].length ?? 1;
      yield { kind: 'atom', text: rest.slice(0, length) };
    } else if (char === '[') {
      length = characterClassLength(rest);
      yield { kind: 'atom', text: rest.slice(0, length) };
    } else if (char === '(') {
      const prefix = /^\((?:\?(?:<=|<!|=|!|:|<[^>]*>))?/.exec(rest)?.[0] ?? '(';
      length = prefix.length;
      yield { kind: 'open', lookaround: /^\(\?<?[=!]/.test(prefix) };
    } else if (char === ')') {
      yield { kind: 'close' };
    } else if ('^$|'.includes(char)) {
      yield { kind: 'assertion' };
    } else {
      // A `{` or `}` that is not part of a quantifier is a literal in non-unicode regexes.
      yield { kind: 'atom', text: '{}'.includes(char) ? `\\${char}` : char };
    }
    index += length;
  }
}

function characterClassLength(rest: string): number {
  // In JS a `]` right after `[` or `[^` closes the class (`[]`, `[^]`).
  let index = rest.startsWith('[^') ? 2 : 1;
  while (index < rest.length) {
    const char = rest.charAt(index);
    if (char === ']') return index + 1;
    index += char === '\\' ? 2 : 1;
  }
  return rest.length;
}

/** A quantifier at the start of `rest`, including its lazy `?` suffix. */
function quantifier(rest: string): { length: number; variable: boolean; many: boolean } | null {
  const found = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})\??/.exec(rest);
  if (found === null) return null;
  const [text, symbol, min, comma, max] = found;
  if (symbol !== undefined) return { length: text.length, variable: true, many: symbol !== '?' };
  const lower = Number(min);
  const upper = comma === undefined ? lower : max === '' || max === undefined ? Infinity : Number(max);
  return { length: text.length, variable: upper > lower, many: upper > 1 };
}
