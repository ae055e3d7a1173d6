// The administrative rows as every SQL store reads them, and how they become the Store's records.
import type { AccessTokenRecord, ApiClient } from '../store.js';

export interface ClientRow {
  readonly client_key: string;
  readonly name: string;
  readonly secret_hash: string;
  /** SQLite keeps 0/1, PostgreSQL a boolean. */
  readonly active: number | boolean;
  readonly created_at: string;
  readonly application_id: number | null;
}

export const CLIENT_COLUMNS = 'client_key, name, secret_hash, active, created_at, application_id';

export function toClient(row: ClientRow): ApiClient {
  return {
    key: row.client_key,
    name: row.name,
    secretHash: row.secret_hash,
    active: row.active === true || row.active === 1,
    createdAt: row.created_at,
  };
}

export interface TokenRow {
  readonly token_hash: string;
  readonly client_key: string;
  readonly expires_at: number;
  readonly education_organization_id: number | null;
}

export const TOKEN_COLUMNS = 't.token_hash, t.client_key, t.expires_at, t.education_organization_id';

export function toToken(row: TokenRow): AccessTokenRecord {
  const token = { tokenHash: row.token_hash, clientKey: row.client_key, expiresAt: row.expires_at };
  return row.education_organization_id === null
    ? token
    : { ...token, educationOrganizationId: row.education_organization_id };
}
