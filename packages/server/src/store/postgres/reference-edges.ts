// Reads over the edge tables the write path needs: the referrers a cascade visits, and the resources whose items
// block a delete.
import type pg from 'pg';
import { DOCUMENT_TABLE } from '../relational/schema-plan.js';
import { prepared } from './prepared.js';

/** A document that references another. */
export interface Referrer {
  readonly doc_id: number;
  readonly resource_id: number;
}

/** In doc_id order, the order cascades lock and rewrite them in. */
export async function referrersOf(client: pg.ClientBase, edgeTable: string, toDoc: number): Promise<Referrer[]> {
  const sql =
    `SELECT e.from_doc AS doc_id, d.resource_id FROM ${edgeTable} e JOIN ${DOCUMENT_TABLE} d ` +
    'ON d.doc_id = e.from_doc WHERE e.to_doc = $1 ORDER BY e.from_doc';
  return (await client.query<Referrer>(prepared(sql, [toDoc]))).rows;
}

export async function referrerResourceIds(
  db: pg.Pool | pg.ClientBase,
  edgeTable: string,
  toDoc: number,
): Promise<number[]> {
  const sql =
    `SELECT DISTINCT d.resource_id FROM ${edgeTable} e JOIN ${DOCUMENT_TABLE} d ON d.doc_id = e.from_doc ` +
    'WHERE e.to_doc = $1';
  return (await db.query<{ resource_id: number }>(prepared(sql, [toDoc]))).rows.map((row) => row.resource_id);
}
