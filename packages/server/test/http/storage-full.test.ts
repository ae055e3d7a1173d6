// Disk full (issue 14, defect 5): 503 with a problem body, one log line per episode, and serving again once space is
// freed, without a restart. The store under test fails its writes with the driver's own disk-full errors.
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createEdFiApp } from '../../src/http/app.js';
import { allowEveryAction } from '../../src/api/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { studentDocument } from '../support/documents.js';
import { DATA_PATH, issueToken } from '../support/edfi-server.js';

/** A store whose writes fail with `failure()` while `full` is set. */
function fillableStore(store: Store, failure: () => Error): { store: Store; full: { value: boolean } } {
  const full = { value: false };
  const wrapped = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (name !== 'upsert' || typeof value !== 'function')
        return typeof value === 'function' ? value.bind(target) : value;
      return (...args: unknown[]) =>
        full.value ? Promise.reject(failure()) : (value as (...a: unknown[]) => unknown).apply(target, args);
    },
  });
  return { store: wrapped, full };
}

const failures: Record<string, () => Error> = {
  'SQLite (SQLITE_FULL)': () => new Database.SqliteError('database or disk is full', 'SQLITE_FULL'),
  'PostgreSQL (53100 disk_full)': () => {
    const error = new pg.DatabaseError('could not extend file: No space left on device', 0, 'error');
    error.code = '53100';
    return error;
  },
};

let store: Store | undefined;
afterEach(() => store?.close());

describe.each(Object.entries(failures))('a full disk: %s', (_name, failure) => {
  it('answers 503 with a problem body, logs once per episode and recovers without a restart', async () => {
    store = await openStore('sqlite::memory:');
    const errors: unknown[][] = [];
    const logger = { info: () => undefined, warn: () => undefined, error: (...args: unknown[]) => errors.push(args) };
    const fillable = fillableStore(store, failure);
    const app = await createEdFiApp({ store: fillable.store, logger, authorize: allowEveryAction });
    const token = await issueToken(app, store);
    const post = (studentUniqueId: string) =>
      app.inject({
        method: 'POST',
        url: `${DATA_PATH}/ed-fi/students`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...studentDocument, studentUniqueId }),
      });

    fillable.full.value = true;
    for (const id of ['1', '2', '3']) {
      const response = await post(id);
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('30');
      expect(response.json()).toMatchObject({
        type: 'urn:ed-fi:api:service-unavailable:storage-full',
        title: 'Service Unavailable',
        status: 503,
      });
      expect(response.body).not.toContain(' at ');
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]![0]).toContain('storage full');

    fillable.full.value = false;
    expect((await post('4')).status).toBe(201);
  });
});
