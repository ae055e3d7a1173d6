// The administrative tables (clients, tokens, vendors, applications), versioned apart from the model's schema so that a
// store made by an earlier release opens and gains the new tables and columns.
import type Database from 'better-sqlite3';

const VERSION_KEY = 'admin_schema_version';

/** Step i brings the tables from version i to i + 1; a released step is never edited, only followed by new ones. */
const MIGRATIONS: readonly string[] = [
  // 1: clients and tokens exactly as the first release created them, so on its stores this step changes nothing.
  `CREATE TABLE IF NOT EXISTS client (client_key TEXT PRIMARY KEY, name TEXT NOT NULL, secret_hash TEXT NOT NULL, active INTEGER NOT NULL, created_at TEXT NOT NULL) WITHOUT ROWID;
   CREATE TABLE IF NOT EXISTS access_token (token_hash TEXT PRIMARY KEY, client_key TEXT NOT NULL REFERENCES client (client_key) ON DELETE CASCADE, expires_at INTEGER NOT NULL) WITHOUT ROWID;
   CREATE INDEX IF NOT EXISTS access_token_client_key ON access_token (client_key);
   CREATE INDEX IF NOT EXISTS access_token_expires_at ON access_token (expires_at);`,
  // 2: vendors and applications, and the scope of a token. Existing clients keep a NULL application.
  `CREATE TABLE vendor (vendor_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
   CREATE TABLE vendor_namespace_prefix (vendor_id INTEGER NOT NULL REFERENCES vendor (vendor_id) ON DELETE CASCADE, prefix TEXT NOT NULL, PRIMARY KEY (vendor_id, prefix)) WITHOUT ROWID;
   CREATE TABLE application (application_id INTEGER PRIMARY KEY, vendor_id INTEGER NOT NULL REFERENCES vendor (vendor_id), name TEXT NOT NULL, claim_set_name TEXT NOT NULL, UNIQUE (vendor_id, name));
   CREATE TABLE application_education_organization (application_id INTEGER NOT NULL REFERENCES application (application_id) ON DELETE CASCADE, education_organization_id INTEGER NOT NULL, PRIMARY KEY (application_id, education_organization_id)) WITHOUT ROWID;
   CREATE TABLE application_profile (application_id INTEGER NOT NULL REFERENCES application (application_id) ON DELETE CASCADE, profile_name TEXT NOT NULL, PRIMARY KEY (application_id, profile_name)) WITHOUT ROWID;
   ALTER TABLE client ADD COLUMN application_id INTEGER REFERENCES application (application_id);
   CREATE INDEX client_application_id ON client (application_id);
   ALTER TABLE access_token ADD COLUMN education_organization_id INTEGER;`,
  // 3: profile definitions (data policies), keyed by the lower-cased name.
  `CREATE TABLE profile (name_key TEXT PRIMARY KEY, name TEXT NOT NULL, definition TEXT NOT NULL) WITHOUT ROWID;`,
  // 4: imported claim sets, their grants as the JSON of ClaimSetDefinition.resourceClaims.
  `CREATE TABLE claim_set (name TEXT PRIMARY KEY, resource_claims TEXT NOT NULL) WITHOUT ROWID;`,
  // 5: named ownership tokens. Each application gets a token of its own, existing ones under their application id,
  // which documents were stamped with until now; a client may be given another token and access further ones.
  `CREATE TABLE ownership_token (ownership_token_id INTEGER PRIMARY KEY, description TEXT NOT NULL UNIQUE);
   INSERT INTO ownership_token (ownership_token_id, description) SELECT application_id, 'application ' || application_id FROM application;
   ALTER TABLE application ADD COLUMN ownership_token_id INTEGER REFERENCES ownership_token (ownership_token_id);
   UPDATE application SET ownership_token_id = application_id;
   ALTER TABLE client ADD COLUMN creator_ownership_token_id INTEGER REFERENCES ownership_token (ownership_token_id);
   CREATE TABLE client_ownership_token (client_key TEXT NOT NULL REFERENCES client (client_key) ON DELETE CASCADE, ownership_token_id INTEGER NOT NULL REFERENCES ownership_token (ownership_token_id), PRIMARY KEY (client_key, ownership_token_id)) WITHOUT ROWID;`,
  // 6: extensions added to the store from their folders, as the JSON of their ExtensionModel.
  `CREATE TABLE extension_model (namespace TEXT PRIMARY KEY, definition TEXT NOT NULL) WITHOUT ROWID;`,
];

function versionOf(db: Database.Database): number {
  const value = db.prepare<[string], unknown>('SELECT value FROM meta WHERE key = ?').pluck().get(VERSION_KEY);
  return value === undefined ? 0 : Number(value);
}

export function isAdminSchemaCurrent(db: Database.Database): boolean {
  return versionOf(db) === MIGRATIONS.length;
}

/** Runs the missing steps; the caller holds the write transaction, so processes migrating together do it once. */
export function migrateAdminSchema(db: Database.Database): void {
  const current = versionOf(db);
  if (current > MIGRATIONS.length) throw new Error('The store was written by a newer release of edfi-api');
  for (const step of MIGRATIONS.slice(current)) db.exec(step);
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
    VERSION_KEY,
    MIGRATIONS.length,
  );
}
