// A generated state for the scale benchmark: the synthetic state of N students written into a new store (timed),
// its size on disk per document and against its JSON bodies, its API clients, the values requests pick from,
// and the deletions /deletes reads (10,000 by default), all done once before the measured rounds.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getModelRegistry } from '../src/model/index.js';
import { openDirectStoreTarget } from '../src/load/index.js';
import { createProgressDisplay } from '../src/load/progress/progress-display.js';
import { documentCount, stateDocumentGroups } from '../tools/generate-state/state-documents.js';
import { stateShape, type SchoolShape } from '../tools/generate-state/state-shape.js';
import { writeState } from '../tools/generate-state/write-state.js';
import { withPostgresClient, type BenchStore } from './bench-stores.js';
import { thisCheckout } from './checkouts.js';
import { call, tokenFor } from './http.js';
import type { Samples, Tokens } from './scale-operations.js';
import { runCli, startServer, type ServerProcess } from './server-process.js';

export interface PreparedState {
  readonly store: BenchStore;
  readonly spec: string;
  readonly students: number;
  readonly documents: number;
  readonly generationPerSecond: number;
  readonly storeBytesPerDocument: number;
  /** The generated documents' JSON text, bytes. */
  readonly bodiesBytes: number;
  readonly deleted: number;
  readonly clients: Record<keyof Tokens, { key: string; secret: string }>;
  readonly samples: Samples;
}

/** Where a state is and what preparing it needs. */
export interface StatePlace {
  readonly store: BenchStore;
  readonly spec: string;
  readonly students: number;
  /** The port of the server that samples the state and deletes from it. */
  readonly port: number;
  readonly deletes: number;
  readonly log: (line: string) => void;
}

const DATA = '/data/v3/ed-fi';
const PARALLEL_DELETES = 8;

/**
 * VACUUM ANALYZE of the state's tables on PostgreSQL, as autovacuum leaves a settled hub: straight after a bulk load
 * the planner has no statistics and the visibility map is empty, so every count (authorized or not) reads the heap.
 */
async function settle(store: BenchStore, spec: string): Promise<void> {
  if (store.kind !== 'postgres') return;
  const schema = new URL(spec).searchParams.get('schema') ?? 'public';
  await withPostgresClient(spec, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      "SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = $1",
      [schema],
    );
    for (const { name } of rows) await client.query(`VACUUM ANALYZE ${name}`);
  });
}

export async function storeBytes(store: BenchStore, spec: string): Promise<number> {
  if (store.kind === 'sqlite') {
    const file = spec.slice('sqlite:'.length);
    return [file, `${file}-wal`].reduce((sum, path) => sum + (statSync(path, { throwIfNoEntry: false })?.size ?? 0), 0);
  }
  const schema = new URL(spec).searchParams.get('schema') ?? 'public';
  return withPostgresClient(spec, async (client) => {
    const result = await client.query<{ bytes: string }>(
      'SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bytes FROM pg_class c ' +
        "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'",
      [schema],
    );
    return Number(result.rows[0]?.bytes ?? 0);
  });
}

/** The generated documents' JSON text as a client sends it (no id, etag or links), bytes. */
export function bodiesBytes(groups: ReturnType<typeof stateDocumentGroups>): number {
  let bytes = 0;
  for (const stream of groups.flat())
    for (const document of stream.documents()) bytes += JSON.stringify(document).length;
  return bytes;
}

/** The resources the benchmark reads, Read with NoFurtherAuthorizationRequired: what no shipped claim set grants. */
const UNAUTHORIZED_READER = {
  claimSets: [
    {
      name: 'Scale Benchmark Unauthorized Reader',
      resourceClaims: ['studentSchoolAttendanceEvent', 'student', 'school', 'section'].map((resource) => ({
        name: `http://ed-fi.org/identity/claims/ed-fi/${resource}`,
        actions: [{ name: 'Read', authorizationStrategyOverrides: ['NoFurtherAuthorizationRequired'] }],
      })),
    },
  ],
};

