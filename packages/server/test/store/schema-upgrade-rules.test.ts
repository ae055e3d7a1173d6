// What `migrate` accepts of an existing resource table, whatever the database (relational/schema-upgrade.ts): the
// planned columns, in any place for the nullable typed ones an upgrade appended, or fewer nullable typed columns (it adds
// them); every other difference is refused with the table and the reason.
import { describe, expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';
import { columnsToAdd, type PlannedColumn, type PlannedTable } from '../../src/store/relational/schema-upgrade.js';
import { tableLayoutOf } from '../../src/store/relational/table-layout.js';

const layout = tableLayoutOf(getModelRegistry().getResource('ed-fi', 'disciplineActions')!);
const typed: PlannedColumn[] = layout.columns.map((column) => ({
  name: column.name,
  definition: `${column.name} ${column.sqlType}${column.notNull ? ' NOT NULL' : ''}`,
  typed: column,
}));
const planned: PlannedTable = {
  name: layout.table,
  columns: [
    { name: 'doc_id', definition: 'doc_id INTEGER PRIMARY KEY' },
    ...typed,
    { name: 'body', definition: 'body TEXT NOT NULL' },
  ],
};
const optional = typed.find((column) => !column.typed!.notNull)!;
const [firstKey, secondKey] = typed.filter((column) => column.typed!.notNull);
const without = (name: string) => planned.columns.filter((column) => column.name !== name);

describe('the columns migrate adds to an existing table', () => {
  it('adds a missing nullable typed column, and accepts the table once it was appended at the end', () => {
    expect(optional.name).toBe('responsibility_school_reference_school_id');
    expect(columnsToAdd(planned, without(optional.name))).toEqual([optional]);
    expect(columnsToAdd(planned, [...without(optional.name), optional])).toEqual([]);
    expect(columnsToAdd(planned, planned.columns)).toEqual([]);
  });

  it('refuses a column the model does not have, a retyped one and a required one it would have to add', () => {
    expect(() => columnsToAdd(planned, [...planned.columns, { name: 'extra', definition: 'extra TEXT' }])).toThrow(
      `Table ${layout.table} does not match this model (extra is not in this model); the database needs a migration`,
    );
    const retyped = { name: optional.name, definition: `${optional.name} TEXT` };
    expect(() =>
      columnsToAdd(
        planned,
        planned.columns.map((column) => (column === optional ? retyped : column)),
      ),
    ).toThrow(`(${optional.name} is ${optional.name} TEXT, this model has ${optional.definition})`);
    expect(() => columnsToAdd(planned, without(firstKey!.name))).toThrow(
      `(this model adds ${firstKey!.name}, which stored rows cannot fill)`,
    );
  });

  it('refuses key columns in another order (another natural key)', () => {
    const swapped = planned.columns.map((column) =>
      column === firstKey ? secondKey! : column === secondKey ? firstKey! : column,
    );
    expect(() => columnsToAdd(planned, swapped)).toThrow('(its key or required columns are in another order)');
  });
});
