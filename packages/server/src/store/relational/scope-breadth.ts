// Which statement reads a page of a relationship-scoped list (list-sql.ts): a `scan` of the resource in doc_id order,
// testing each row until the page is full, or the `scope` form, which selects the doc ids the caller may read through
// the securables and ed-org indexes (the 'population' form of access-sql.ts), sorts them and reads the page's bodies
// alone. Both return the same rows in the same order; they differ in what they cost. A scan costs the rows before the
// page's end, which for a client whose rows lie late in doc_id order is nearly the whole table, however few its rows;
// the scope form costs the client's rows, wherever they lie. SQLite keeps no statistics to choose between them, so the
// choice is ours, from the share of the stored ed-orgs the caller's claims reach (see narrowScopeSql).
import type { AccessFilter } from '../store.js';
import type { AccessSql } from './access-sql.js';
import { EDORG_CLOSURE_TABLE } from './schema-plan.js';
import type { SqlDialect } from './sql-dialect.js';
import { LruCache } from './lru-cache.js';

export type PageForm = 'scan' | 'scope';

/**
 * How long a breadth is trusted. It changes only when ed-orgs are written, which is rare, and a stale one costs time,
 * never rows.
 */
const BREADTH_LIFETIME_MS = 60_000;
/** Claim lists whose breadth is kept: one per client in use, and then some. */
const BREADTHS_KEPT = 1024;

/**
 * One row, `narrow` 1 when the caller's claims (`@claims`) and their descendants are at most half of the stored
 * ed-orgs (each of which the closure holds once as its own ancestor), else 0. The scope form reads the client's rows,
 * s·n of a table of n rows when the claims reach a share s of the ed-orgs; a scan reads up to the (1 − s)·n rows of
 * others before the client's last ones. A row costs the scope form about what it costs the scan or less (on SQLite an
 * index entry, where the scan reads the row), so below half the scope form is not the worse of the two; above half
 * most rows are the client's, and a scan ends after about twice the page where the scope form would sort more than
 * half the table. Measured at 10,000 students, where an LEA holds half the attendance: the last LEA's page 24 ms
 * scanned and 10 ms by scope on SQLite, 34 and 37 ms on PostgreSQL; an SEA's 0.25 ms scanned, 27 ms by scope.
 */
export function narrowScopeSql(access: AccessSql, dialect: SqlDialect): string {
  const reached = `SELECT count(*) FROM ${dialect.derivedTable(access.claimedDescendantsSql())}`;
  const stored = `SELECT count(*) FROM ${EDORG_CLOSURE_TABLE} e WHERE e.source_id = e.target_id`;
  return `SELECT CASE WHEN (${reached}) * 2 <= (${stored}) THEN 1 ELSE 0 END AS narrow`;
}

interface Breadth {
  readonly form: PageForm;
  readonly until: number;
}

function claimsKeyOf(access: AccessFilter): string {
  return [...access.educationOrganizationIds].sort((a, b) => a - b).join(',');
}

/** Whether pages of a list with `access` have a form to choose: only relationship rules read a population. */
export function isRelationshipScoped(access: AccessFilter | undefined): access is AccessFilter {
  return access !== undefined && access.relationships.length > 0;
}

/** The page forms of the claim lists seen lately, for every reader of one store. */
export class ScopeBreadths {
  readonly #breadths = new LruCache<Breadth>(BREADTHS_KEPT);

  /** The form of a page of a list with `access`, while one is known for its claims. */
  find(access: AccessFilter, now = performance.now()): PageForm | undefined {
    const known = this.#breadths.find(claimsKeyOf(access));
    return known !== undefined && known.until > now ? known.form : undefined;
  }

  /** Remembers the breadth read for the claims of `access` (`narrow` as narrowScopeSql selects it). */
  remember(access: AccessFilter, narrow: number, now = performance.now()): PageForm {
    const form = narrow === 1 ? 'scope' : 'scan';
    this.#breadths.set(claimsKeyOf(access), { form, until: now + BREADTH_LIFETIME_MS });
    return form;
  }
}
