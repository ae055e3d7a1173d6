// Commit-ordered change versions (storage design L12). A write transaction takes its versions from the `meta` counter
// row only as its last step, in the same simple query as its COMMIT: the counter row stays locked from that statement
// until the commit, so versions are handed out in commit order, and a reader of the committed counter never sees a
// version while a smaller one is still in flight. The price is one global serialization point per transaction: one
// statement plus the commit (its WAL flush), shared by all the writes of a group-commit batch.
//
// The resource rows a transaction inserts or updates are written by that same statement, with their versions
// (deferred-row-writes.ts), so each is written once. Until then they are invisible to the transaction's own
// statements: any statement that reads a resource table first writes the rows held back for it (`reveal`), with
// version 0, and the commit then stamps them (an UPDATE of change_version), as every row was before. Rows a
// transaction must see again are rare (a batch writing the same item twice, a reference to an item created earlier
// in the batch); the rows of a batch's last run, where a conflict must fail only its own write, are all written
// ahead (see write-batch.ts).
//
// A row held back holds no key in the table yet: an insert of the same natural key by another transaction meanwhile
// makes the commit's statement fail on the unique key, before the COMMIT, and the batch runs again, finding that row.
// The statement holding the counter waits for no other writer as a rule: the rows it updates are locked by its own
// transaction already, and held-back rows are only ever inserted under the counter. The exception is a row of the
// same natural key that another transaction wrote ahead and has not committed yet: the counter holder waits for it,
// and once that one asks for the counter, each waits for the other; PostgreSQL's deadlock detection ends one of them
// after `deadlock_timeout`, and that batch runs again.
// Only numbers this module generates and literals escaped as the driver escapes them go into that statement.
import type pg from 'pg';
import { CHANGE_VERSION_KEY, TRACKED_CHANGE_TABLE } from '../relational/schema-plan.js';
import { deferredWritesSql, type DeferredTableRow, type DeferredWrite } from './deferred-row-writes.js';
import { META_TABLE } from './schema.js';

/**
 * The placeholder version of a tracked change until its transaction stamps it: negative, so never a real version,
 * and unique among transactions in flight (each runs on its own backend, and takes fewer than 2^30 versions) because
 * `change_version` is its key.
 */
export function trackedChangePlaceholder(slotSql: string): string {
  return `-(pg_backend_pid()::bigint * 1073741824 + ${slotSql} + 1)`;
}

function arrayLiteral(values: readonly number[]): string {
  return `'{${values.join(',')}}'::bigint[]`;
}

/** A document row the commit numbers: written already (with version 0), or held back until the commit. */
interface VersionedRow {
  readonly table: string;
  readonly docId: number;
  readonly slot: number;
  /** The row's write while it is held back. */
  deferred: DeferredWrite | undefined;
}

/** Where a write starts: what `rollBackTo` returns to. */
export interface StampCheckpoint {
  readonly count: number;
  readonly revealed: number;
}

/** Writing held-back rows ahead of the commit failed (another transaction took a natural key): run the batch again. */
export class DeferredRowsLost extends Error {
  constructor(override readonly cause: unknown) {
    super('Rows held back until the commit could not be written');
    this.name = 'DeferredRowsLost';
  }
}

function rowKey(table: string, docId: number): string {
  return `${table} ${docId}`;
}

export class ChangeStamps {
  #count = 0;
  /** In slot order; a row versioned twice takes its later slot. */
  readonly #rows: VersionedRow[] = [];
  /** The rows still held back, by table and doc_id. */
  readonly #held = new Map<string, VersionedRow>();
  /** The rows written ahead of the commit, in order, with their held-back write. */
  readonly #revealed: { readonly row: VersionedRow; readonly write: DeferredWrite }[] = [];
  readonly #trackedSlots: number[] = [];
  #newest: number | undefined;

  /** @param defersRows whether resource rows may be held back until the commit (see `deferRow`) */
  constructor(readonly defersRows: boolean) {}

  get isEmpty(): boolean {
    return this.#count === 0;
  }

  /** Reserves the next version for a document row written already; the number is known once the transaction commits. */
  stampRow(table: string, docId: number): number {
    return this.#version(table, docId, undefined);
  }

  /** Reserves the next version for a document row that the commit writes. Only when `defersRows`. */
  deferRow(table: string, docId: number, write: DeferredWrite): number {
    if (!this.defersRows) throw new Error('This transaction writes its rows ahead of the commit');
    return this.#version(table, docId, write);
  }

