// The request checks of the token endpoint in the ODS evaluation order (contract §2.3 rows 1–8).
import { OAuthError } from '@edfi-api/framework';
import type { ClientCredentialsRequest } from '../../security/index.js';
import type { RequestFields } from './request-fields.js';

export const TOKEN_REQUEST_FIELDS = ['client_id', 'client_secret', 'grant_type', 'scope'] as const;
export type TokenRequestFields = RequestFields<(typeof TOKEN_REQUEST_FIELDS)[number]>;

interface PresentedCredentials {
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
}

const GRANT_TYPE = 'client_credentials';
// The characters .NET's Convert.FromBase64String skips, and the strict alphabet and padding it accepts.
const BASE64_WHITESPACE = /[ \t\r\n]/g;
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function isBlank(value: string | undefined): boolean {
  return value === undefined || value.trim() === '';
}

function decodeBase64(value: string): string | undefined {
  const compact = value.replace(BASE64_WHITESPACE, '');
  return STRICT_BASE64.test(compact) ? Buffer.from(compact, 'base64').toString('utf8') : undefined;
}

/** Rows 1–5: credentials from an `Authorization: Basic` header, undefined when there is no header. */
function headerCredentials(authorization: string | undefined): PresentedCredentials | OAuthError | undefined {
  if (authorization === undefined || authorization === '') return undefined;
  const parts = authorization.split(' ');
  if (parts.length !== 2) return new OAuthError('invalid_request');
  const [scheme, value] = parts as [string, string];
  if (scheme.toLowerCase() !== 'basic') return new OAuthError('invalid_client', undefined, 401);
  if (isBlank(value)) return new OAuthError('invalid_request');
  const decoded = decodeBase64(value);
  if (decoded === undefined) return new OAuthError('invalid_request');
  const pair = decoded.split(':');
  if (pair.length !== 2) return new OAuthError('invalid_client');
  return { clientId: pair[0], clientSecret: pair[1] };
}

/** Rows 1–8 of §2.3: which client is asking, or the OAuth error the ODS answers first. */
export function checkTokenRequest(
  authorization: string | undefined,
  fields: TokenRequestFields,
): ClientCredentialsRequest | OAuthError {
  const fromHeader = headerCredentials(authorization);
  if (fromHeader instanceof OAuthError) return fromHeader;
  if (fromHeader !== undefined && !(isBlank(fields.client_id) && isBlank(fields.client_secret))) {
    return new OAuthError('invalid_client');
  }
  const { clientId, clientSecret } = fromHeader ?? { clientId: fields.client_id, clientSecret: fields.client_secret };
  if (clientId === undefined || clientSecret === undefined || isBlank(clientId) || isBlank(clientSecret)) {
    return new OAuthError('invalid_request', undefined, 401);
  }
  if (fields.grant_type?.toLowerCase() !== GRANT_TYPE) return new OAuthError('unsupported_grant_type');
  return { clientId, clientSecret, scope: fields.scope === '' ? undefined : fields.scope };
}
