// Named (server-side prepared) statements: the same SQL text always gets the same name, so each pooled connection
// parses and plans a statement once and then only binds and executes it.
import type pg from 'pg';

const names = new Map<string, string>();

export function prepared(text: string, values: readonly unknown[]): pg.QueryConfig<unknown[]> {
  let name = names.get(text);
  if (name === undefined) {
    name = `edfi_${names.size + 1}`;
    names.set(text, name);
  }
  return { name, text, values: [...values] };
}
