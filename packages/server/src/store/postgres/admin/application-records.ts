// Vendors (with their namespace prefixes) and applications (claim set, education organizations, profiles) on
// PostgreSQL: an application is read with its lists in one query.
import type pg from 'pg';
import { giveApplicationToken } from './ownership-token-records.js';
import type { ApplicationChanges, ApplicationDefinition, ClientApplication } from '../../store.js';

interface ApplicationRow {
  readonly application_id: number;
  readonly vendor_name: string;
  readonly application_name: string;
  readonly claim_set_name: string;
  readonly namespace_prefixes: string[];
  /** int8[] arrives as decimal strings. */
  readonly education_organization_ids: string[];
  readonly profile_names: string[];
}

const SELECT_APPLICATION =
  'SELECT a.application_id, v.name AS vendor_name, a.name AS application_name, a.claim_set_name, ' +
  'ARRAY(SELECT prefix FROM vendor_namespace_prefix p WHERE p.vendor_id = a.vendor_id ORDER BY prefix) ' +
  'AS namespace_prefixes, ' +
  'ARRAY(SELECT education_organization_id FROM application_education_organization e ' +
  'WHERE e.application_id = a.application_id ORDER BY education_organization_id) AS education_organization_ids, ' +
  'ARRAY(SELECT profile_name FROM application_profile f WHERE f.application_id = a.application_id ' +
  'ORDER BY profile_name) AS profile_names ' +
  'FROM application a JOIN vendor v ON v.vendor_id = a.vendor_id';

function toApplication(row: ApplicationRow): ClientApplication {
  return {
    applicationId: row.application_id,
    vendorName: row.vendor_name,
    namespacePrefixes: row.namespace_prefixes,
    applicationName: row.application_name,
    claimSetName: row.claim_set_name,
    educationOrganizationIds: row.education_organization_ids.map(Number),
    profileNames: row.profile_names,
  };
}

type Queryable = pg.Pool | pg.ClientBase;

export async function findVendorNamespacePrefixes(db: Queryable, vendorName: string): Promise<string[] | undefined> {
  const { rows } = await db.query<{ prefixes: string[] }>(
    'SELECT ARRAY(SELECT prefix FROM vendor_namespace_prefix p WHERE p.vendor_id = v.vendor_id ORDER BY prefix) ' +
      'AS prefixes FROM vendor v WHERE v.name = $1',
    [vendorName],
  );
  return rows[0]?.prefixes;
}

export async function findApplication(
  db: Queryable,
  vendorName: string,
  applicationName: string,
): Promise<ClientApplication | undefined> {
  const { rows } = await db.query<ApplicationRow>(`${SELECT_APPLICATION} WHERE v.name = $1 AND a.name = $2`, [
    vendorName,
    applicationName,
  ]);
  return rows[0] && toApplication(rows[0]);
}

export async function findApplicationById(
  db: Queryable,
  applicationId: number,
): Promise<ClientApplication | undefined> {
  const { rows } = await db.query<ApplicationRow>(`${SELECT_APPLICATION} WHERE a.application_id = $1`, [applicationId]);
  return rows[0] && toApplication(rows[0]);
}

export async function allApplications(db: Queryable): Promise<Map<number, ClientApplication>> {
  const { rows } = await db.query<ApplicationRow>(`${SELECT_APPLICATION} ORDER BY a.application_id`);
  return new Map(rows.map((row) => [row.application_id, toApplication(row)]));
}

/**
 * The id of the named application, creating the vendor and the application from the definition when new. Inside the
 * caller's transaction; a concurrent creator of the same names makes the insert wait, then find its row.
 */
export async function findOrCreateApplication(
  client: pg.ClientBase,
  definition: ApplicationDefinition,
): Promise<number> {
  const vendorId = await findOrCreateVendor(client, definition);
  const inserted = await client.query<{ application_id: number }>(
    'INSERT INTO application (vendor_id, name, claim_set_name) VALUES ($1, $2, $3) ' +
      'ON CONFLICT (vendor_id, name) DO NOTHING RETURNING application_id',
    [vendorId, definition.applicationName, definition.claimSetName],
  );
  const created = inserted.rows[0]?.application_id;
  if (created !== undefined) await giveApplicationToken(client, created);
  if (created === undefined) {
    const { rows } = await client.query<{ application_id: number }>(
      'SELECT application_id FROM application WHERE vendor_id = $1 AND name = $2',
      [vendorId, definition.applicationName],
    );
    return rows[0]!.application_id;
  }
  await client.query(
    'INSERT INTO application_education_organization (application_id, education_organization_id) ' +
      'SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING',
    [created, definition.educationOrganizationIds],
  );
  await client.query(
    'INSERT INTO application_profile (application_id, profile_name) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
    [created, definition.profileNames],
  );
  return created;
}

/** Inside the caller's transaction, the application's row locked first. */
export async function updateApplication(
  client: pg.ClientBase,
  applicationId: number,
  changes: ApplicationChanges,
): Promise<void> {
  await client.query('SELECT 1 FROM application WHERE application_id = $1 FOR UPDATE', [applicationId]);
  if (changes.claimSetName !== undefined) {
    await client.query('UPDATE application SET claim_set_name = $1 WHERE application_id = $2', [
      changes.claimSetName,
      applicationId,
    ]);
  }
  if (changes.educationOrganizationIds !== undefined) {
    await client.query('DELETE FROM application_education_organization WHERE application_id = $1', [applicationId]);
    await client.query(
      'INSERT INTO application_education_organization (application_id, education_organization_id) ' +
        'SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING',
      [applicationId, changes.educationOrganizationIds],
    );
  }
}

async function findOrCreateVendor(client: pg.ClientBase, definition: ApplicationDefinition): Promise<number> {
  const inserted = await client.query<{ vendor_id: number }>(
    'INSERT INTO vendor (name) VALUES ($1) ON CONFLICT (name) DO NOTHING RETURNING vendor_id',
    [definition.vendorName],
  );
  const created = inserted.rows[0]?.vendor_id;
  if (created === undefined) {
    const { rows } = await client.query<{ vendor_id: number }>('SELECT vendor_id FROM vendor WHERE name = $1', [
      definition.vendorName,
    ]);
    return rows[0]!.vendor_id;
  }
  await client.query(
    'INSERT INTO vendor_namespace_prefix (vendor_id, prefix) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
    [created, definition.namespacePrefixes],
  );
  return created;
}
