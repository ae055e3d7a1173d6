// Test helpers: an AuthRequest built from plain values, and a recording client repository.

import type { IncomingHttpHeaders } from 'node:http';
import type { AuthRequest } from '../../src/auth/authenticator.js';
import type { ClientCheckResult, ClientRepository, ValidateClientHook } from '../../src/auth/principal.js';
import { HttpError } from '../../src/errors.js';
import type { QueryParams } from '../../src/types.js';

export interface FakeRequestInit {
  readonly headers?: IncomingHttpHeaders;
  readonly query?: Record<string, string>;
  /** The parsed body, or an error that readBody() throws. */
  readonly body?: unknown;
  readonly bodyError?: Error;
}

export interface FakeRequest extends AuthRequest {
  readonly bodyReads: () => number;
}

export function fakeRequest(init: FakeRequestInit = {}): FakeRequest {
  let reads = 0;
  const values = init.query ?? {};
  const query = Object.assign(Object.create(null) as object, values, {
    getAll: (name: string) => (values[name] === undefined ? [] : [values[name]]),
  }) as QueryParams;
  return {
    headers: init.headers ?? {},
    query,
    async readBody() {
      reads++;
      if (init.bodyError !== undefined) throw init.bodyError;
      return init.body;
    },
    bodyReads: () => reads,
  };
}

export function basicHeader(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}`;
}

export interface RecordedCall {
  readonly method: 'validate' | 'validateApiKey';
  readonly args: readonly string[];
  readonly hookPassed: boolean;
}

/** A repository that knows one client (`client-1` / `s3cret`) and one API key (`key-1` → `client-1`). */
export function recordingRepository(overrides: Partial<ClientRepository> = {}): ClientRepository & {
  readonly calls: RecordedCall[];
} {
  const calls: RecordedCall[] = [];
  return {
    calls,
    validate:
      overrides.validate ??
      ((clientId: string, clientSecret: string, hook?: ValidateClientHook): ClientCheckResult => {
        calls.push({ method: 'validate', args: [clientId, clientSecret], hookPassed: hook !== undefined });
        return clientId === 'client-1' && clientSecret === 's3cret' ? { scopes: ['read'] } : false;
      }),
    validateApiKey:
      overrides.validateApiKey ??
      ((apiKey: string, hook?: ValidateClientHook): ClientCheckResult => {
        calls.push({ method: 'validateApiKey', args: [apiKey], hookPassed: hook !== undefined });
        return apiKey === 'key-1' ? { clientId: 'client-1', scopes: ['read', 'write'] } : false;
      }),
  };
}

export const HASH_KEY = 'test-secret-of-at-least-32-bytes!!';

/** The HttpError an authentication attempt was rejected with. */
export async function rejectionOf(attempt: unknown): Promise<HttpError> {
  try {
    await attempt;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected authentication to be rejected');
}
