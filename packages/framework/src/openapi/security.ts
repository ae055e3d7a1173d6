// Maps route authentication schemes to OpenAPI security schemes and alternative security requirements.

import type { AuthScheme } from '../types.js';
import type { RouteInfo } from '../routes/route-definition.js';
import type { SecurityRequirement, SecuritySchemeObject } from './document.js';

type SecuredScheme = Exclude<AuthScheme, 'none'>;

const SCHEME_ORDER: readonly SecuredScheme[] = ['apiKey', 'bearer', 'basic', 'client'];

function schemeObject(scheme: SecuredScheme, scopes: readonly string[], tokenUrl?: string): SecuritySchemeObject {
  switch (scheme) {
    case 'apiKey':
      return { type: 'apiKey', in: 'header', name: 'x-api-key' };
    case 'bearer':
      return { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' };
    case 'basic':
      return { type: 'http', scheme: 'basic' };
    case 'client':
      if (tokenUrl === undefined) return { type: 'http', scheme: 'basic' };
      return {
        type: 'oauth2',
        flows: { clientCredentials: { tokenUrl, scopes: Object.fromEntries(scopes.map((scope) => [scope, ''])) } },
      };
  }
}

/** The schemes the routes use, in a fixed order; the oauth2 flow lists the union of the routes' scopes, sorted. */
export function securitySchemes(
  routes: readonly RouteInfo[],
  tokenUrl?: string,
): Readonly<Record<string, SecuritySchemeObject>> {
  const used = new Set(routes.flatMap((route) => route.auth));
  const scopes = [...new Set(routes.flatMap((route) => route.scopes))].sort();
  return Object.fromEntries(
    SCHEME_ORDER.filter((scheme) => used.has(scheme)).map((scheme) => [scheme, schemeObject(scheme, scopes, tokenUrl)]),
  );
}

/** Scopes belong to token-based requirements only: bearer, and client when it is an oauth2 flow. */
function carriesScopes(scheme: SecuredScheme, tokenUrl?: string): boolean {
  return scheme === 'bearer' || (scheme === 'client' && tokenUrl !== undefined);
}

/** One alternative per declared scheme, in declaration order; `none` becomes the empty requirement `{}`. */
export function securityRequirements(route: RouteInfo, tokenUrl?: string): readonly SecurityRequirement[] | undefined {
  if (route.auth.length === 0) return undefined;
  if (route.auth.every((scheme) => scheme === 'none')) return [];
  return [...new Set(route.auth)].map((scheme) =>
    scheme === 'none' ? {} : { [scheme]: carriesScopes(scheme, tokenUrl) ? [...route.scopes] : [] },
  );
}
