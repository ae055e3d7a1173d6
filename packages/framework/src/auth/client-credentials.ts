// Finds a client id and secret for the client-credentials scheme, both from the same source: Basic header, body, then query.

import { Unauthorized } from '../errors.js';
import { decodeBasicCredentials, readAuthorization, type ClientSecretPair } from './authorization-header.js';
import type { AuthRequest } from './scheme-attempt.js';

export interface ClientCredentialSources {
  /** The legacy query-string fallback (RFC 6749 §2.3.1 forbids it; on by default for PHP parity). */
  readonly allowQuery: boolean;
  /** Called each time the query fallback supplied the credentials. */
  readonly onQueryUsed: () => void;
}

/** Undefined when no source carries credentials; throws when a source carries only one half or a malformed Basic header. */
export async function findClientCredentials(
  req: AuthRequest,
  sources: ClientCredentialSources,
): Promise<ClientSecretPair | undefined> {
  const authorization = readAuthorization(req.headers);
  if (authorization?.scheme === 'basic') {
    const basic = decodeBasicCredentials(authorization.credentials);
    if (basic === undefined) throw new Unauthorized('Malformed Basic credentials.');
    return completePair(basic.clientId, basic.clientSecret);
  }
  const fromBody = await bodyCredentials(req);
  if (fromBody !== undefined) return fromBody;
  if (!sources.allowQuery) return undefined;
  const fromQuery = completePair(req.query['client_id'], req.query['client_secret']);
  if (fromQuery !== undefined) sources.onQueryUsed();
  return fromQuery;
}

/**
 * Both halves, undefined when neither is given, or a rejection naming the missing half. Only an empty string
 * counts as missing: `"0"` is a valid id or secret.
 */
export function completePair(
  clientId: string | undefined,
  clientSecret: string | undefined,
): ClientSecretPair | undefined {
  const hasId = clientId !== undefined && clientId !== '';
  const hasSecret = clientSecret !== undefined && clientSecret !== '';
  if (hasId && hasSecret) return { clientId, clientSecret };
  if (hasId) throw new Unauthorized('Client secret missing.');
  if (hasSecret) throw new Unauthorized('Client ID missing.');
  return undefined;
}

async function bodyCredentials(req: AuthRequest): Promise<ClientSecretPair | undefined> {
  let body: unknown;
  try {
    body = await req.readBody();
  } catch {
    // An unreadable body carries no credentials; the handler will meet the same error if it reads the body.
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const fields = body as Record<string, unknown>;
  return completePair(stringField(fields['client_id']), stringField(fields['client_secret']));
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
