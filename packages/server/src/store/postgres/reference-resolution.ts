// Resolves a write's references in one query: per resource, one statement with a branch per target table (or abstract
// identity table), each probing the table's natural key index for every key of an `unnest`; descriptor URIs come from
// the descriptor cache (misses asked on the write's own connection). It runs inside the write's transaction, without
// locks: the edges' foreign keys catch a target deleted before the write commits, and the write is then run again.
import type pg from 'pg';
import type { ModelRegistry, ReferenceModel, ResourceModel } from '../../model/index.js';
import type { DocumentWrite } from '../store.js';
import type { LinkSite } from '../relational/reference-links.js';
import { probedRow } from '../relational/document-read-sql.js';
import { linkTo, type ResolvedReferences, type UnresolvedReference } from '../relational/resolved-references.js';
import { DOCUMENT_TABLE } from '../relational/schema-plan.js';
import { DESCRIPTOR_TABLE } from '../relational/table-layout.js';
import type { PostgresCatalog } from './catalog.js';
import type { PostgresDescriptorCache } from './descriptor-cache.js';
import { prepared } from './prepared.js';

/** One statement per referring resource, and which branch each of its references is looked up in. */
interface ResolutionPlan {
  readonly sql: string;
  /** The resource tables it reads. */
  readonly tables: readonly string[];
  readonly branchOf: ReadonlyMap<ReferenceModel, number>;
  readonly branches: number;
}

/** A pooled connection, or the pool itself for a statement outside any transaction. */
export type Queryable = pg.Pool | pg.ClientBase;

interface FoundTarget {
  readonly n: number;
  readonly doc_id: number;
  readonly uuid: string;
  readonly resource_id: number;
}

export class PostgresReferenceResolver {
  readonly #plans = new Map<ResourceModel, ResolutionPlan>();

  constructor(
    private readonly registry: ModelRegistry,
    private readonly catalog: PostgresCatalog,
    private readonly descriptors: PostgresDescriptorCache,
  ) {}

  /** The resource tables resolving the write's references reads (descriptors included). */
  tablesRead(write: DocumentWrite): string[] {
    const tables = write.references.length === 0 ? [] : [...this.#planOf(write.resource).tables];
    if (write.descriptors.length > 0) tables.push(DESCRIPTOR_TABLE);
    return tables;
  }

  /** @param fresh re-read the write's descriptors from the database instead of trusting the cache */
  async resolve(
    client: pg.ClientBase,
    write: DocumentWrite,
    fresh: boolean,
  ): Promise<ResolvedReferences | UnresolvedReference> {
    const [resolution] = await this.resolveAll(client, write.resource, [write], fresh);
    return resolution!;
  }

  /** The references of several writes of one resource, in one query (and one for the descriptors not in memory). */
  async resolveAll(
    db: Queryable,
    resource: ResourceModel,
    writes: readonly DocumentWrite[],
    fresh: boolean,
  ): Promise<(ResolvedReferences | UnresolvedReference)[]> {
    const found = await this.#findReferences(db, resource, writes);
    const keys = writes.map((write) =>
      write.descriptors.map(({ use, uri }) => this.descriptors.keyOf(use.descriptorNamespace, use.descriptor, uri)),
    );
    const known = keys.flat().filter((key) => key !== undefined);
    if (fresh) for (const key of known) this.descriptors.forget(key.resourceId, key.identityKey);
    const docIds = known.length === 0 ? [] : await this.descriptors.docIdsOf(known, db);
    let nextDocId = 0;
    return writes.map((write, index) => {
      const descriptorDocIds = keys[index]!.map((key) => (key === undefined ? undefined : docIds[nextDocId++]));
      return this.#resolutionOf(write, found[index]!, descriptorDocIds);
    });
  }

  #resolutionOf(
    write: DocumentWrite,
    found: ReadonlyMap<number, FoundTarget>,
    descriptorDocIds: readonly (number | undefined)[],
  ): ResolvedReferences | UnresolvedReference {
    const documents = new Set<number>();
    const links: LinkSite[] = [];
    for (const [index, { reference, path }] of write.references.entries()) {
      const target = found.get(index);
      if (!target) return { missingTarget: reference.target };
      documents.add(target.doc_id);
      links.push({ path, link: linkTo(this.catalog.resourceById(target.resource_id), target.uuid) });
    }
    const descriptors = new Set<number>();
    for (const [index, docId] of descriptorDocIds.entries()) {
      if (docId === undefined) return { missingTarget: write.descriptors[index]!.use.descriptor };
      descriptors.add(docId);
    }
    return { documents, descriptors, links };
  }

