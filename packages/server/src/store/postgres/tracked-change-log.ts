// Writes `tracked_change` rows (one per deletion D and per identity change K) inside the write's transaction, under a
// placeholder version that the commit replaces with the change's own version (change-stamps.ts).
import type pg from 'pg';
import type { KeyValues } from '../store.js';
import { TRACKED_CHANGE_TABLE } from '../relational/schema-plan.js';
import { trackedChangeValues, type TrackedChangeValues, type TrackedDocument } from '../relational/tracked-values.js';
import { trackedChangePlaceholder, type ChangeStamps } from './change-stamps.js';
import { prepared } from './prepared.js';

const INSERT =
  `INSERT INTO ${TRACKED_CHANGE_TABLE} (change_version, resource_id, kind, uuid, old_identity_key, old_key, new_key, ` +
  `old_securables, changed_at) VALUES (${trackedChangePlaceholder('$1::bigint')}, $2, $3, $4, $5, $6, $7, $8, $9)`;

export interface TrackedChangeWrite {
  readonly client: pg.ClientBase;
  readonly stamps: ChangeStamps;
  /** When the change happened, as `_lastModifiedDate` values are written. */
  readonly changedAt: string;
}

export async function recordDeletion(write: TrackedChangeWrite, document: TrackedDocument): Promise<void> {
  await record(write, trackedChangeValues(document));
}

export async function recordKeyChange(
  write: TrackedChangeWrite,
  document: TrackedDocument,
  newKeyValues: KeyValues,
): Promise<void> {
  await record(write, trackedChangeValues(document, newKeyValues));
}

async function record({ client, stamps, changedAt }: TrackedChangeWrite, values: TrackedChangeValues): Promise<void> {
  await client.query(prepared(INSERT, [stamps.stampTrackedChange(), ...values, changedAt]));
}
