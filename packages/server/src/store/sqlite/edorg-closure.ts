// Keeps the ed-org closure inside each write transaction (storage design §3.6): an ed-org's parents are the ed-orgs
// its root references name (School → LEA, LEA → ESC/SEA, department → parent, provider → organization, …).
import type Database from 'better-sqlite3';
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import { EdOrgHierarchy, sameParents } from '../relational/edorg-hierarchy.js';
import { EDORG_CLOSURE_TABLE, EDORG_PARENT_TABLE } from '../relational/schema-plan.js';

export class EdOrgClosure {
  readonly #hierarchy: EdOrgHierarchy;
  readonly #parents: Database.Statement<[number], number>;
  readonly #deleteParents: Database.Statement<[number]>;
  readonly #insertParent: Database.Statement<[number, number]>;
  readonly #insertSelf: Database.Statement<[number, number]>;
  readonly #linkBelow: Database.Statement<[number, number]>;
  readonly #forget: Database.Statement<[number, number]>;
  readonly #unlinkAll: Database.Statement;
  readonly #relinkAll: Database.Statement;
  readonly #isEmpty: Database.Statement<[], number>;

  constructor(
    private readonly db: Database.Database,
    private readonly registry: ModelRegistry,
  ) {
    this.#hierarchy = new EdOrgHierarchy(registry);
    this.#isEmpty = db.prepare<[], number>(`SELECT NOT EXISTS (SELECT 1 FROM ${EDORG_CLOSURE_TABLE})`).pluck();
    this.#parents = db
      .prepare<[number], number>(`SELECT parent_id FROM ${EDORG_PARENT_TABLE} WHERE child_id = ? ORDER BY parent_id`)
      .pluck();
    this.#deleteParents = db.prepare(`DELETE FROM ${EDORG_PARENT_TABLE} WHERE child_id = ?`);
    this.#insertParent = db.prepare(`INSERT OR IGNORE INTO ${EDORG_PARENT_TABLE} (child_id, parent_id) VALUES (?, ?)`);
    this.#insertSelf = db.prepare(`INSERT OR IGNORE INTO ${EDORG_CLOSURE_TABLE} (source_id, target_id) VALUES (?, ?)`);
    this.#linkBelow = db.prepare(
      `INSERT OR IGNORE INTO ${EDORG_CLOSURE_TABLE} (source_id, target_id) ` +
        `SELECT source_id, ? FROM ${EDORG_CLOSURE_TABLE} WHERE target_id = ?`,
    );
    this.#forget = db.prepare(`DELETE FROM ${EDORG_CLOSURE_TABLE} WHERE source_id = ? OR target_id = ?`);
    this.#unlinkAll = db.prepare(`DELETE FROM ${EDORG_CLOSURE_TABLE} WHERE source_id <> target_id`);
    this.#relinkAll = db.prepare(
      `INSERT OR IGNORE INTO ${EDORG_CLOSURE_TABLE} (source_id, target_id) ` +
        `WITH RECURSIVE up (target_id, source_id) AS (SELECT child_id, parent_id FROM ${EDORG_PARENT_TABLE} ` +
        `UNION SELECT up.target_id, p.parent_id FROM up JOIN ${EDORG_PARENT_TABLE} p ON p.child_id = up.source_id) ` +
        'SELECT source_id, target_id FROM up',
    );
  }

  /**
   * Builds the closure from the stored ed-orgs when it is empty: a store written before the closure existed. Runs once
   * per open, in one transaction; an empty closure over no ed-orgs stays empty.
   */
  backfill(tableOf: (resource: ResourceModel) => string): void {
    if (this.#isEmpty.get() !== 1) return;
    this.db
      .transaction(() => {
        for (const resource of this.registry.allResources) {
          if (!this.#hierarchy.isEdOrg(resource)) continue;
          const bodies = this.db
            .prepare<[], string>(`SELECT body FROM ${tableOf(resource)}`)
            .pluck()
            .all();
          for (const body of bodies) {
            const edOrg = this.#hierarchy.edOrgOf(resource, JSON.parse(body));
            if (edOrg === undefined) continue;
            this.#insertSelf.run(edOrg.id, edOrg.id);
            for (const parent of edOrg.parents) this.#insertParent.run(edOrg.id, parent);
          }
        }
        this.#relinkAll.run();
      })
      .immediate();
  }

  /** A new ed-org is a leaf (nothing can reference it yet), so it only joins its parents' ancestors. */
  created(resource: ResourceModel, body: unknown): void {
    const edOrg = this.#hierarchy.edOrgOf(resource, body);
    if (edOrg === undefined) return;
    this.#insertSelf.run(edOrg.id, edOrg.id);
    for (const parent of edOrg.parents) {
      this.#insertParent.run(edOrg.id, parent);
      this.#linkBelow.run(edOrg.id, parent);
    }
  }

  /** Changed parents move a whole subtree; hierarchies are small, so the closure is rebuilt from the parent edges. */
  updated(resource: ResourceModel, body: unknown): void {
    const edOrg = this.#hierarchy.edOrgOf(resource, body);
    if (edOrg === undefined) return;
    const before = this.#parents.all(edOrg.id);
    if (sameParents(before, edOrg.parents)) return;
    this.#deleteParents.run(edOrg.id);
    for (const parent of edOrg.parents) this.#insertParent.run(edOrg.id, parent);
    this.#unlinkAll.run();
    this.#relinkAll.run();
  }

  /** A deleted ed-org has no children (references restrict the delete), so only its own rows go. */
  deleted(resource: ResourceModel, body: unknown): void {
    const edOrg = this.#hierarchy.edOrgOf(resource, body);
    if (edOrg === undefined) return;
    this.#deleteParents.run(edOrg.id);
    this.#forget.run(edOrg.id, edOrg.id);
  }
}
