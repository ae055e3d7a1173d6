// A client that disconnects mid-request (issue 14, defect 6): logged as aborted (status 499 in the request log), not
// as an error with a stack, and the process keeps serving.
import type { ResponseEvent } from '@edfi-api/framework';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listener } from '../../src/cli/http-listener.js';
import { createEdFiApp } from '../../src/http/app.js';
import { openStore, type Store } from '../../src/store/index.js';
import { DATA_PATH, issueToken } from '../support/edfi-server.js';

const events: ResponseEvent[] = [];
const errors: unknown[] = [];
let store: Store;
let listener: Listener;
let token: string;

beforeAll(async () => {
  store = await openStore('sqlite::memory:');
  const logger = { info: () => undefined, warn: () => undefined, error: (...args: unknown[]) => errors.push(args) };
  const app = await createEdFiApp({ store, logger, onResponse: (event) => events.push(event) });
  token = await issueToken(app, store);
  listener = await listen(app.handler, { port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await listener.close();
  await store.close();
});

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 5_000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a client that disconnects', () => {
  it('in the middle of its body is logged as 499, not as an error', async () => {
    const socket = connect(listener.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST ${DATA_PATH}/ed-fi/students HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"studentUniqueId":',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await until(() => events.length > 0);
    expect(events.map(({ method, status }) => ({ method, status }))).toEqual([{ method: 'POST', status: 499 }]);
    expect(errors).toEqual([]);
    const health = await fetch(`http://127.0.0.1:${listener.port}/v7.3/api/health`);
    expect(health.status).toBe(200);
  });
});
