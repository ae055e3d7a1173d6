// Relationship-based authorization cost on GET lists, through the HTTP app in process (`server.inject`, no socket):
// StudentSchoolAssociations read by an LEA-scoped SIS Vendor client (RelationshipsWithEdOrgsAndPeople, half of the
// enrolments authorized) versus a NoFurtherAuthorizationRequired client, on a file store of N students in two LEAs.
// Run: `npx tsx packages/server/bench/authorization.ts [students]` from the repository root.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../src/store/store.js';
import { documentWrite, resourceNamed } from '../test/store/document-writes.js';
import { enrollment, localEducationAgency, school, student } from '../test/support/district-documents.js';
import { issueToken, startEdFiServer, type EdFiTestServer } from '../test/support/edfi-server.js';

const STUDENTS = Number(process.argv[2] ?? 50_000);
const PAGE_SIZE = 500;
const FIRST_PAGE_RUNS = 21;
const DISTRICTS = [
  { lea: 100, school: 1001 },
  { lea: 200, school: 2001 },
] as const;

async function seedDistricts(store: Store): Promise<void> {
  for (const { lea, school: schoolId } of DISTRICTS) {
    await store.upsert(documentWrite(resourceNamed('localEducationAgencies'), localEducationAgency(lea)));
    await store.upsert(documentWrite(resourceNamed('schools'), school(schoolId, lea)));
  }
}

/** Every student enrolled in one school, alternating between the two districts. */
async function seedStudents(store: Store): Promise<void> {
  const students = resourceNamed('students');
  const enrolments = resourceNamed('studentSchoolAssociations');
  for (let index = 0; index < STUDENTS; index++) {
    const studentUniqueId = `s${index}`;
    await store.upsert(documentWrite(students, student(studentUniqueId)));
    await store.upsert(documentWrite(enrolments, enrollment(studentUniqueId, DISTRICTS[index % 2]!.school)));
  }
}

async function get(app: EdFiTestServer, token: string, query: string) {
  const response = await app.server.inject({
    method: 'GET',
    url: `/v7.3/api/data/v3/ed-fi/studentSchoolAssociations?${query}`,
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.status !== 200) throw new Error(`GET failed: ${response.status} ${response.body}`);
  return response;
}

/** Client, first page ms, first page with Total-Count ms, full read ms. */
type Row = [string, number, number, number];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The median time of the first page, with or without its Total-Count. */
async function firstPageMs(
  app: EdFiTestServer,
  token: string,
  totalCount: boolean,
): Promise<{ ms: number; total: number }> {
  const times: number[] = [];
  let total = 0;
  for (let run = 0; run < FIRST_PAGE_RUNS; run++) {
    const start = performance.now();
    const response = await get(app, token, `limit=${PAGE_SIZE}&totalCount=${totalCount}`);
    times.push(performance.now() - start);
    total = Number(response.headers['total-count']);
  }
  return { ms: median(times), total };
}

/** Reads every authorized item by Next-Page-Token. */
async function fullReadMs(app: EdFiTestServer, token: string): Promise<{ ms: number; items: number }> {
  const start = performance.now();
  let items = 0;
  let query = `limit=${PAGE_SIZE}`;
  for (;;) {
    const response = await get(app, token, query);
    const page = response.json<unknown[]>();
    items += page.length;
    const next = response.headers['next-page-token'];
    if (page.length === 0 || next === undefined) break;
    query = `pageToken=${next}&pageSize=${PAGE_SIZE}`;
  }
  return { ms: performance.now() - start, items };
}

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'bench-authorization-'));
  const app = await startEdFiServer({ store: `sqlite:${join(directory, 'store.db')}`, enforceAuthorization: true });
  try {
    const setupStart = performance.now();
    await seedDistricts(app.store);
    await seedStudents(app.store);
    console.log(
      `setup: ${STUDENTS} students and enrolments through the store in ${((performance.now() - setupStart) / 1000).toFixed(1)} s`,
    );
    const scoped = await issueToken(app.server, app.store, { claimSet: 'SIS Vendor', educationOrganizationIds: [100] });
    const unrestricted = await issueToken(app.server, app.store, { claimSet: 'E2E-NoFurtherAuthRequiredClaimSet' });
    // Warm both plans (statement preparation, page cache) before timing.
    await firstPageMs(app, scoped, true);
    await firstPageMs(app, unrestricted, true);
    const rows: Row[] = [];
    for (const [name, token] of [
      ['LEA-scoped (RelationshipsWithEdOrgsAndPeople)', scoped],
      ['NoFurtherAuthorizationRequired', unrestricted],
    ] as const) {
      const page = await firstPageMs(app, token, false);
      const first = await firstPageMs(app, token, true);
      const full = await fullReadMs(app, token);
      rows.push([name, page.ms, first.ms, full.ms]);
      console.log(
        `${name}: first page ${page.ms.toFixed(1)} ms; with Total-Count ${first.ms.toFixed(1)} ms (total ${first.total}); ` +
          `full read ${full.items} items ${full.ms.toFixed(0)} ms (${((full.ms / full.items) * 1000).toFixed(1)} µs/item)`,
      );
    }
    const [scopedRow, openRow] = rows as [Row, Row];
    const ratio = (index: 1 | 2 | 3) => (scopedRow[index] / openRow[index]).toFixed(2);
    console.log(
      `ratio (scoped / unrestricted): first page ${ratio(1)}, with Total-Count ${ratio(2)}, full read ${ratio(3)}`,
    );
  } finally {
    await app.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

await main();
