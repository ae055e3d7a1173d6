// The administrative tables (clients, tokens, vendors, applications) on PostgreSQL, versioned apart from the model's
// schema like SQLite's, so a later release can add steps that a store made by this one runs on `migrate`.
import type pg from 'pg';

export const ADMIN_SCHEMA_VERSION_KEY = 'admin_schema_version';

/**
 * Step i brings the tables from version i to i + 1; a released step is never edited, only followed by new ones.
 * PostgreSQL stores start at SQLite's second version, so step 1 creates its whole shape at once.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE vendor (vendor_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text COLLATE "C" NOT NULL UNIQUE);
   CREATE TABLE vendor_namespace_prefix (vendor_id bigint NOT NULL REFERENCES vendor (vendor_id) ON DELETE CASCADE, prefix text COLLATE "C" NOT NULL, PRIMARY KEY (vendor_id, prefix));
   CREATE TABLE application (application_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, vendor_id bigint NOT NULL REFERENCES vendor (vendor_id), name text COLLATE "C" NOT NULL, claim_set_name text NOT NULL, UNIQUE (vendor_id, name));
   CREATE TABLE application_education_organization (application_id bigint NOT NULL REFERENCES application (application_id) ON DELETE CASCADE, education_organization_id bigint NOT NULL, PRIMARY KEY (application_id, education_organization_id));
   CREATE TABLE application_profile (application_id bigint NOT NULL REFERENCES application (application_id) ON DELETE CASCADE, profile_name text COLLATE "C" NOT NULL, PRIMARY KEY (application_id, profile_name));
   CREATE TABLE client (client_key text COLLATE "C" PRIMARY KEY, name text NOT NULL, secret_hash text NOT NULL, active boolean NOT NULL, created_at text NOT NULL, application_id bigint REFERENCES application (application_id));
   CREATE INDEX client_application_id ON client (application_id);
   CREATE TABLE access_token (token_hash text COLLATE "C" PRIMARY KEY, client_key text COLLATE "C" NOT NULL REFERENCES client (client_key) ON DELETE CASCADE, expires_at bigint NOT NULL, education_organization_id bigint);
   CREATE INDEX access_token_client_key ON access_token (client_key);
   CREATE INDEX access_token_expires_at ON access_token (expires_at);`,
  // 2: imported claim sets, their grants as the JSON of ClaimSetDefinition.resourceClaims.
  `CREATE TABLE claim_set (name text COLLATE "C" PRIMARY KEY, resource_claims text NOT NULL);`,
];

export const ADMIN_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Runs the steps after `current`; the caller holds the migration's transaction and advisory lock, so processes
 * migrating together do it once.
 */
export async function migrateAdminSchema(client: pg.ClientBase, current: number): Promise<void> {
  if (current > MIGRATIONS.length) throw new Error('The store was written by a newer release of edfi-api');
  for (const step of MIGRATIONS.slice(current)) await client.query(step);
}
