// Whether a request bears the token of a client that is not bound to the instance it asks for: a token the
// instance's verifier refuses but another instance of the tenant knows. The ODS answers those with 404 (contract
// §9.3: no ODS instance matches the client and the route), where an unknown token stays a 401.
import type { IncomingMessage } from 'node:http';
import {
  hashAccessToken,
  normalizeAccessToken,
  type AccessTokenVerifier,
  type AuthenticatedCaller,
} from '../security/index.js';
import type { TenantTokenStore } from './tenant-tokens.js';

const BEARER = /^bearer\s+(\S+)\s*$/i;

export type BindingCheck = (req: IncomingMessage) => boolean | Promise<boolean>;

export function unboundTokenCheck(
  verifier: AccessTokenVerifier,
  tenant: Pick<TenantTokenStore, 'findAccessToken'>,
  now: () => number = Date.now,
): BindingCheck {
  async function knownElsewhere(value: string): Promise<boolean> {
    const token = normalizeAccessToken(value);
    return token !== undefined && (await tenant.findAccessToken(hashAccessToken(token), now())) !== undefined;
  }

  return (req) => {
    const value = BEARER.exec(req.headers.authorization ?? '')?.[1];
    if (value === undefined) return false;
    let verified: AuthenticatedCaller | Promise<AuthenticatedCaller>;
    try {
      verified = verifier.verify(value);
    } catch {
      return knownElsewhere(value);
    }
    // A cached token is verified synchronously: that path stays free of extra ticks. The app verifies it again,
    // from the cache this call filled.
    return verified instanceof Promise
      ? verified.then(
          () => false,
          () => knownElsewhere(value),
        )
      : false;
  };
}
