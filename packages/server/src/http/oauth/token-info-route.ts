// POST /oauth/token_info: introspection of one of the caller's own tokens (contract §2.6).
import { json, type RequestContext, type RouteDefinition } from '@edfi-api/framework';
import type { Caller } from '../../api/index.js';
import { createTokenIntrospection, type TokenInfoContext } from '../../security/index.js';
import { bearerTokenOf } from '../authentication-failure.js';
import { route } from '../authentication.js';
import { readRequestFields } from './request-fields.js';

export function tokenInfoRoutes(context: TokenInfoContext): RouteDefinition[] {
  const introspect = createTokenIntrospection(context);

  async function describeToken(ctx: RequestContext<unknown, Caller>) {
    const fields = await readRequestFields(ctx, ['token']);
    const info = await introspect(fields?.token, ctx.identity, bearerTokenOf(ctx.headers));
    return json(info, { headers: { 'Cache-Control': 'no-cache, no-store' } });
  }

  return [route.post('/oauth/token_info', { auth: ['bearer'], summary: 'Access token introspection' }, describeToken)];
}
