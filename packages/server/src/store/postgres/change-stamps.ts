// Commit-ordered change versions (storage design L12). A write transaction writes its rows with a placeholder version
// and only as its last step takes its versions from the `meta` counter row and stamps them, in the same simple query
// as its COMMIT: the counter row stays locked from that statement until the commit, so versions are handed out in
// commit order, and a reader of the committed counter never sees a version while a smaller one is still in flight.
// The price is one global serialization point per transaction: one short statement plus the commit (its WAL flush),
// shared by all the writes of a group-commit batch.
// Only numbers this module generates go into that statement (doc_ids and slots), so it needs no parameters.
import { CHANGE_VERSION_KEY, TRACKED_CHANGE_TABLE } from '../relational/schema-plan.js';
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

interface StampedRow {
  readonly table: string;
  readonly docId: number;
  readonly slot: number;
}

export class ChangeStamps {
  #count = 0;
  /** In slot order; a row stamped twice takes its later slot. */
  readonly #rows: StampedRow[] = [];
  readonly #trackedSlots: number[] = [];
  #newest: number | undefined;

  get isEmpty(): boolean {
    return this.#count === 0;
  }

  /** Reserves the next version for a document row; the number is known once the transaction commits. */
  stampRow(table: string, docId: number): number {
    const slot = this.#count++;
    this.#rows.push({ table, docId, slot });
    return slot;
  }

  /** Reserves the next version for a tracked change, written with `trackedChangePlaceholder(slot)`. */
  stampTrackedChange(): number {
    const slot = this.#count++;
    this.#trackedSlots.push(slot);
    return slot;
  }

  /** Where a write starts; `rollBackTo` it when the write is rolled back to its savepoint. */
  checkpoint(): number {
    return this.#count;
  }

  /** Forgets the versions reserved since `checkpoint`, keeping the slots contiguous. */
  rollBackTo(checkpoint: number): void {
    this.#count = checkpoint;
    while ((this.#rows.at(-1)?.slot ?? -1) >= checkpoint) this.#rows.pop();
    while ((this.#trackedSlots.at(-1) ?? -1) >= checkpoint) this.#trackedSlots.pop();
  }

  /** Takes the versions and stamps every row; returns the newest version as `value`. Only for a non-empty set. */
  stampSql(): string {
    const base = `v.value - ${this.#count - 1}`;
    const steps = [
      `v AS (UPDATE ${META_TABLE} SET value = value + ${this.#count} WHERE key = '${CHANGE_VERSION_KEY}' RETURNING value)`,
    ];
    for (const [table, rows] of this.#rowsByTable()) {
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

  /** By table: the slot of each stamped row, the later one where a row was stamped twice. */
  #rowsByTable(): Map<string, Map<number, number>> {
    const byTable = new Map<string, Map<number, number>>();
    for (const { table, docId, slot } of this.#rows) {
      let rows = byTable.get(table);
      if (!rows) byTable.set(table, (rows = new Map()));
      rows.set(docId, slot);
    }
    return byTable;
  }
}
