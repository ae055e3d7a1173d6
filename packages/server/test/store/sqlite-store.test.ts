// The SQLite store: the conformance suite in memory and on disk, plus what only SQLite has (files, schema migration,
// several connections on one file, crash recovery).
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';
import { createStore, openStore, StoreError, type StoreOptions } from '../../src/store/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tableLayoutOf } from '../../src/store/relational/table-layout.js';
import { descriptorExists } from '../support/descriptor-values.js';
import { describeStoreConformance, type StoreUnderTest } from './conformance.js';
import { documentWrite } from './document-writes.js';
import {
  resources,
  school,
  seedSampleDescriptors,
  student,
  studentSchoolAssociation,
  uri,
} from './sample-documents.js';

const everything = { filters: [], offset: 0, limit: 500, totalCount: true };

interface WriterProcess {
  readonly child: ChildProcess;
  /** Resolves once the process has printed `text`; rejects if it exits first. */
  printed(text: 'ready' | 'done'): Promise<void>;
  readonly exited: Promise<unknown>;
}

function writerProcess(file: string, prefix: string, count?: number): WriterProcess {
  const script = fileURLToPath(new URL('document-writer-process.ts', import.meta.url));
  const args = ['--import', 'tsx', script, file, prefix, ...(count === undefined ? [] : [String(count)])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  async function printed(text: string): Promise<void> {
    while (!output.includes(text)) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`The writer exited before ${text}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return { child, printed, exited };
}

/** Checks the file as SQLite sees it: integrity, foreign keys, and a resource row for every registered document. */
function expectConsistentFile(file: string, associationCount: number, killedWriters: number): void {
  const db = new Database(file, { readonly: true });
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  expect(db.pragma('foreign_key_check')).toEqual([]);
  const resourceIds = new Map(
    db
      .prepare<[], { resource_id: number; namespace: string; endpoint: string }>(
        'SELECT resource_id, namespace, endpoint FROM resource_type',
      )
      .all()
      .map((row) => [`${row.namespace}/${row.endpoint}`, row.resource_id]),
  );
  const written = [resources.schools, resources.students, resources.studentSchoolAssociations];
  for (const resource of [...written, ...getModelRegistry().descriptorResources]) {
    const layout = tableLayoutOf(resource);
    const resourceId = resourceIds.get(`${resource.namespace}/${resource.endpoint}`);
    const registered = db.prepare('SELECT count(*) FROM document WHERE resource_id = ?').pluck().get(resourceId);
    const scope = layout.shared ? ` WHERE resource_id = ${resourceId}` : '';
    expect(db.prepare(`SELECT count(*) FROM ${layout.table}${scope}`).pluck().get(), resource.endpoint).toBe(
      registered,
    );
  }
  const students = db
    .prepare(`SELECT count(*) FROM ${tableLayoutOf(resources.students).table}`)
    .pluck()
    .get();
  // A writer stores a student, then its association: each killed writer leaves at most one student ahead.
  expect(Number(students)).toBeGreaterThanOrEqual(associationCount);
  expect(Number(students)).toBeLessThanOrEqual(associationCount + killedWriters);
  db.close();
}

function temporaryDirectory(): string {
  return mkdtempSync(join(tmpdir(), 'sqlite-store-'));
}

async function fileStore(directory = temporaryDirectory(), options?: StoreOptions): Promise<StoreUnderTest> {
  const file = join(directory, 'store.db');
  let current = new SqliteStore(file, undefined, options);
  await current.migrate();
  await current.open();
  return {
    store: current,
    reopen: async () => {
      await current.close();
      current = new SqliteStore(file);
      await current.open();
      return current;
    },
    dispose: async () => {
      await current.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

describeStoreConformance('SQLite in memory', async (options) => {
  const store = new SqliteStore(':memory:', undefined, options);
  await store.migrate();
  await store.open();
  return { store, dispose: () => store.close() };
});

describeStoreConformance('SQLite file', (options) => fileStore(undefined, options));

describe('SQLite store', () => {
  let directory: string;
  const open: SqliteStore[] = [];

  async function opened(file: string): Promise<SqliteStore> {
    const store = new SqliteStore(file);
    await store.migrate();
    await store.open();
    open.push(store);
    return store;
  }

  beforeEach(() => {
    directory = temporaryDirectory();
  });
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('opens the stores a spec names and rejects others', async () => {
    const memory = await openStore('sqlite::memory:');
    expect(await memory.isEmpty()).toBe(true);
    await memory.close();
    const file = join(directory, 'spec.db');
    const onDisk = await openStore(`sqlite:${file}`);
    await onDisk.close();
    expect(existsSync(file)).toBe(true);
    expect(() => createStore('mysql://localhost/db')).toThrow(/Unsupported store spec/);
    expect(() => createStore('sqlite:')).toThrow(/names no file/);
  });

  it('leaves a complete database in the main file after close', async () => {
    const file = join(directory, 'main.db');
    const store = await opened(file);
    await seedSampleDescriptors(store);
    const outcome = await store.upsert(documentWrite(resources.schools, school(7)));
    await store.close();
    open.pop();
    expect(existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0).toBe(0);
    const copy = join(directory, 'copy.db');
    copyFileSync(file, copy);
    const reopened = await opened(copy);
    expect(await reopened.get(resources.schools, outcome.id)).toBeDefined();
  });

  it('tells empty, current and outdated schemas apart, and opens only a current one', async () => {
    const file = join(directory, 'schema.db');
    const fresh = new SqliteStore(file);
    expect(await fresh.schemaStatus()).toBe('empty');
    await expect(fresh.open()).rejects.toMatchObject({ name: 'StoreSchemaError', status: 'empty' });
    expect(await fresh.migrate()).toBe('created');
    expect(await fresh.schemaStatus()).toBe('current');
    expect(await fresh.migrate()).toBe('current');
    await fresh.open();
    await fresh.close();

    const db = new Database(file);
    db.prepare("UPDATE meta SET value = 'older model' WHERE key = 'schema_fingerprint'").run();
    db.exec('DROP INDEX r_edfi_schools_change_version');
    db.close();
    const older = new SqliteStore(file);
    expect(await older.schemaStatus()).toBe('outdated');
    await expect(older.open()).rejects.toMatchObject({ name: 'StoreSchemaError', status: 'outdated' });
    await older.close();
    await expect(openStore(`sqlite:${file}`)).rejects.toMatchObject({ status: 'outdated' });
    const migrated = await openStore(`sqlite:${file}`, undefined, { migrate: true });
    expect(await migrated.schemaStatus()).toBe('current');
    await migrated.close();
  });

  it('migrates a new database once when several processes start together', async () => {
    const file = join(directory, 'racing.db');
    const stores = [new SqliteStore(file), new SqliteStore(file), new SqliteStore(file)];
    const outcomes = await Promise.all(stores.map((store) => store.migrate()));
    expect(outcomes.sort()).toEqual(['created', 'current', 'current']);
    for (const store of stores) {
      await store.open();
      open.push(store);
    }
    await stores[0]!.upsert(documentWrite(resources.students, student('raced')));
    expect((await stores[2]!.list(resources.students, everything)).totalCount).toBe(1);
  });

  it('refuses to migrate a table that no longer matches the model', async () => {
    const file = join(directory, 'tampered.db');
    await (await opened(file)).close();
    open.pop();
    const tampered = new Database(file);
    tampered.prepare("UPDATE meta SET value = 'older model' WHERE key = 'schema_fingerprint'").run();
    tampered.exec(`DROP TABLE ${tableLayoutOf(resources.students).table}`);
    tampered.exec(`CREATE TABLE ${tableLayoutOf(resources.students).table} (doc_id INTEGER PRIMARY KEY)`);
    tampered.close();
    const store = new SqliteStore(file);
    await expect(store.migrate()).rejects.toThrow(/does not match this model/);
    await store.close();
  });

  it("answers a document's descriptor URIs at once: loaded ones from memory, another connection's from the file", async () => {
    const file = join(directory, 'batched.db');
    const writer = await opened(file);
    await seedSampleDescriptors(writer);
    const other = await opened(file);
    const [namespace] = uri.ninthGrade.split('#') as [string];
    await writer.seedDescriptors(resources.gradeLevelDescriptors, [
      { namespace, codeValue: 'Eleventh grade', shortDescription: 'Eleventh' },
      { namespace, codeValue: 'Twelfth grade', shortDescription: 'Twelfth' },
    ]);
    const asked = [
      { namespace: 'ed-fi', descriptor: 'GradeLevelDescriptor', uri: uri.ninthGrade },
      { namespace: 'ed-fi', descriptor: 'GradeLevelDescriptor', uri: `${namespace}#Eleventh grade` },
      { namespace: 'ed-fi', descriptor: 'GradeLevelDescriptor', uri: `${namespace}#Twelfth grade`.toUpperCase() },
      { namespace: 'ed-fi', descriptor: 'GradeLevelDescriptor', uri: `${namespace}#Thirteenth grade` },
      { namespace: 'ed-fi', descriptor: 'SexDescriptor', uri: `${namespace}#Eleventh grade` },
      { namespace: 'ed-fi', descriptor: 'NotADescriptor', uri: uri.ninthGrade },
    ] as const;
    const expected = [true, true, true, false, false, false];
    expect(await other.descriptors.exist(asked)).toEqual(expected);
    expect(await other.descriptors.exist(asked)).toEqual(expected);
    expect(await other.descriptors.exist([])).toEqual([]);
  });

  it('sees descriptors another connection added, and survives ones it deleted or re-created', async () => {
    const file = join(directory, 'shared.db');
    const writer = await opened(file);
    await seedSampleDescriptors(writer);
    await writer.upsert(
      documentWrite(resources.schools, { ...school(1), gradeLevels: [{ gradeLevelDescriptor: uri.tenthGrade }] }),
    );
    await writer.upsert(documentWrite(resources.students, student('s1')));
    const other = await opened(file);
    expect(await descriptorExists(other, 'ed-fi', 'GradeLevelDescriptor', uri.ninthGrade)).toBe(true);

    const [namespace] = uri.ninthGrade.split('#') as [string];
    const added = { namespace, codeValue: 'Eleventh grade', shortDescription: 'Eleventh' };
    await writer.seedDescriptors(resources.gradeLevelDescriptors, [added]);
    expect(await descriptorExists(other, 'ed-fi', 'GradeLevelDescriptor', `${namespace}#Eleventh grade`)).toBe(true);

    const ninth = await writer.list(resources.gradeLevelDescriptors, {
      filters: [{ field: 'codeValue', value: 'Ninth grade' }],
      offset: 0,
      limit: 1,
      totalCount: false,
    });
    await writer.delete(resources.gradeLevelDescriptors, ninth.items[0]!.id);
    const association = documentWrite(resources.studentSchoolAssociations, studentSchoolAssociation('s1', 1));
    const error = await other.upsert(association).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).resourceNames).toEqual(['GradeLevelDescriptor']);

    await writer.seedDescriptors(resources.gradeLevelDescriptors, [
      { namespace, codeValue: 'Ninth grade', shortDescription: 'Ninth' },
    ]);
    expect((await other.upsert(association)).status).toBe('created');
    await writer.delete(
      resources.gradeLevelDescriptors,
      (
        await writer.list(resources.gradeLevelDescriptors, {
          filters: [{ field: 'codeValue', value: 'Eleventh grade' }],
          offset: 0,
          limit: 1,
          totalCount: false,
        })
      ).items[0]!.id,
    );
    await writer.seedDescriptors(resources.gradeLevelDescriptors, [added]);
    const eleventh = documentWrite(resources.studentSchoolAssociations, {
      ...studentSchoolAssociation('s1', 1, { entryDate: '2022-08-20' }),
      entryGradeLevelDescriptor: `${namespace}#Eleventh grade`,
    });
    expect((await other.upsert(eleventh)).status).toBe('created');
  });

  it('serializes writers in several processes on one file', async () => {
    const file = join(directory, 'shared-writers.db');
    const writers = ['a', 'b'].map((prefix) => writerProcess(file, prefix, 150));
    await Promise.all(writers.map(async (writer) => [await writer.printed('done'), await writer.exited]));
    const store = await opened(file);
    const listed = await store.list(resources.studentSchoolAssociations, everything);
    expect(listed.totalCount).toBe(300);
    const versions = listed.items.map((item) => item.changeVersion);
    expect(new Set(versions).size).toBe(versions.length);
    expect(await store.list(resources.schools, everything)).toMatchObject({ totalCount: 1 });
  }, 60_000);

  it('leaves no partial write behind when writing processes are killed', async () => {
    const file = join(directory, 'crash.db');
    for (const [round, delayMs] of [150, 300, 450].entries()) {
      const writer = writerProcess(file, `round${round}-`);
      await writer.printed('ready');
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      writer.child.kill('SIGKILL');
      await writer.exited;

      const store = await opened(file);
      const associations = await store.list(resources.studentSchoolAssociations, everything);
      expect(associations.totalCount).toBeGreaterThan(0);
      for (const item of associations.items) {
        const { studentReference } = JSON.parse(item.bodyJson) as { studentReference: { link: { href: string } } };
        expect(await store.get(resources.students, studentReference.link.href.split('/').pop()!)).toBeDefined();
      }
      await store.close();
      open.pop();
      expectConsistentFile(file, associations.totalCount!, round + 1);
    }
  }, 60_000);
});
