// token_info's decisions (contract §2.6, ODS 7.3.2): which presented tokens are described, and to whom; a client may
// only introspect the token it authenticated the request with.
import type { Caller } from '../../api/caller.js';
import { ApiProblem } from '../../api/problems.js';
import type { ModelRegistry } from '../../model/index.js';
import type { DocumentStore } from '../../store/store.js';
import { normalizeAccessToken } from '../access-tokens.js';
import { EducationOrganizationDirectory } from './education-organization-info.js';
import { tokenInfoOf, type TokenInfo } from './token-info.js';

export interface TokenInfoContext {
  readonly store: Pick<DocumentStore, 'list'>;
  readonly registry: ModelRegistry;
}

/**
 * The presented token's description for the caller authenticated by `bearerToken`; throws the 400 the ODS answers
 * instead.
 */
export type TokenIntrospection = (
  presentedToken: string | undefined,
  caller: Caller,
  bearerToken: string,
) => Promise<TokenInfo>;

const invalidToken = (): ApiProblem =>
  new ApiProblem('badRequest', {
    detail: 'An invalid token was provided',
    errors: ['The token was not present, or was not processable as a GUID value.'],
  });

/** Any other token, the caller's own or another client's, live or not, is refused before it is looked up. */
const tokenMismatch = (): ApiProblem =>
  new ApiProblem('badRequest', {
    detail: 'The authentication token and the token to inspect must match.',
    errors: ['The authentication token (header) and the token to inspect in the body must match.'],
  });

export function createTokenIntrospection(context: TokenInfoContext): TokenIntrospection {
  const { store, registry } = context;
  const educationOrganizations = new EducationOrganizationDirectory(store, registry);

  return async (presentedToken, caller, bearerToken) => {
    const token = presentedToken === undefined ? undefined : normalizeAccessToken(presentedToken);
    if (token === undefined) throw invalidToken();
    if (token !== normalizeAccessToken(bearerToken)) throw tokenMismatch();
    return tokenInfoOf(caller, registry, educationOrganizations);
  };
}
