import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpTarget, loadFiles } from '../../src/load/index.js';
import { getModelRegistry } from '../../src/model/index.js';
import { startSandboxServer } from './support/sandbox-server.js';
import { itWithEdfiSource, SAMPLE_DATA } from '../support/edfi-source.js';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

async function listening(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v7.3/api`;
}

describe('the HTTP target on a real socket (keep-alive node:http)', () => {
  itWithEdfiSource(
    'loads interchange files into a listening Ed-Fi server',
    async () => {
      const sandbox = await startSandboxServer();
      const url = await listening(createServer(sandbox.server.handler));
      const target = createHttpTarget({ url, key: sandbox.key, secret: sandbox.secret, parallel: 4 });
      try {
        const files = ['ProgramCharacteristicDescriptor.xml', 'Student.xml'].map((file) =>
          path.join(SAMPLE_DATA, file),
        );
        const summary = await loadFiles({ inputs: files, target, parallel: 4 });
        // One student references a Person that only StaffAssociation.xml defines.
        expect(summary).toMatchObject({ documents: 964, created: 963, failed: 1 });
        const { headers } = await sandbox.get('/data/v3/ed-fi/students?limit=0&totalCount=true');
        expect(headers['total-count']).toBe('959');
      } finally {
        await target.close();
        await sandbox.close();
      }
    },
    60_000,
  );

  it('retries a request that gets no answer in time, and one answered 503', async () => {
    let dataRequests = 0;
    const url = await listening(
      createServer((request, response) => {
        if (request.url?.endsWith('/oauth/token')) {
          response.setHeader('Content-Type', 'application/json');
          response.end(JSON.stringify({ access_token: 't', expires_in: 1800, token_type: 'bearer' }));
          return;
        }
        dataRequests++;
        if (dataRequests === 1) return; // never answered: the client times out
        response.statusCode = dataRequests === 2 ? 503 : 201;
        response.end();
      }),
    );
    const target = createHttpTarget({
      url,
      key: 'k',
      secret: 's',
      timeoutMs: 200,
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
    });
    try {
      const students = getModelRegistry().getResource('ed-fi', 'students')!;
      expect(await target.post(students, {}, new AbortController().signal)).toEqual({ status: 201, body: '' });
      expect(dataRequests).toBe(3);
    } finally {
      await target.close();
    }
  });
});
