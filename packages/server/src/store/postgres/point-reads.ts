// Reads of one document by API id or natural key that arrive in one event-loop turn, asked together: the reads of one
// statement with the same access parameters (one client's, typically) become one statement over the array of their
// keys, so a busy server pays one round trip and one plan execution for many of them. A read alone in its turn runs
// as it is.
import { TurnBatches, type PendingWork } from '../relational/turn-batches.js';
import type { ReadRow } from '../relational/stored-documents.js';
import { bindingsOf, type StatementText } from './statement-texts.js';

type Named = Readonly<Record<string, unknown>>;

/**
 * The read of one key, by a statement with one positional value and its variant over an array of keys, whose rows
 * name their key as `point_key`.
 */
export interface PointRead {
  readonly single: StatementText;
  readonly batched: StatementText;
  readonly key: string;
  readonly named: Named;
}

type BatchedRow = ReadRow & { readonly point_key: string };

export type RunStatement = (statement: StatementText, values: unknown[]) => Promise<ReadRow[]>;

/** The reads that can share a statement. */
function groupsOf(turn: readonly PendingWork<PointRead>[]): PendingWork<PointRead>[][] {
  const groups = new Map<string, PendingWork<PointRead>[]>();
  for (const pending of turn) {
    const { batched, named } = pending.work;
    const key = `${batched.name} ${JSON.stringify(named)}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [pending]);
    else group.push(pending);
  }
  return [...groups.values()];
}

export class PointReadBatches {
  readonly #batches = new TurnBatches<PointRead>((turn) => {
    for (const group of groupsOf(turn)) void this.#read(group);
  });

  constructor(private readonly run: RunStatement) {}

  /** The row of the read's key, if any; settles once its turn's statement has answered. */
  read<Row extends ReadRow>(read: PointRead): Promise<Row | undefined> {
    return this.#batches.run<Row | undefined>(read);
  }

  async #read(group: readonly PendingWork<PointRead>[]): Promise<void> {
    try {
      const [first] = group;
      const { single, batched, named } = first!.work;
      if (group.length === 1) {
        first!.resolve((await this.run(single, bindingsOf(single, [first!.work.key], named)))[0]);
        return;
      }
      const keys = [...new Set(group.map((pending) => pending.work.key))];
      const rows = (await this.run(batched, bindingsOf(batched, [keys], named))) as BatchedRow[];
      const byKey = new Map(rows.map(({ point_key, ...row }) => [point_key, row]));
      for (const pending of group) pending.resolve(byKey.get(pending.work.key));
    } catch (error) {
      for (const pending of group) pending.reject(error);
    }
  }
}
