// Every ODS 7.3 claim set × ed-fi resource × action × strategy against the ODS security database itself: the test
// replays the shared scripts into a database of its own and asks it, with one recursive query, what each claim set
// grants (the nearest granting claim's overrides, else the nearest default of the action).
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getModelRegistry, type ClaimAction, type ResourceModel } from '../../src/model/index.js';
import { claimSetPolicy, odsClaimUri } from '../../src/security/index.js';
import { describeWithEdfiSource, EDFI_SOURCE_DIR } from '../support/edfi-source.js';
import { describePostgres, POSTGRES_TEST_URL, withConnection } from '../support/postgres.js';

const EFFECTIVE_GRANTS = `
WITH RECURSIVE lineage AS (
  SELECT resourceclaimid AS claim, resourceclaimid AS ancestor, 0 AS depth, parentresourceclaimid AS next
  FROM dbo.resourceclaims
  UNION ALL
  SELECT l.claim, r.resourceclaimid, l.depth + 1, r.parentresourceclaimid
  FROM lineage l JOIN dbo.resourceclaims r ON r.resourceclaimid = l.next
),
grants AS (
  SELECT cs.claimsetname AS claim_set, l.claim, a.actionname AS action, l.depth, g.claimsetresourceclaimactionid AS id
  FROM lineage l
  JOIN dbo.claimsetresourceclaimactions g ON g.resourceclaimid = l.ancestor
  JOIN dbo.claimsets cs ON cs.claimsetid = g.claimsetid
  JOIN dbo.actions a ON a.actionid = g.actionid
),
overrides AS (
  SELECT g.claim_set, g.claim, g.action, g.depth, s.authorizationstrategyname AS strategy
  FROM grants g
  JOIN dbo.claimsetresourceclaimactionauthorizationstrategyoverrides o ON o.claimsetresourceclaimactionid = g.id
  JOIN dbo.authorizationstrategies s ON s.authorizationstrategyid = o.authorizationstrategyid
),
defaults AS (
  SELECT l.claim, a.actionname AS action, l.depth, s.authorizationstrategyname AS strategy
  FROM lineage l
  JOIN dbo.resourceclaimactions d ON d.resourceclaimid = l.ancestor
  JOIN dbo.actions a ON a.actionid = d.actionid
  JOIN dbo.resourceclaimactionauthorizationstrategies ds ON ds.resourceclaimactionid = d.resourceclaimactionid
  JOIN dbo.authorizationstrategies s ON s.authorizationstrategyid = ds.authorizationstrategyid
),
granted AS (SELECT DISTINCT claim_set, claim, action FROM grants)
SELECT g.claim_set AS "claimSet", rc.claimname AS "claimName", g.action,
  coalesce(
    (SELECT array_agg(o.strategy ORDER BY o.strategy) FROM overrides o
      WHERE (o.claim_set, o.claim, o.action) = (g.claim_set, g.claim, g.action)
        AND o.depth = (SELECT min(o2.depth) FROM overrides o2
          WHERE (o2.claim_set, o2.claim, o2.action) = (g.claim_set, g.claim, g.action))),
    (SELECT array_agg(d.strategy ORDER BY d.strategy) FROM defaults d
      WHERE (d.claim, d.action) = (g.claim, g.action)
        AND d.depth = (SELECT min(d2.depth) FROM defaults d2 WHERE (d2.claim, d2.action) = (g.claim, g.action))),
    '{}'
  ) AS strategies
FROM granted g JOIN dbo.resourceclaims rc ON rc.resourceclaimid = g.claim`;

const ACTIONS: readonly ClaimAction[] = ['Create', 'Read', 'Update', 'Delete', 'ReadChanges'];

function scripts(): string[] {
  return ['structure', 'data-ds-5.2'].flatMap((folder) => {
    const dir = path.join(EDFI_SOURCE_DIR, 'ods-security', folder);
    return readdirSync(dir)
      .filter((name) => name.endsWith('.sql'))
      .sort()
      .map((name) => readFileSync(path.join(dir, name), 'utf8').replace(/^\uFEFF/, ''));
  });
}

