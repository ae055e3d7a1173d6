// Change-query workloads on a file store, through the HTTP app in process (`server.inject`, no socket): paging a
// 200,000-student collection by its partitions with 1 and with 8 readers in parallel, and the wall time of a Section
// key change that cascades to 2,000 StudentSectionAssociations.
// Run: `npx tsx packages/server/bench/changes.ts [students] [enrolments]` from the repository root.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResourceModel } from '../src/model/index.js';
import type { Store } from '../src/store/store.js';
import { documentWrite } from '../test/store/document-writes.js';
import {
  course,
  courseOffering,
  resources,
  school,
  schoolYearType,
  section,
  seedSampleDescriptors,
  session,
  student,
  studentSectionAssociation,
  algebraSection,
} from '../test/store/sample-documents.js';
import { startEdFiServer, type EdFiTestServer } from '../test/support/edfi-server.js';

const STUDENTS = Number(process.argv[2] ?? 200_000);
const ENROLMENTS = Number(process.argv[3] ?? 2_000);
const PAGE_SIZE = 500;
const SCHOOL_ID = 100;
const algebra = algebraSection(SCHOOL_ID);

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await work();
  return { result, ms: performance.now() - start };
}

async function insertAll(store: Store, resource: ResourceModel, bodies: Iterable<Record<string, unknown>>) {
  for (const body of bodies) await store.upsert(documentWrite(resource, body));
}

function* students(count: number, prefix: string): Iterable<Record<string, unknown>> {
  for (let index = 0; index < count; index++) yield student(`${prefix}${index}`);
}

/** Reads one partition to its end with pageToken + pageSize; returns the items read. */
async function readPartition(app: EdFiTestServer, token: string): Promise<number> {
  let items = 0;
  for (let next: string | undefined = token; next !== undefined;) {
    const response = await app.data('GET', `/ed-fi/students?pageToken=${next}&pageSize=${PAGE_SIZE}`);
    if (response.status !== 200) throw new Error(`Page failed: ${response.status} ${response.body}`);
    items += response.json<unknown[]>().length;
    next = response.headers['next-page-token'];
  }
  return items;
}

async function pageWithReaders(app: EdFiTestServer, readers: number): Promise<{ ms: number; items: number }> {
  const { result, ms } = await timed(async () => {
    const response = await app.data('GET', `/ed-fi/students/partitions?number=${readers}`);
    const { pageTokens } = response.json<{ pageTokens: string[] }>();
    const counts = await Promise.all(pageTokens.map((token) => readPartition(app, token)));
    return counts.reduce((sum, count) => sum + count, 0);
  });
  return { ms, items: result };
}

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'bench-changes-'));
  const app = await startEdFiServer({ store: `sqlite:${join(directory, 'store.db')}`, seed: false });
  try {
    const { store } = app;
    await seedSampleDescriptors(store);
    const setup = await timed(() => insertAll(store, resources.students, students(STUDENTS, 'p')));
    console.log(`setup: ${STUDENTS} students through the store in ${(setup.ms / 1000).toFixed(1)} s`);

    const rows: string[][] = [];
    for (const readers of [1, 8, 1, 8]) {
      const { ms, items } = await pageWithReaders(app, readers);
      if (items !== STUDENTS) throw new Error(`Read ${items} of ${STUDENTS} students`);
      rows.push([
        `page ${STUDENTS} students, ${readers} partition reader(s)`,
        ms.toFixed(0),
        (items / (ms / 1000)).toFixed(0),
      ]);
    }

    for (const [resource, body] of [
      [resources.schoolYearTypes, schoolYearType(2022)],
      [resources.schools, school(SCHOOL_ID)],
      [resources.sessions, session(SCHOOL_ID, 'Fall')],
      [resources.courses, course('ALG-1', SCHOOL_ID)],
      [resources.courseOfferings, courseOffering(algebra)],
    ] as const)
      await store.upsert(documentWrite(resource, body));
    const sectionOutcome = await store.upsert(documentWrite(resources.sections, section(algebra)));
    const enrolled = [...students(ENROLMENTS, 'p')].map((body) => String(body.studentUniqueId));
    await insertAll(
      store,
      resources.studentSectionAssociations,
      enrolled.map((studentUniqueId) => studentSectionAssociation(studentUniqueId, algebra)),
    );
    const before = await store.newestChangeVersion();
    const { result: put, ms: putMs } = await timed(() =>
      app.data('PUT', `/ed-fi/sections/${sectionOutcome.id}`, {
        body: section({ ...algebra, sectionIdentifier: 'ALG-1-02' }),
      }),
    );
    if (put.status !== 204) throw new Error(`Key change failed: ${put.status} ${put.body}`);
    const changed = await store.keyChanges(resources.studentSectionAssociations, {
      changeVersions: { min: before + 1 },
      offset: 0,
      limit: 0,
      totalCount: true,
    });
    if (changed.totalCount !== ENROLMENTS) throw new Error(`${changed.totalCount} key changes, not ${ENROLMENTS}`);
    rows.push([`Section key change cascading to ${ENROLMENTS} enrolments (PUT wall time)`, putMs.toFixed(0), '–']);

    console.log(`\n${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, inject (no socket)\n`);
    console.log('| workload | ms | items/s |\n| --- | ---: | ---: |');
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  } finally {
    await app.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

await main();
