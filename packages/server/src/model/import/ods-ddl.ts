// Reads the ODS PostgreSQL DDL: each table's columns, and which tables own which (cascade-deleting foreign keys).
import type { OdsTables } from '../types.js';

export interface OdsDdl {
  /** Qualified table name as PostgreSQL spells it (`edfi.Intervention`) → its stored column names. */
  columns: Map<string, string[]>;
  /** Qualified table name → the tables whose rows it owns (child, extension and subclass tables). */
  children: Map<string, string[]>;
}

const CREATE_TABLE = /^CREATE TABLE (\w+\.\w+) \($/;
const COLUMN = /^\s+(\w+) /;
const CASCADE_FOREIGN_KEY =
  /^ALTER TABLE (\w+\.\w+) ADD CONSTRAINT \w+ FOREIGN KEY \([^)]*\)\s+REFERENCES (\w+\.\w+) \([^)]*\)\s+ON DELETE CASCADE\b/;

function readColumns(tablesSql: string, into: Map<string, string[]>): void {
  let columns: string[] | undefined;
  for (const line of tablesSql.split('\n')) {
    const table = CREATE_TABLE.exec(line);
    if (table) {
      columns = [];
      into.set(table[1]!, columns);
    } else if (line.startsWith(')')) {
      columns = undefined;
    } else if (columns && !line.includes(' GENERATED ALWAYS ')) {
      const column = COLUMN.exec(line)?.[1];
      if (column && column !== 'CONSTRAINT') columns.push(column);
    }
  }
}

function readChildren(foreignKeysSql: string, into: Map<string, string[]>): void {
  for (const statement of foreignKeysSql.split(';')) {
    const key = CASCADE_FOREIGN_KEY.exec(statement.trim());
    if (key) into.set(key[2]!, [...(into.get(key[2]!) ?? []), key[1]!]);
  }
}

export function parseOdsDdl(tablesSql: readonly string[], foreignKeysSql: readonly string[]): OdsDdl {
  const columns = new Map<string, string[]>();
  const children = new Map<string, string[]>();
  for (const sql of tablesSql) readColumns(sql, columns);
  for (const sql of foreignKeysSql) readChildren(sql, children);
  if (columns.size === 0) throw new Error('No tables found in the ODS DDL');
  return { columns, children };
}

/** Both DDLs' tables and ownerships (an extension's DDL beside the tables of the model it extends). */
export function mergedOdsDdl(first: OdsDdl, second: OdsDdl): OdsDdl {
  const columns = new Map(first.columns);
  for (const [table, names] of second.columns) columns.set(table, [...(columns.get(table) ?? []), ...names]);
  const children = new Map(first.children);
  for (const [table, owned] of second.children) children.set(table, [...(children.get(table) ?? []), ...owned]);
  return { columns, children };
}

/** The DDL's facts as the model file keeps them. */
export function odsTablesOf(ddl: OdsDdl): OdsTables {
  return { columns: Object.fromEntries(ddl.columns), children: Object.fromEntries(ddl.children) };
}

export function odsDdlOf(tables: OdsTables): OdsDdl {
  return { columns: new Map(Object.entries(tables.columns)), children: new Map(Object.entries(tables.children)) };
}
