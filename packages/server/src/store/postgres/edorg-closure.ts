// Keeps the ed-org closure inside each write transaction (storage design §3.6), as SQLite's store does. Changes to
// the closure are serialized by a transaction-level advisory lock per schema: a rebuild reads and rewrites the whole
// closure, which two READ COMMITTED transactions doing it at once would leave stale. Ed-org writes are rare.
import type pg from 'pg';
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import { EdOrgHierarchy, sameParents, type EdOrgNode } from '../relational/edorg-hierarchy.js';
import { EDORG_CLOSURE_TABLE, EDORG_PARENT_TABLE } from '../relational/schema-plan.js';
import { prepared } from './prepared.js';

/** Identifies the closure's advisory lock among this application's locks (the second key is the schema's). */
const CLOSURE_LOCK_CLASS = 0x45644f43;

const LOCK = `SELECT pg_advisory_xact_lock(${CLOSURE_LOCK_CLASS}, hashtext(current_schema()))`;
const PARENTS = `SELECT parent_id FROM ${EDORG_PARENT_TABLE} WHERE child_id = $1::bigint ORDER BY parent_id`;
/** A new ed-org is a leaf (nothing can reference it yet), so it only joins its parents' ancestors. */
const LINK_NEW =
  `WITH p AS (INSERT INTO ${EDORG_PARENT_TABLE} (child_id, parent_id) SELECT $1::bigint, unnest($2::bigint[]) ` +
  `ON CONFLICT DO NOTHING) INSERT INTO ${EDORG_CLOSURE_TABLE} (source_id, target_id) ` +
  `SELECT $1::bigint, $1::bigint UNION ` +
  `SELECT source_id, $1::bigint FROM ${EDORG_CLOSURE_TABLE} WHERE target_id = ANY ($2::bigint[]) ` +
  'ON CONFLICT DO NOTHING';
const SET_PARENTS =
  `WITH gone AS (DELETE FROM ${EDORG_PARENT_TABLE} WHERE child_id = $1::bigint) ` +
  `INSERT INTO ${EDORG_PARENT_TABLE} (child_id, parent_id) SELECT $1::bigint, unnest($2::bigint[])`;
/** Changed parents move a whole subtree; hierarchies are small, so the closure is rebuilt from the parent edges. */
const REBUILD =
  `DELETE FROM ${EDORG_CLOSURE_TABLE} WHERE source_id <> target_id; ` +
  `INSERT INTO ${EDORG_CLOSURE_TABLE} (source_id, target_id) ` +
  `WITH RECURSIVE up (target_id, source_id) AS (SELECT child_id, parent_id FROM ${EDORG_PARENT_TABLE} ` +
  `UNION SELECT up.target_id, p.parent_id FROM up JOIN ${EDORG_PARENT_TABLE} p ON p.child_id = up.source_id) ` +
  'SELECT source_id, target_id FROM up ON CONFLICT DO NOTHING';
/** A deleted ed-org has no children (references restrict the delete), so only its own rows go. */
const FORGET =
  `WITH p AS (DELETE FROM ${EDORG_PARENT_TABLE} WHERE child_id = $1::bigint) ` +
  `DELETE FROM ${EDORG_CLOSURE_TABLE} WHERE source_id = $1::bigint OR target_id = $1::bigint`;

export class PostgresEdOrgClosure {
  readonly #hierarchy: EdOrgHierarchy;

  constructor(registry: ModelRegistry) {
    this.#hierarchy = new EdOrgHierarchy(registry);
  }

  async created(client: pg.ClientBase, resource: ResourceModel, body: unknown): Promise<void> {
    const edOrg = this.#hierarchy.edOrgOf(resource, body);
    if (edOrg === undefined) return;
    await client.query(LOCK);
    await client.query(prepared(LINK_NEW, [edOrg.id, edOrg.parents]));
  }

  async updated(client: pg.ClientBase, resource: ResourceModel, body: unknown): Promise<void> {
    const edOrg = this.#hierarchy.edOrgOf(resource, body);
    if (edOrg === undefined || (await this.#sameParents(client, edOrg))) return;
    await client.query(LOCK);
    await client.query(prepared(SET_PARENTS, [edOrg.id, edOrg.parents]));
    await client.query(REBUILD);
  }

  async deleted(client: pg.ClientBase, resource: ResourceModel, body: unknown): Promise<void> {
    const edOrg = this.#hierarchy.edOrgOf(resource, body);
    if (edOrg === undefined) return;
    await client.query(LOCK);
    await client.query(prepared(FORGET, [edOrg.id]));
  }

  async #sameParents(client: pg.ClientBase, edOrg: EdOrgNode): Promise<boolean> {
    const { rows } = await client.query<{ parent_id: number }>(prepared(PARENTS, [edOrg.id]));
    return sameParents(
      rows.map((row) => row.parent_id),
      edOrg.parents,
    );
  }
}
