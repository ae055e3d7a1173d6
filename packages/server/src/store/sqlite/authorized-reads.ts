// GET by id with the caller's authorization answered in the same statement: the access predicate the lists use,
// evaluated on the one row in its per-value (probe) form, next to the document.
import type Database from 'better-sqlite3';
import type { AccessFilter, AuthorizedDocument } from '../store.js';
import {
  accessParametersOf,
  accessSignatureOf,
  subjectColumnsOf,
  type AccessParameters,
  type AccessSql,
} from './access-sql.js';
import type { ReadRow } from '../relational/stored-documents.js';
import type { ResourceTable } from './resource-table.js';
import { toStoredDocument } from '../relational/stored-documents.js';

type AuthorizedRow = ReadRow & { readonly authorized: number };

export class AuthorizedReads {
  /** One statement per access signature (claim-set strategies give few). */
  readonly #statements = new Map<string, Database.Statement<[string, AccessParameters], AuthorizedRow>>();

  constructor(
    private readonly db: Database.Database,
    private readonly table: ResourceTable,
    private readonly access: AccessSql,
  ) {}

  get(id: string, filter: AccessFilter): AuthorizedDocument | undefined {
    const row = this.#statementFor(filter).get(id, accessParametersOf(filter));
    return row && { document: toStoredDocument(row), authorized: row.authorized === 1 };
  }

  #statementFor(filter: AccessFilter) {
    const signature = accessSignatureOf(filter);
    let statement = this.#statements.get(signature);
    if (statement === undefined) {
      const predicate = this.access.predicateOf(filter, subjectColumnsOf(this.table.layout), false, 'probe');
      statement = this.db.prepare<[string, AccessParameters], AuthorizedRow>(
        this.table.readByUuidSql(`, (${predicate}) AS authorized`),
      );
      this.#statements.set(signature, statement);
    }
    return statement;
  }
}
