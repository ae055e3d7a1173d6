// Imported claim sets on SQLite.
import type Database from 'better-sqlite3';
import type { ClaimSetDefinition, ClaimSetDeletion } from '../../store.js';
import { CLAIM_SET_COLUMNS, claimSetValues, toClaimSet, type ClaimSetRow } from '../../relational/claim-set-rows.js';

export class ClaimSetRecords {
  readonly #save: Database.Transaction<(claimSets: readonly ClaimSetDefinition[]) => void>;
  readonly #find: Database.Statement<[string], ClaimSetRow>;
  readonly #all: Database.Statement<[], ClaimSetRow>;
  readonly #delete: Database.Transaction<(name: string) => ClaimSetDeletion>;

  constructor(db: Database.Database) {
    const upsert = db.prepare<[string, string]>(
      `INSERT INTO claim_set (${CLAIM_SET_COLUMNS}) VALUES (?, ?) ` +
        'ON CONFLICT (name) DO UPDATE SET resource_claims = excluded.resource_claims',
    );
    this.#save = db.transaction((claimSets: readonly ClaimSetDefinition[]) => {
      for (const claimSet of claimSets) upsert.run(...claimSetValues(claimSet));
    });
    this.#find = db.prepare(`SELECT ${CLAIM_SET_COLUMNS} FROM claim_set WHERE name = ?`);
    this.#all = db.prepare(`SELECT ${CLAIM_SET_COLUMNS} FROM claim_set ORDER BY name`);
    const inUse = db
      .prepare<[string], number>('SELECT EXISTS (SELECT 1 FROM application WHERE claim_set_name = ?)')
      .pluck();
    const remove = db.prepare<[string]>('DELETE FROM claim_set WHERE name = ?');
    this.#delete = db.transaction((name: string) => {
      if (this.#find.get(name) === undefined) return 'unknown';
      if (inUse.get(name) === 1) return 'in-use';
      remove.run(name);
      return 'deleted';
    });
  }

  save(claimSets: readonly ClaimSetDefinition[]): void {
    this.#save.immediate(claimSets);
  }

  find(name: string): ClaimSetDefinition | undefined {
    const row = this.#find.get(name);
    return row && toClaimSet(row);
  }

  all(): ClaimSetDefinition[] {
    return this.#all.all().map(toClaimSet);
  }

  delete(name: string): ClaimSetDeletion {
    return this.#delete.immediate(name);
  }
}
