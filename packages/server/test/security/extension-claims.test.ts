// An extension folder's own claims.json decides how its resources are authorized: the Garden folder (written by the
// test) grants the Ed-Fi Sandbox claim set its plots under RelationshipsWithEdOrgsOnly, replacing the default
// NoFurtherAuthorizationRequired domain, so once `extensions add` has taken the folder in, a school's client reads and
// writes its own school's plots and gets the relationship 403 for another school's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { InjectResponse } from '@edfi-api/framework';
import { addExtensions } from '../../src/setup/served-extensions.js';
import { localEducationAgency, school } from '../support/district-documents.js';
import { describeEachStore } from '../support/each-store.js';
import { issueToken, startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { writeGardenExtension } from '../support/garden-extension.js';
import { systemPost } from '../support/system-writes.js';

const folder = mkdtempSync(path.join(tmpdir(), 'edfi-extension-claims-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const RELATIONSHIPS = 'RelationshipsWithEdOrgsOnly';
const ACTIONS = ['Create', 'Read', 'Update', 'Delete'] as const;
const CLAIMS = {
  hierarchy: [
    {
      name: 'http://ed-fi.org/identity/claims/domains/garden',
      claimSets: { 'Ed-Fi Sandbox': Object.fromEntries(ACTIONS.map((action) => [action, []])) },
      children: [
        {
          name: 'http://ed-fi.org/identity/claims/domains/garden/relationshipBasedData',
          defaultAuthorization: Object.fromEntries(ACTIONS.map((action) => [action, [RELATIONSHIPS]])),
          children: [{ name: 'http://ed-fi.org/identity/claims/garden/plot' }],
        },
      ],
    },
  ],
};

function gardenWithClaims(): string {
  const at = writeGardenExtension(path.join(folder, 'garden'));
  writeFileSync(path.join(at, 'claims.json'), JSON.stringify(CLAIMS));
  return at;
}

const plot = (plotCode: string, schoolId: number) => ({ plotCode, schoolReference: { schoolId }, areaSquareMeters: 4 });

/** Migrating a PostgreSQL schema for the added extension takes several seconds on a loaded machine. */
const SETUP_TIMEOUT_MS = 120_000;

describeEachStore('an extension folder’s claims.json granting a relationship-based strategy', (stores) => {
  let edfi: EdFiTestServer;
  let schoolClient: string;
  const plotIds: string[] = [];

  const send = (method: string, where: string, body?: unknown): Promise<InjectResponse> =>
    edfi.data(method, `/garden/plots${where}`, { body, headers: { authorization: `Bearer ${schoolClient}` } });

  beforeAll(async () => {
    const spec = await stores.newSpec({ shared: true });
    await addExtensions(spec, [gardenWithClaims()]);
    edfi = await startEdFiServer({ store: spec, enforceAuthorization: true, extensions: ['garden'] });
    const post = (endpoint: string, document: object) => systemPost(edfi.store, edfi.registry, endpoint, document);
    for (const [lea, schoolId] of [
      [100, 1001],
      [200, 2001],
    ] as const) {
      await post('localEducationAgencies', localEducationAgency(lea));
      await post('schools', school(schoolId, lea));
      plotIds.push(await post('garden/plots', plot(`P-${schoolId}`, schoolId)));
    }
    schoolClient = await issueToken(edfi.server, edfi.store, {
      claimSet: 'Ed-Fi Sandbox',
      educationOrganizationIds: [1001],
    });
  }, SETUP_TIMEOUT_MS);
  afterAll(() => edfi.close());

  it('lists and reads the school’s own plots only', async () => {
    const listed = await send('GET', '');
    expect(listed.status, listed.body).toBe(200);
    expect(listed.json<{ plotCode: string }[]>().map((item) => item.plotCode)).toEqual(['P-1001']);
    expect((await send('GET', `/${plotIds[0]!}`)).status).toBe(200);
    const other = await send('GET', `/${plotIds[1]!}`);
    expect(other.status).toBe(403);
    expect(other.json()).toMatchObject({
      type: 'urn:ed-fi:api:security:authorization',
      errors: [
        "No relationships have been established between the caller's education organization id claim (1001) and " +
          "the resource item's 'SchoolId' value.",
      ],
    });
  });

  it('writes inside the school and refuses writes of another school’s plots', async () => {
    expect((await send('POST', '', plot('P-new', 1001))).status).toBe(201);
    expect((await send('POST', '', plot('P-new', 2001))).status).toBe(403);
    expect((await send('PUT', `/${plotIds[1]!}`, { ...plot('P-2001', 2001), areaSquareMeters: 9 })).status).toBe(403);
    expect((await send('DELETE', `/${plotIds[1]!}`)).status).toBe(403);
    expect((await send('DELETE', `/${plotIds[0]!}`)).status).toBe(204);
  });
});
