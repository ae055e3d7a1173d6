// An API client of its own application against a test server: requests under `/data/v3/ed-fi` with its token.
import type { InjectResponse } from '@edfi-api/framework';
import { expect } from 'vitest';
import { DATA_PATH, issueToken, type EdFiTestServer } from './edfi-server.js';

export interface DataClient {
  get(path: string): Promise<InjectResponse>;
  send(method: string, path: string, body?: unknown): Promise<InjectResponse>;
  /** The listed items of a GET, with the Total-Count. */
  list<T = Record<string, unknown>>(path: string): Promise<{ items: T[]; total: number }>;
}

export async function dataClient(
  edfi: EdFiTestServer,
  claimSet: string,
  educationOrganizationIds: readonly number[],
  namespacePrefixes: readonly string[] = [],
): Promise<DataClient> {
  const token = await issueToken(edfi.server, edfi.store, { claimSet, educationOrganizationIds, namespacePrefixes });
  return dataClientOf(edfi, token);
}

/** A client of the test server presenting this token. */
export function dataClientOf(edfi: EdFiTestServer, token: string): DataClient {
  const send = (method: string, path: string, body?: unknown) =>
    edfi.server.inject({
      method,
      url: `${DATA_PATH}/ed-fi/${path}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const get = (path: string) => send('GET', path);
  return {
    get,
    send,
    async list<T>(path: string) {
      const response = await get(`${path}${path.includes('?') ? '&' : '?'}totalCount=true`);
      expect(response.status, response.body).toBe(200);
      return { items: response.json<T[]>(), total: Number(response.headers['total-count']) };
    },
  };
}