  /** Writes the rows held back for these tables, so that the transaction's next statements see them. */
  async reveal(client: pg.ClientBase, tables: Iterable<string>): Promise<void> {
    if (this.#held.size === 0) return;
    const wanted = new Set(tables);
    const rows = [...this.#held.values()].filter((row) => wanted.has(row.table));
    if (rows.length === 0) return;
    const writes = deferredWritesSql(rows.map(deferredRowOf), '0');
    try {
      await client.query(writes.length === 1 ? writes[0]! : `WITH ${writes.map(step).join(', ')} SELECT 1`);
    } catch (error) {
      throw new DeferredRowsLost(error);
    }
    for (const row of rows) {
      this.#revealed.push({ row, write: row.deferred! });
      row.deferred = undefined;
      this.#held.delete(rowKey(row.table, row.docId));
    }
  }

  /** Reserves the next version for a tracked change, written with `trackedChangePlaceholder(slot)`. */
  stampTrackedChange(): number {
    const slot = this.#count++;
    this.#trackedSlots.push(slot);
    return slot;
  }

  /** Where a write starts; `rollBackTo` it when the write fails. */
  checkpoint(): StampCheckpoint {
    return { count: this.#count, revealed: this.#revealed.length };
  }

  /**
   * Forgets the versions reserved since `checkpoint`, keeping the slots contiguous.
   * @param undone the database was rolled back to the write's start too: rows it wrote ahead are held back again
   */
  rollBackTo(checkpoint: StampCheckpoint, undone: boolean): void {
    this.#count = checkpoint.count;
    while ((this.#rows.at(-1)?.slot ?? -1) >= checkpoint.count) {
      const row = this.#rows.pop()!;
      if (this.#held.get(rowKey(row.table, row.docId)) === row) this.#held.delete(rowKey(row.table, row.docId));
    }
    while ((this.#trackedSlots.at(-1) ?? -1) >= checkpoint.count) this.#trackedSlots.pop();
    if (!undone) return;
    for (const { row, write } of this.#revealed.splice(checkpoint.revealed)) {
      if (row.slot >= checkpoint.count) continue;
      row.deferred = write;
      this.#held.set(rowKey(row.table, row.docId), row);
    }
  }

  /**
   * Takes the versions, writes the rows held back and stamps the others; returns the newest version as `value`. Only
   * for a non-empty set.
   */
  stampSql(): string {
    const base = `v.value - ${this.#count - 1}`;
    const steps = [
      `v AS (UPDATE ${META_TABLE} SET value = value + ${this.#count} WHERE key = '${CHANGE_VERSION_KEY}' RETURNING value)`,
    ];
    const latest = this.#latestRows();
    const held = latest.filter((row) => row.deferred !== undefined);
    for (const write of deferredWritesSql(held.map(deferredRowOf), `${base} + x.slot`, 'v, '))
      steps.push(`s${steps.length} AS (${write})`);
    for (const [table, rows] of stampedByTable(latest.filter((row) => row.deferred === undefined))) {
      steps.push(
        `s${steps.length} AS (UPDATE ${table} t SET change_version = ${base} + s.slot ` +
          `FROM v, unnest(${arrayLiteral([...rows.keys()])}, ${arrayLiteral([...rows.values()])}) AS s (doc_id, slot) ` +
          'WHERE t.doc_id = s.doc_id)',
      );
    }
    if (this.#trackedSlots.length > 0) {
      steps.push(
        `s${steps.length} AS (UPDATE ${TRACKED_CHANGE_TABLE} t SET change_version = ${base} + s.slot ` +
          `FROM v, unnest(${arrayLiteral(this.#trackedSlots)}) AS s (slot) ` +
          `WHERE t.change_version = ${trackedChangePlaceholder('s.slot')})`,
      );
    }
    return `WITH ${steps.join(', ')} SELECT value FROM v`;
  }

  /** Records the newest version the commit took. */
  settle(newest: number): void {
    this.#newest = newest;
  }

  versionOf(slot: number): number {
    if (this.#newest === undefined) throw new Error('Change versions are known only after the commit');
    return this.#newest - this.#count + 1 + slot;
  }

  #version(table: string, docId: number, deferred: DeferredWrite | undefined): number {
    // A row held back is invisible to the transaction's statements: writing it again needs it revealed first.
    if (this.#held.has(rowKey(table, docId))) throw new Error(`Row ${docId} of ${table} is still held back`);
    const row = { table, docId, slot: this.#count++, deferred };
    this.#rows.push(row);
    if (deferred) this.#held.set(rowKey(table, docId), row);
    return row.slot;
  }

  /** Each row once, at its latest slot. */
  #latestRows(): VersionedRow[] {
    const latest = new Map<string, VersionedRow>();
    for (const row of this.#rows) latest.set(rowKey(row.table, row.docId), row);
    return [...latest.values()];
  }
}

function deferredRowOf({ table, docId, slot, deferred }: VersionedRow): DeferredTableRow {
  return { table, docId, slot, write: deferred! };
}

function step(sql: string, index: number): string {
  return `w${index} AS (${sql})`;
}

/** By table: the slot of each row. */
function stampedByTable(rows: readonly VersionedRow[]): Map<string, Map<number, number>> {
  const byTable = new Map<string, Map<number, number>>();
  for (const { table, docId, slot } of rows) {
    let stamped = byTable.get(table);
    if (!stamped) byTable.set(table, (stamped = new Map()));
    stamped.set(docId, slot);
  }
  return byTable;
}
