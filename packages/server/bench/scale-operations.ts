// The operations the scale benchmark times over HTTP against one running server of a generated state: reads by id
// and by filter, first pages with Total-Count for three clients, the change feed, partitioned reads in 8 processes,
// association writes, a cascading key change and /deletes. Each returns the figures of one round.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { call } from './http.js';
import { sweepFilters } from './scale-filters.js';
import { median } from './statistics.js';

export interface Tokens {
  /**
   * Relationship-based, the SEA: sees and may write everything. No claim set reads attendance without relationships
   * (the ODS's own claim sets), so this is the state-wide reader a hub serves.
   */
  readonly sea: string;
  /** The nightly reader of change feeds, partitions and /deletes (Ed-Fi API Publisher - Reader), the SEA. */
  readonly publisher: string;
  /** Relationship-based, one LEA: the state's first, whose rows come first in doc_id order. */
  readonly lea: string;
  /** Relationship-based, one school: the state's first. */
  readonly school: string;
  /** Relationship-based, the state's last LEA, whose rows come after every other LEA's. */
  readonly lastLea: string;
  /** Relationship-based, the state's last school. */
  readonly lastSchool: string;
  /**
   * Reads the measured resources with NoFurtherAuthorizationRequired (a claim set the benchmark imports): the count
   * without authorization that the scoped clients' counts are compared with.
   */
  readonly unauthorized: string;
}

/** What requests pick from at random: values read once through the API. */
export interface Samples {
  /** The school the school-scoped client is for, where new enrolments go. */
  readonly schoolId: number;
  readonly attendanceIds: readonly string[];
  readonly students: readonly { studentUniqueId: string; birthDate: string }[];
  readonly schoolNames: readonly string[];
  readonly sectionIds: readonly string[];
}

export interface Target {
  readonly url: string;
  readonly tokens: Tokens;
  readonly samples: Samples;
  readonly round: number;
}

/** One figure of a round, under its metric's name. */
export type Figures = Map<string, number>;

const DATA = '/data/v3/ed-fi';
const ATTENDANCE = `${DATA}/studentSchoolAttendanceEvents`;
const PAGE = 500;
const READERS = 8;

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