describeWithEdfiSource('claim sets as the ODS 7.3 security scripts build them', () => {
  describePostgres('replayed on PostgreSQL', () => {
    const database = `edfi_claims_oracle_${randomBytes(6).toString('hex')}`;
    const databaseUrl = Object.assign(new URL(POSTGRES_TEST_URL), { pathname: `/${database}` }).toString();
    /** `claim set|ODS claim|action` → the strategies; claim set names. */
    const expected = new Map<string, string[]>();
    let claimSets: string[] = [];
    let odsClaims = new Set<string>();

    beforeAll(async () => {
      await withConnection((client) => client.query(`CREATE DATABASE ${database}`));
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        client.on('notice', () => undefined);
        for (const sql of scripts()) await client.query(sql);
        const rows = (
          await client.query<{ claimSet: string; claimName: string; action: string; strategies: string[] }>(
            EFFECTIVE_GRANTS,
          )
        ).rows;
        for (const row of rows) expected.set(`${row.claimSet}|${row.claimName}|${row.action}`, row.strategies);
        claimSets = (await client.query<{ name: string }>('SELECT claimsetname AS name FROM dbo.claimsets')).rows.map(
          (row) => row.name,
        );
        odsClaims = new Set(
          (await client.query<{ name: string }>('SELECT claimname AS name FROM dbo.resourceclaims')).rows.map(
            (row) => row.name,
          ),
        );
      } finally {
        await client.end();
      }
    }, 120_000);

    afterAll(
      () => withConnection((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)),
      60_000,
    );

    /** The ODS name of a resource's claim: the legacy form without `ed-fi/`, or the newer one with it. */
    function odsClaimOf(resource: ResourceModel): string {
      const legacy = odsClaimUri(resource.resourceClaim);
      const newer = resource.resourceClaim.replace('http://ed-fi.org/identity/', 'http://ed-fi.org/ods/identity/');
      const found = [legacy, newer].find((name) => odsClaims.has(name));
      if (found === undefined) throw new Error(`${resource.endpoint}: no ODS claim ${legacy} or ${newer}`);
      return found;
    }

    it('ships the twelve ODS claim sets', () => {
      expect(claimSets.sort()).toEqual([
        'AB Connect',
        'Assessment Read',
        'Assessment Vendor',
        'Bootstrap Descriptors and EdOrgs',
        'District Hosted SIS Vendor',
        'Ed-Fi API Publisher - Reader',
        'Ed-Fi API Publisher - Writer',
        'Ed-Fi Sandbox',
        'Education Preparation Program',
        'Finance Vendor',
        'Roster Vendor',
        'SIS Vendor',
      ]);
    });

    it('grants every claim set × ed-fi resource × action the strategies of the replayed database', () => {
      const resources = getModelRegistry().allResources.filter((resource) => resource.namespace === 'ed-fi');
      let granted = 0;
      for (const claimSet of claimSets) {
        const policy = claimSetPolicy(claimSet);
        for (const resource of resources) {
          const claim = odsClaimOf(resource);
          for (const action of ACTIONS) {
            const outcome = policy.check(resource, action);
            const strategies = expected.get(`${claimSet}|${claim}|${action}`);
            const label = `${claimSet} ${resource.endpoint} ${action}`;
            expect(outcome.granted ? [...outcome.strategies].sort() : undefined, label).toEqual(strategies);
            if (strategies !== undefined) granted++;
          }
        }
      }
      expect(granted).toBeGreaterThan(1000);
    });

    it('adds the inverted hierarchy to Read on courses, programs and charts of accounts (2130)', () => {
      for (const endpoint of ['courses', 'programs', 'chartOfAccounts']) {
        const resource = getModelRegistry().getResource('ed-fi', endpoint)!;
        expect(expected.get(`Ed-Fi Sandbox|${odsClaimOf(resource)}|Read`), endpoint).toEqual([
          'RelationshipsWithEdOrgsAndPeople',
          'RelationshipsWithEdOrgsAndPeopleInverted',
        ]);
      }
    });
  });
});