/** Imports the unauthorized reader's claim set into the store (`claim-sets import`); returns its name. */
function importUnauthorizedReader(spec: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'edfi-scale-claims-'));
  try {
    const file = path.join(folder, 'unauthorized-reader.json');
    writeFileSync(file, JSON.stringify(UNAUTHORIZED_READER));
    runCli(thisCheckout, ['claim-sets', 'import', file, '--store', spec]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return UNAUTHORIZED_READER.claimSets[0]!.name;
}

/** The SEA's clients, and those of the first and the last school of the state and of their LEAs. */
function createClients(spec: string, seaId: number, first: SchoolShape, last: SchoolShape): PreparedState['clients'] {
  // A run's own keys: a reused store holds an earlier run's clients.
  const run = randomBytes(3).toString('hex');
  const client = (name: string, claims: readonly string[]) => {
    const credentials = { key: `scale-${name}-${run}`, secret: randomBytes(24).toString('hex') };
    runCli(thisCheckout, [
      ...['clients', 'create', '--store', spec, '--key', credentials.key, '--secret', credentials.secret],
      ...claims,
    ]);
    return credentials;
  };
  return {
    sea: client('sea', ['--claim-set', 'SIS Vendor', '--edorg', String(seaId)]),
    publisher: client('publisher', ['--claim-set', 'Ed-Fi API Publisher - Reader', '--edorg', String(seaId)]),
    lea: client('lea', ['--claim-set', 'SIS Vendor', '--edorg', String(first.leaId)]),
    school: client('school', ['--claim-set', 'SIS Vendor', '--edorg', String(first.schoolId)]),
    lastLea: client('last-lea', ['--claim-set', 'SIS Vendor', '--edorg', String(last.leaId)]),
    lastSchool: client('last-school', ['--claim-set', 'SIS Vendor', '--edorg', String(last.schoolId)]),
    unauthorized: client('unauthorized', ['--claim-set', importUnauthorizedReader(spec), '--edorg', String(seaId)]),
  };
}

async function page<T>(server: ServerProcess, token: string, path: string): Promise<T[]> {
  return (await (await call(server, token, 'GET', path)).json()) as T[];
}

/** A page at a random offset of a collection of `count` items. */
function randomOffset(count: number): number {
  return Math.floor(Math.random() * Math.max(0, count - 500));
}

async function sampleOf(server: ServerProcess, token: string, students: number, schoolId: number): Promise<Samples> {
  const attendance = await page<{ id: string }>(
    server,
    token,
    `${DATA}/studentSchoolAttendanceEvents?limit=500&offset=${randomOffset(students * 10)}`,
  );
  const studentPage = await page<{ studentUniqueId: string; birthDate: string }>(
    server,
    token,
    `${DATA}/students?limit=500&offset=${randomOffset(students)}`,
  );
  const schools = await page<{ nameOfInstitution: string }>(server, token, `${DATA}/schools?limit=500`);
  const sections = await page<{ id: string }>(
    server,
    token,
    `${DATA}/sections?limit=500&offset=${randomOffset(students / 6)}`,
  );
  return {
    schoolId,
    attendanceIds: attendance.map((item) => item.id),
    students: studentPage.map(({ studentUniqueId, birthDate }) => ({ studentUniqueId, birthDate })),
    schoolNames: schools.map((item) => item.nameOfInstitution),
    sectionIds: sections.map((item) => item.id),
  };
}

/** The section attendance events deleted before (by an earlier run, on a reused store). */
async function deletedBefore(server: ServerProcess, token: string): Promise<number> {
  const response = await call(
    server,
    token,
    'GET',
    `${DATA}/studentSectionAttendanceEvents/deletes?limit=1&totalCount=true`,
  );
  return Number(response.headers.get('total-count') ?? 0);
}

/** Deletes up to `deletes` section attendance events (never more than half of them), 8 requests in flight. */
async function deleteEvents(server: ServerProcess, token: string, available: number, deletes: number): Promise<number> {
  const wanted = Math.min(deletes, Math.floor(available / 2));
  const ids: string[] = [];
  while (ids.length < wanted) {
    const items = await page<{ id: string }>(
      server,
      token,
      `${DATA}/studentSectionAttendanceEvents?limit=500&offset=${ids.length}`,
    );
    if (items.length === 0) throw new Error(`Only ${ids.length} section attendance events are readable`);
    ids.push(...items.slice(0, wanted - ids.length).map((item) => item.id));
  }
  const queue = [...ids];
  const worker = async () => {
    for (let id = queue.pop(); id !== undefined; id = queue.pop())
      await call(server, token, 'DELETE', `${DATA}/studentSectionAttendanceEvents/${id}`);
  };
  await Promise.all(Array.from({ length: PARALLEL_DELETES }, worker));
  return ids.length;
}

export async function prepareState(place: StatePlace): Promise<PreparedState> {
  const { store, spec, students, log } = place;
  const registry = getModelRegistry();
  const groups = stateDocumentGroups(stateShape(students, 1), registry);
  const { target } = await openDirectStoreTarget(spec, registry);
  let summary;
  try {
    summary = await writeState({ target, registry, groups, parallel: 64, progress: createProgressDisplay('auto') });
  } finally {
    await target.close();
  }
  if (summary.failed > 0) throw new Error(`Generation failed: ${summary.failures.join('\n')}`);
  log(`    generated ${summary.written} documents in ${summary.seconds.toFixed(1)} s`);
  await settle(store, spec);
  return readyState(place, {
    generationPerSecond: summary.written / summary.seconds,
    bodiesBytes: bodiesBytes(groups),
  });
}

/**
 * A state an earlier run generated (and was stopped after, its store kept): new clients, samples, and the deletions
 * if that run made none. Neither its generation rate nor its bodies' size is known (NaN): the bodies of the 1M state
 * take minutes to serialize again, and their size per document does not change with the state's.
 */
export async function reusedState(place: StatePlace): Promise<PreparedState> {
  return readyState(place, { generationPerSecond: NaN, bodiesBytes: NaN });
}

async function readyState(
  { store, spec, students, port, deletes, log }: StatePlace,
  generation: Pick<PreparedState, 'generationPerSecond' | 'bodiesBytes'>,
): Promise<PreparedState> {
  const shape = stateShape(students, 1);
  const documents = documentCount(stateDocumentGroups(shape, getModelRegistry()));
  const bytes = await storeBytes(store, spec);
  const school = shape.schools[0]!;
  const clients = createClients(spec, shape.seaId, school, shape.schools.at(-1)!);
  const server = await startServer({ cli: thisCheckout, store: spec, port, workers: 1 });
  try {
    const token = await tokenFor(server, clients.sea.key, clients.sea.secret);
    const samples = await sampleOf(server, token, students, school.schoolId);
    const before = await deletedBefore(server, await tokenFor(server, clients.publisher.key, clients.publisher.secret));
    log(`    sampled; ${before} section attendance events deleted before, deleting ${before > 0 ? 0 : deletes}`);
    const deleted = before > 0 ? before : await deleteEvents(server, token, students * 10, deletes);
    log(`    deleted ${deleted}`);
    return {
      store,
      spec,
      students,
      documents,
      ...generation,
      storeBytesPerDocument: bytes / documents,
      deleted,
      clients,
      samples,
    };
  } finally {
    await server.stop();
  }
}
