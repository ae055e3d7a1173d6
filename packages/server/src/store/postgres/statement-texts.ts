// The relational builders' statements as node-postgres runs them: `?` and `@name` placeholders renumbered as `$n`
// (a named parameter keeps one number however often it appears) with the recipe that orders the values to bind. Every
// statement gets a name, so that a connection parses and plans it once; those built per query shape count against each connection's bound (prepared-budget.ts).
import { createHash } from 'node:crypto';

/** Where a `$n` takes its value from: a positional value's index, or a named parameter's name. */
type Slot = number | string;

export interface StatementText {
  readonly text: string;
  readonly slots: readonly Slot[];
  /** The server-side prepared statement's name. */
  readonly name: string;
  /**
   * Built for one query shape (filter fields, ranges, access signature, probe list): of these, each connection
   * prepares a bounded number. The others are fixed by the model (per resource, or one for the store).
   */
  readonly perShape: boolean;
}

/** String literals and quoted identifiers are passed over; what remains are placeholders. */
const TOKENS = /'(?:[^']|'')*'|"(?:[^"]|"")*"|\?|@([A-Za-z_][A-Za-z0-9_]*)/g;

export function numberParameters(sql: string): Pick<StatementText, 'text' | 'slots'> {
  const slots: Slot[] = [];
  const numbers = new Map<string, number>();
  let positional = 0;
  const text = sql.replace(TOKENS, (token: string, name: string | undefined) => {
    if (token === '?') {
      slots.push(positional++);
      return `$${slots.length}`;
    }
    if (name === undefined) return token;
    let number = numbers.get(name);
    if (number === undefined) {
      slots.push(name);
      number = slots.length;
      numbers.set(name, number);
    }
    return `$${number}`;
  });
  return { text, slots };
}

/** The values in `$n` order. */
export function bindingsOf(
  statement: StatementText,
  positional: readonly unknown[],
  named: Readonly<Record<string, unknown>> = {},
): unknown[] {
  return statement.slots.map((slot) => (typeof slot === 'number' ? positional[slot] : named[slot]));
}

/**
 * Derived from the text, so every reader and connection agrees on it and a statement evicted from a cache comes back
 * under the same name (node-postgres refuses one name for two texts).
 */
function statementNameOf(text: string): string {
  return `edfi_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
}

function namedStatement(sql: string, perShape: boolean): StatementText {
  const numbered = numberParameters(sql);
  return { ...numbered, name: statementNameOf(numbered.text), perShape };
}

/** A statement the model fixes: one for the store, or one per resource and look-up. */
export function fixedStatement(sql: string): StatementText {
  return namedStatement(sql, false);
}

/** A statement built for one query shape. */
export function shapeStatement(sql: string): StatementText {
  return namedStatement(sql, true);
}