  /** Per write, its found targets by the reference's position in the write. */
  async #findReferences(
    db: Queryable,
    resource: ResourceModel,
    writes: readonly DocumentWrite[],
  ): Promise<Map<number, FoundTarget>[]> {
    const byWrite = writes.map(() => new Map<number, FoundTarget>());
    if (writes.every((write) => write.references.length === 0)) return byWrite;
    const plan = this.#planOf(resource);
    const keys: string[][] = Array.from({ length: plan.branches }, () => []);
    const positions: number[][] = Array.from({ length: plan.branches }, () => []);
    // A reference's position numbers it across the writes: the writes' references one after another.
    const firstPositions: number[] = [];
    let position = 0;
    for (const write of writes) {
      firstPositions.push(position);
      for (const { reference, targetIdentity } of write.references) {
        const branch = plan.branchOf.get(reference);
        if (branch === undefined) throw new Error(`${resource.resourceName} has no reference ${reference.path}`);
        keys[branch]!.push(targetIdentity.key);
        positions[branch]!.push(position++);
      }
    }
    const values = keys.flatMap((branchKeys, branch) => [branchKeys, positions[branch]]);
    const { rows } = await db.query<FoundTarget>(prepared(plan.sql, values));
    for (const row of rows) {
      const write = lastIndexAtMost(firstPositions, row.n);
      byWrite[write]!.set(row.n - firstPositions[write]!, row);
    }
    return byWrite;
  }

  #planOf(resource: ResourceModel): ResolutionPlan {
    let plan = this.#plans.get(resource);
    if (!plan) {
      plan = this.#plan(resource);
      this.#plans.set(resource, plan);
    }
    return plan;
  }

  #plan(resource: ResourceModel): ResolutionPlan {
    const branchByTarget = new Map<string, number>();
    const branchOf = new Map<ReferenceModel, number>();
    const selects: string[] = [];
    const tables = new Set<string>();
    for (const reference of resource.references) {
      const target = this.#targetOf(reference);
      let branch = branchByTarget.get(target.key);
      if (branch === undefined) {
        branch = selects.length;
        branchByTarget.set(target.key, branch);
        const wanted = `unnest($${2 * branch + 1}::text[], $${2 * branch + 2}::integer[]) AS w (identity_key, n)`;
        tables.add(target.table);
        selects.push(
          `SELECT w.n, t.doc_id, d.uuid, ${target.resourceId} AS resource_id FROM ${wanted} ` +
            `${probedRow(target.table, 't', `${target.scope}t.identity_key = w.identity_key`)} ` +
            `JOIN ${DOCUMENT_TABLE} d ON d.doc_id = t.doc_id`,
        );
      }
      branchOf.set(reference, branch);
    }
    return { sql: selects.join(' UNION ALL '), tables: [...tables], branchOf, branches: selects.length };
  }

  /** Where a reference's target is found by natural key, and the SQL that names its resource id. */
  #targetOf(reference: ReferenceModel): { key: string; table: string; scope: string; resourceId: string } {
    if (reference.targetIsAbstract) {
      const { table } = this.catalog.abstractLayoutOf(reference.target);
      return { key: table, table, scope: '', resourceId: 't.resource_id' };
    }
    const target = this.registry.getResourceByName(reference.target, reference.targetNamespace);
    if (!target) throw new Error(`Unknown reference target ${reference.targetNamespace}/${reference.target}`);
    const { layout, resourceId } = this.catalog.tableOf(target);
    const scope = layout.shared ? `t.resource_id = ${resourceId} AND ` : '';
    return { key: `${layout.table} ${resourceId}`, table: layout.table, scope, resourceId: String(resourceId) };
  }
}

/** The index of the last of the ascending `starts` that is at most `value`. */
function lastIndexAtMost(starts: readonly number[], value: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= value) low = middle;
    else high = middle - 1;
  }
  return low;
}
