// Replays the ODS 7.3 security scripts (`ods-security/structure/` then `data-ds-5.2/`, each in file order) into a
// scratch PostgreSQL database, reads the claim sets, resource claims and authorization metadata back, and drops it.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface OdsSecurityScript {
  name: string;
  sql: string;
}

export interface OdsResourceClaim {
  id: number;
  claimName: string;
  parentId: number | null;
}

/** One action of a resource claim (defaults) or of a claim set's grant, with its strategy (if any). */
export interface OdsActionStrategy {
  resourceClaimId: number;
  action: string;
  strategy: string | null;
}

export interface OdsClaimSetGrant extends OdsActionStrategy {
  claimSet: string;
}

export interface OdsSecurityTables {
  claimSets: { name: string; isEdfiPreset: boolean }[];
  resourceClaims: OdsResourceClaim[];
  defaults: OdsActionStrategy[];
  grants: OdsClaimSetGrant[];
}

const TABLE_QUERIES = {
  claimSets: 'SELECT claimsetname AS name, isedfipreset AS "isEdfiPreset" FROM dbo.claimsets ORDER BY claimsetid',
  resourceClaims:
    'SELECT resourceclaimid AS id, claimname AS "claimName", parentresourceclaimid AS "parentId" ' +
    'FROM dbo.resourceclaims ORDER BY resourceclaimid',
  defaults:
    'SELECT rca.resourceclaimid AS "resourceClaimId", a.actionname AS action, s.authorizationstrategyname AS strategy ' +
    'FROM dbo.resourceclaimactions rca JOIN dbo.actions a ON a.actionid = rca.actionid ' +
    'LEFT JOIN dbo.resourceclaimactionauthorizationstrategies rcas ON rcas.resourceclaimactionid = rca.resourceclaimactionid ' +
    'LEFT JOIN dbo.authorizationstrategies s ON s.authorizationstrategyid = rcas.authorizationstrategyid ' +
    'ORDER BY 1, 2, 3',
  grants:
    'SELECT cs.claimsetname AS "claimSet", csrca.resourceclaimid AS "resourceClaimId", a.actionname AS action, ' +
    's.authorizationstrategyname AS strategy ' +
    'FROM dbo.claimsetresourceclaimactions csrca JOIN dbo.claimsets cs ON cs.claimsetid = csrca.claimsetid ' +
    'JOIN dbo.actions a ON a.actionid = csrca.actionid ' +
    'LEFT JOIN dbo.claimsetresourceclaimactionauthorizationstrategyoverrides o ' +
    'ON o.claimsetresourceclaimactionid = csrca.claimsetresourceclaimactionid ' +
    'LEFT JOIN dbo.authorizationstrategies s ON s.authorizationstrategyid = o.authorizationstrategyid ' +
    'ORDER BY 1, 2, 3, 4',
} as const;

function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withClient<T>(connectionString: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Runs each script as one simple query (no parameters), so a script may hold many statements and DO blocks. */
export async function replayOdsSecurity(
  serverUrl: string,
  scripts: readonly OdsSecurityScript[],
): Promise<OdsSecurityTables> {
  const database = `edfi_security_replay_${randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${database}`));
  try {
    return await withClient(databaseUrl(serverUrl, database), async (client) => {
      client.on('notice', () => undefined);
      for (const script of scripts) {
        try {
          await client.query(script.sql.replace(/^\uFEFF/, ''));
        } catch (error) {
          throw new Error(`Replaying ${script.name}: ${(error as Error).message}`);
        }
      }
      const read = async <K extends keyof typeof TABLE_QUERIES>(key: K) =>
        (await client.query(TABLE_QUERIES[key])).rows;
      return {
        claimSets: (await read('claimSets')) as OdsSecurityTables['claimSets'],
        resourceClaims: (await read('resourceClaims')) as OdsResourceClaim[],
        defaults: (await read('defaults')) as OdsActionStrategy[],
        grants: (await read('grants')) as OdsClaimSetGrant[],
      };
    });
  } finally {
    await withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  }
}
