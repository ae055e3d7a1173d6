// GET by id with the caller's authorization answered in the same statement (relational/document-read-sql.ts).
import type Database from 'better-sqlite3';
import type { AccessFilter, AuthorizedDocument } from '../store.js';
import {
  accessParametersOf,
  accessSignatureOf,
  type AccessParameters,
  type AccessSql,
} from '../relational/access-sql.js';
import { authorizedReadSql } from '../relational/document-read-sql.js';
import { ACCESS_SIGNATURES_PER_RESOURCE, LruCache } from '../relational/lru-cache.js';
import type { ResourceTableRef } from '../relational/resource-tables.js';
import type { ReadRow } from '../relational/stored-documents.js';
import { toStoredDocument } from '../relational/stored-documents.js';
import { sqliteDialect } from './sqlite-dialect.js';

type AuthorizedRow = ReadRow & { readonly authorized: number };

export class AuthorizedReads {
  /** One statement per access signature (claim-set strategies give few). */
  readonly #statements = new LruCache<Database.Statement<[string, AccessParameters], AuthorizedRow>>(
    ACCESS_SIGNATURES_PER_RESOURCE,
  );

  constructor(
    private readonly db: Database.Database,
    private readonly table: ResourceTableRef,
    private readonly access: AccessSql,
  ) {}

  get(id: string, filter: AccessFilter): AuthorizedDocument | undefined {
    const row = this.#statementFor(filter).get(id, accessParametersOf(filter, sqliteDialect));
    return row && { document: toStoredDocument(row), authorized: row.authorized === 1 };
  }

  #statementFor(filter: AccessFilter) {
    return this.#statements.get(accessSignatureOf(filter), () =>
      this.db.prepare<[string, AccessParameters], AuthorizedRow>(authorizedReadSql(this.table, this.access, filter)),
    );
  }
}
