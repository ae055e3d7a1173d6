// POST /oauth/token_info: introspection of one of the caller's own tokens (contract §2.6).
import { json, route, Unauthorized, type RequestContext, type RouteDefinition } from '@edfi-api/framework';
import { ApiProblem } from '../../api/problems.js';
import type { ModelRegistry } from '../../model/index.js';
import type { Store } from '../../store/store.js';
import { findTokenHolder, normalizeAccessToken } from '../access-tokens.js';
import { callerOf } from '../caller.js';
import { EducationOrganizationDirectory } from './education-organization-info.js';
import { readRequestFields } from './request-fields.js';
import { tokenInfoOf } from './token-info.js';

export interface TokenInfoContext {
  readonly store: Pick<Store, 'findAccessToken' | 'findClientApplication' | 'list'>;
  readonly registry: ModelRegistry;
  /** Clock in epoch milliseconds (tests). */
  readonly now?: () => number;
}

const invalidToken = (): ApiProblem =>
  new ApiProblem('badRequest', {
    detail: 'An invalid token was provided',
    errors: ['The token was not present, or was not processable as a GUID value.'],
  });

export function tokenInfoRoutes(context: TokenInfoContext): RouteDefinition[] {
  const { store, registry } = context;
  const now = context.now ?? Date.now;
  const educationOrganizations = new EducationOrganizationDirectory(store, registry);

  async function describeToken(ctx: RequestContext) {
    const fields = await readRequestFields(ctx, ['token']);
    const token = fields?.token === undefined ? undefined : normalizeAccessToken(fields.token);
    if (token === undefined) throw invalidToken();
    const holder = await findTokenHolder(store, token, now());
    if (holder === undefined) throw new ApiProblem('notFound');
    // Introspecting another client's token is refused like a missing authentication.
    if (holder.caller.clientId !== callerOf(ctx).clientId) throw new Unauthorized('Invalid token');
    const info = await tokenInfoOf(holder.caller, registry, educationOrganizations);
    return json(info, { headers: { 'Cache-Control': 'no-cache, no-store' } });
  }

  return [route.post('/oauth/token_info', { auth: ['bearer'], summary: 'Access token introspection' }, describeToken)];
}
