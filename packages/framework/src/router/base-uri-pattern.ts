// Turns a `baseUriRegex` setting (a RegExp, a JS regex source, or a PCRE string such as `#^/api/v(?P<Version>\d+)…#i`)
// into a stateless RegExp.

import { ConfigurationError } from '../errors.js';

/** Characters accepted as PCRE delimiters; bracket-style and regex-syntax delimiters are left out as ambiguous. */
const PCRE_DELIMITERS = '#/~@!%';

/**
 * PCRE modifiers with a JS equivalent. `D` needs no flag because a JS `$` never matches before a final newline, and
 * `S` (extra analysis) changes no match. `A` (anchored) is handled separately.
 */
const PCRE_FLAGS = new Map([
  ['i', 'i'],
  ['m', 'm'],
  ['s', 's'],
  ['u', 'u'],
  ['D', ''],
  ['S', ''],
]);

interface RegexParts {
  readonly source: string;
  readonly flags: string;
}

export function toBaseUriRegExp(pattern: RegExp | string): RegExp {
  // `g` and `y` would make exec() stateful across requests; `d` only changes the result shape.
  const parts =
    typeof pattern === 'string'
      ? fromPcreStyle(pattern)
      : { source: pattern.source, flags: pattern.flags.replace(/[gyd]/g, '') };
  try {
    return new RegExp(parts.source, parts.flags);
  } catch (error) {
    throw new ConfigurationError(`baseUriRegex is not a valid regular expression: ${String(pattern)}`, {
      cause: error,
    });
  }
}

function fromPcreStyle(pattern: string): RegexParts {
  const delimited = splitDelimiters(pattern);
  const source = translatePcreGroups(delimited?.body ?? pattern);
  if (delimited === undefined) return { source, flags: '' };
  let flags = '';
  let anchored = false;
  for (const modifier of delimited.modifiers) {
    const flag = PCRE_FLAGS.get(modifier);
    if (modifier === 'A') anchored = true;
    else if (flag !== undefined) flags += flag;
    else throw new ConfigurationError(`baseUriRegex uses the PCRE modifier '${modifier}', which has no JS equivalent.`);
  }
  return { source: anchored ? `^(?:${source})` : source, flags };
}

/** Recognises `<d>body<d>modifiers`; a JS source starting with `/` counts as delimited only if it ends like that too. */
function splitDelimiters(pattern: string): { body: string; modifiers: string } | undefined {
  const delimiter = pattern.charAt(0);
  if (!PCRE_DELIMITERS.includes(delimiter)) return undefined;
  const closing = pattern.lastIndexOf(delimiter);
  const modifiers = pattern.slice(closing + 1);
  if (closing <= 0 || !/^[A-Za-z]*$/.test(modifiers)) return undefined;
  const body = pattern
    .slice(1, closing)
    .replace(/\\(.)/gs, (escape, char: string) => (char === delimiter ? char : escape));
  return { body, modifiers };
}

function translatePcreGroups(source: string): string {
  return source.replace(/\(\?P</g, '(?<').replace(/\(\?P=([A-Za-z_]\w*)\)/g, '\\k<$1>');
}
