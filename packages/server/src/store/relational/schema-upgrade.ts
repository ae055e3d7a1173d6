// The one upgrade `migrate` makes to a table that already exists, whatever the database: a model change that only
// adds nullable typed columns (authorization subjects or filters outside the natural key) is applied in place, the
// new columns filled from each row's stored body by the same readers the writers use. Anything else (a column
// removed, retyped or made required, a key column moved) is refused with the table and the reason.
import type { SqlValue, TypedColumn } from './table-layout.js';

/** A column or table constraint as a dialect compares it: its name and the rest of its definition. */
export interface ColumnDefinition {
  readonly name: string;
  readonly definition: string;
}

export interface PlannedColumn extends ColumnDefinition {
  /** The typed column of the resource's layout this column stores: present on columns the writers fill. */
  readonly typed?: TypedColumn;
}

export interface PlannedTable {
  readonly name: string;
  /** In the order the plan creates them; constraints are columns named by their whole text. */
  readonly columns: readonly PlannedColumn[];
}

/** How many stored rows one backfill statement reads and rewrites. */
export const BACKFILL_BATCH_ROWS = 1000;

const ADDITIVE_ONLY =
  '`edfi-api migrate` only adds nullable columns (filled from the stored documents) and indexes; ' +
  'export the data and load it into a new store instead';

/** Raised by `migrate` when a table differs from the model in a way it cannot upgrade. */
export class SchemaMismatchError extends Error {
  constructor(
    readonly table: string,
    reason: string,
  ) {
    super(`Table ${table} does not match this model (${reason}); the database needs a migration that ${ADDITIVE_ONLY}`);
    this.name = 'SchemaMismatchError';
  }
}

/** A column the writers fill and may be absent: a nullable typed column. */
function isAddable(column: PlannedColumn): column is PlannedColumn & { readonly typed: TypedColumn } {
  return column.typed !== undefined && !column.typed.notNull;
}

/**
 * The planned columns the existing table lacks, all nullable typed columns (none when it holds the plan); throws a
 * SchemaMismatchError for any other difference. Column order is free for addable columns (an upgrade appends them),
 * while the other columns (keys, required columns, constraints) must keep the plan's order.
 */
export function columnsToAdd(
  planned: PlannedTable,
  existing: readonly ColumnDefinition[],
): (PlannedColumn & { readonly typed: TypedColumn })[] {
  const plannedByName = new Map(planned.columns.map((column) => [column.name, column]));
  const existingNames = new Set(existing.map((column) => column.name));
  for (const column of existing) {
    const plan = plannedByName.get(column.name);
    if (plan === undefined) throw new SchemaMismatchError(planned.name, `${column.name} is not in this model`);
    if (plan.definition !== column.definition)
      throw new SchemaMismatchError(
        planned.name,
        `${column.name} is ${column.definition}, this model has ${plan.definition}`,
      );
  }
  const missing = planned.columns.filter((column) => !existingNames.has(column.name));
  const added = missing.map((column) => {
    if (!isAddable(column))
      throw new SchemaMismatchError(planned.name, `this model adds ${column.name}, which stored rows cannot fill`);
    return column;
  });
  const fixedOrder = (names: readonly string[]) =>
    names.filter((name) => !isAddable(plannedByName.get(name)!)).join(', ');
  if (fixedOrder(existing.map((column) => column.name)) !== fixedOrder(planned.columns.map((column) => column.name)))
    throw new SchemaMismatchError(planned.name, 'its key or required columns are in another order');
  return added;
}

/** Each column's values for the given stored bodies (JSON text), read as the writers read them: one array per column. */
export function backfillValues(columns: readonly TypedColumn[], bodies: readonly string[]): SqlValue[][] {
  const parsed = bodies.map((body) => JSON.parse(body) as unknown);
  return columns.map((column) => parsed.map((body) => column.read(body)));
}
