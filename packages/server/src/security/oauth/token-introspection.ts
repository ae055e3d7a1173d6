// token_info's decisions (contract §2.6): which presented tokens are described, and to whom; a client may only
// introspect its own live tokens.
import { Unauthorized } from '@edfi-api/framework';
import type { Caller } from '../../api/caller.js';
import { ApiProblem } from '../../api/problems.js';
import type { ModelRegistry } from '../../model/index.js';
import type { DocumentStore } from '../../store/store.js';
import { findTokenHolder, normalizeAccessToken, type TokenHolderStore } from '../access-tokens.js';
import { EducationOrganizationDirectory } from './education-organization-info.js';
import { tokenInfoOf, type TokenInfo } from './token-info.js';

export interface TokenInfoContext {
  readonly store: TokenHolderStore & Pick<DocumentStore, 'list'>;
  readonly registry: ModelRegistry;
  /** Clock in epoch milliseconds (tests). */
  readonly now?: () => number;
}

/** The presented token's description; throws the 400, 404 or 401 the ODS answers instead. */
export type TokenIntrospection = (presentedToken: string | undefined, caller: Caller) => Promise<TokenInfo>;

const invalidToken = (): ApiProblem =>
  new ApiProblem('badRequest', {
    detail: 'An invalid token was provided',
    errors: ['The token was not present, or was not processable as a GUID value.'],
  });

export function createTokenIntrospection(context: TokenInfoContext): TokenIntrospection {
  const { store, registry } = context;
  const now = context.now ?? Date.now;
  const educationOrganizations = new EducationOrganizationDirectory(store, registry);

  return async (presentedToken, caller) => {
    const token = presentedToken === undefined ? undefined : normalizeAccessToken(presentedToken);
    if (token === undefined) throw invalidToken();
    const holder = await findTokenHolder(store, token, now());
    if (holder === undefined) throw new ApiProblem('notFound');
    // Introspecting another client's token is refused like a missing authentication.
    if (holder.caller.clientId !== caller.clientId) throw new Unauthorized('Invalid token');
    return tokenInfoOf(holder.caller, registry, educationOrganizations);
  };
}
