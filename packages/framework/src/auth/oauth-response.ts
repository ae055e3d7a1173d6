// OAuth 2.0 token-endpoint responses (RFC 6749 §5.1 and §5.2), which must never be cached.

import { ApiResponse } from '../http/api-response.js';

const NO_STORE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'no-store',
  pragma: 'no-cache',
});

export interface OAuthTokenBody {
  readonly access_token: string;
  readonly token_type: string;
  readonly expires_in?: number;
  readonly scope?: string;
  readonly refresh_token?: string;
  readonly [name: string]: unknown;
}

export interface OAuthErrorBody {
  readonly error: string;
  readonly error_description?: string;
  readonly error_uri?: string;
}

/** A successful token response. */
export class OAuthToken extends ApiResponse {
  declare readonly body: OAuthTokenBody;

  constructor(body: OAuthTokenBody, status = 200) {
    super(body, status, NO_STORE_HEADERS);
  }
}

/** A token-endpoint error such as `invalid_grant` or `invalid_client`. */
export class OAuthError extends ApiResponse {
  declare readonly body: OAuthErrorBody;

  constructor(error: string, description?: string, status = 400, uri?: string) {
    super(oauthErrorBody(error, description, uri), status, NO_STORE_HEADERS);
  }
}

function oauthErrorBody(error: string, description: string | undefined, uri: string | undefined): OAuthErrorBody {
  const body: { error: string; error_description?: string; error_uri?: string } = { error };
  if (description !== undefined) body.error_description = description;
  if (uri !== undefined) body.error_uri = uri;
  return body;
}