function randomOf<T>(values: readonly T[]): T {
  const value = values[Math.floor(Math.random() * values.length)];
  if (value === undefined) throw new Error('Nothing to pick from');
  return value;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Latencies of `count` requests one after another. */
async function latencies(count: number, request: () => Promise<unknown>): Promise<number[]> {
  const measured: number[] = [];
  for (let index = 0; index < count; index++) measured.push(await timed(request));
  return measured;
}

function record(figures: Figures, name: string, measured: readonly number[], withP99 = false): void {
  figures.set(`${name}, p50 ms`, median(measured));
  if (withP99) figures.set(`${name}, p99 ms`, percentile(measured, 0.99));
}

const get = (target: Target, path: string, token = target.tokens.sea) => call(target, token, 'GET', path);

async function reads(target: Target, figures: Figures): Promise<void> {
  const { samples } = target;
  record(
    figures,
    'GET by id',
    await latencies(200, () => get(target, `${ATTENDANCE}/${randomOf(samples.attendanceIds)}`)),
  );
  const student = () => randomOf(samples.students);
  record(
    figures,
    'list, identity filter (attendance by studentUniqueId)',
    await latencies(100, () => get(target, `${ATTENDANCE}?studentUniqueId=${student().studentUniqueId}&limit=25`)),
    true,
  );
  record(
    figures,
    'list, non-key filter (students by birthDate)',
    await latencies(100, () => get(target, `${DATA}/students?birthDate=${student().birthDate}&limit=25`)),
    true,
  );
  record(
    figures,
    'list, inherited filter (schools by nameOfInstitution)',
    await latencies(100, () =>
      get(target, `${DATA}/schools?nameOfInstitution=${encodeURIComponent(randomOf(samples.schoolNames))}&limit=25`),
    ),
    true,
  );
  await totalCounts(target, figures);
}

/** Each scoped client by the scope its figures name. */
const SCOPED_CLIENTS = {
  sea: 'SEA',
  lea: 'LEA',
  school: 'SCHOOL',
  lastLea: 'last LEA',
  lastSchool: 'last SCHOOL',
} as const satisfies Partial<Record<keyof Tokens, string>>;

/**
 * First page with Total-Count for each scoped client and the unauthorized one, and each scoped ÷ unauthorized. The
 * first and the last LEA and school: a page's cost must not depend on where the client's rows lie.
 */
async function totalCounts(target: Target, figures: Figures): Promise<void> {
  const firstPage = (token: string) =>
    latencies(20, () => get(target, `${ATTENDANCE}?limit=25&totalCount=true`, token));
  const unauthorized = median(await firstPage(target.tokens.unauthorized));
  figures.set('first page + Total-Count of attendance, unauthorized client, p50 ms', unauthorized);
  for (const [client, scope] of Object.entries(SCOPED_CLIENTS)) {
    const measured = await firstPage(target.tokens[client as keyof typeof SCOPED_CLIENTS]);
    record(figures, `first page + Total-Count of attendance, ${scope}-scoped client`, measured);
    figures.set(`Total-Count, ${scope}-scoped ÷ unauthorized`, median(measured) / unauthorized);
  }
}

/** The whole attendance change feed, minChangeVersion 0 to the newest, in pages of 500 by offset. */
async function changeFeed(target: Target, figures: Figures): Promise<void> {
  const available = (await (await get(target, '/changeQueries/v1/availableChangeVersions')).json()) as {
    newestChangeVersion: number;
  };
  let items = 0;
  const ms = await timed(async () => {
    for (let offset = 0; ; offset += PAGE) {
      const range = `minChangeVersion=0&maxChangeVersion=${available.newestChangeVersion}`;
      const page = (await (
        await get(target, `${ATTENDANCE}?${range}&limit=${PAGE}&offset=${offset}`, target.tokens.publisher)
      ).json()) as unknown[];
      items += page.length;
      if (page.length < PAGE) break;
    }
  });
  figures.set('full change-feed read of attendance, µs/item', (ms * 1000) / items);
}

interface ReaderResult {
  readonly items: number;
  readonly started: number;
  readonly ended: number;
}

/** Readers in processes of their own, each given some of the partitions; items/s from the first start to the last end. */
async function readPartitions(target: Target, tokensPerReader: readonly string[][]): Promise<number> {
  const script = fileURLToPath(new URL('./partition-reader.ts', import.meta.url));
  const readers = tokensPerReader.map((pageTokens) =>
    spawn(
      process.execPath,
      ['--import', 'tsx', script, `${target.url}${ATTENDANCE}`, target.tokens.publisher, ...pageTokens],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    ),
  );
  const lines = readers.map((reader) => createInterface({ input: reader.stdout })[Symbol.asyncIterator]());
  for (const line of lines) await line.next();
  for (const reader of readers) reader.stdin.write('go\n');
  const results = await Promise.all(
    lines.map(async (line) => JSON.parse(String((await line.next()).value)) as ReaderResult),
  );
  const items = results.reduce((sum, result) => sum + result.items, 0);
  const seconds =
    (Math.max(...results.map((result) => result.ended)) - Math.min(...results.map((result) => result.started))) / 1000;
  return items / seconds;
}

async function partitions(target: Target, figures: Figures): Promise<void> {
  const response = await get(target, `${ATTENDANCE}/partitions?number=${READERS}`, target.tokens.publisher);
  const { pageTokens } = (await response.json()) as { pageTokens: string[] };
  const one = await readPartitions(target, [pageTokens]);
  const eight = await readPartitions(
    target,
    pageTokens.map((token) => [token]),
  );
  figures.set('partitioned read of attendance, 1 process, items/s', one);
  figures.set(`partitioned read of attendance, ${READERS} processes, items/s`, eight);
}

/** POST new enrolments (a new entry date each round) of random students, then PUT each of them changed. */
async function associationWrites(target: Target, figures: Figures): Promise<void> {
  const students = [...target.samples.students].sort(() => Math.random() - 0.5).slice(0, 100);
  const entryDate = new Date(Date.UTC(2026, 0, 10 + target.round)).toISOString().slice(0, 10);
  const body = (studentUniqueId: string, primarySchool: boolean) => ({
    studentReference: { studentUniqueId },
    schoolReference: { schoolId: target.samples.schoolId },
    entryDate,
    entryGradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade',
    primarySchool,
  });
  const locations: string[] = [];
  const posts = await latencies(students.length, async () => {
    const student = students[locations.length]!;
    const response = await call(
      target,
      target.tokens.sea,
      'POST',
      `${DATA}/studentSchoolAssociations`,
      body(student.studentUniqueId, false),
    );
    locations.push(response.headers.get('location') ?? '');
  });
  let index = 0;
  const puts = await latencies(students.length, async () => {
    const student = students[index]!;
    const id = locations[index++]!.split('/').pop()!;
    await call(
      target,
      target.tokens.sea,
      'PUT',
      `${DATA}/studentSchoolAssociations/${id}`,
      body(student.studentUniqueId, true),
    );
  });
  record(figures, 'POST studentSchoolAssociation', posts);
  record(figures, 'PUT studentSchoolAssociation', puts);
}

/** PUT a section with a new sectionIdentifier: the key change cascades to its enrolments, grades and attendance. */
async function cascades(target: Target, figures: Figures): Promise<void> {
  const measured: number[] = [];
  for (let index = 0; index < 5; index++) {
    const id = randomOf(target.samples.sectionIds);
    const section = (await (await get(target, `${DATA}/sections/${id}`)).json()) as Record<string, unknown>;
    delete section.id;
    delete section._etag;
    delete section._lastModifiedDate;
    const renamed = {
      ...section,
      sectionIdentifier: `${String(section.sectionIdentifier).split('~')[0]}~${target.round}-${index}`,
    };
    measured.push(await timed(() => call(target, target.tokens.sea, 'PUT', `${DATA}/sections/${id}`, renamed)));
  }
  record(figures, 'cascading key change (PUT section)', measured);
}

/** Each query field of the big resources as a filter: the slowest field's p99, and the fields above the goal logged. */
async function everyFilter(target: Target, figures: Figures, log: (line: string) => void): Promise<void> {
  const swept = await sweepFilters(
    async (path) => (await get(target, path)).json(),
    (path) => timed(async () => (await get(target, path)).text()),
  );
  const p99s = swept
    .map(({ filter, milliseconds }) => ({ filter, p99: percentile(milliseconds, 0.99) }))
    .sort((a, b) => b.p99 - a.p99);
  figures.set('list, every query-field filter, slowest p99 ms', p99s[0]?.p99 ?? 0);
  figures.set('list, every query-field filter, median p99 ms', median(p99s.map(({ p99 }) => p99)));
  log(
    `      ${swept.length} filters; slowest: ${p99s
      .slice(0, 3)
      .map(({ filter, p99 }) => `${filter} ${p99.toFixed(1)} ms`)
      .join(', ')}`,
  );
}

async function deletes(target: Target, figures: Figures): Promise<void> {
  const path = `${DATA}/studentSectionAttendanceEvents/deletes?limit=${PAGE}&totalCount=true`;
  record(
    figures,
    '/deletes first page + Total-Count',
    await latencies(20, () => get(target, path, target.tokens.publisher)),
  );
}

const STEPS: readonly [string, (target: Target, figures: Figures, log: (line: string) => void) => Promise<void>][] = [
  ['reads', reads],
  ['every filter', everyFilter],
  ['change feed', changeFeed],
  ['partitioned reads', partitions],
  ['association writes', associationWrites],
  ['cascading key changes', cascades],
  ['/deletes', deletes],
];

/** The operations a run can leave out (`--skip`), by the names its log shows. */
export const OPERATION_NAMES: readonly string[] = STEPS.map(([name]) => name);

/** Every operation once but the skipped ones; `log` hears each step's wall time. */
export async function measureOperations(
  target: Target,
  log: (line: string) => void,
  skipped: ReadonlySet<string> = new Set(),
): Promise<Figures> {
  const figures: Figures = new Map();
  for (const [name, step] of STEPS)
    if (!skipped.has(name))
      log(`    ${name}: ${((await timed(() => step(target, figures, log))) / 1000).toFixed(1)} s`);
  return figures;
}
