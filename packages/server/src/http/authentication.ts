// How the server authenticates: access tokens (bearer) everywhere, the admin credential (Basic) on the admin routes,
// and data paths before routing, as the ODS does (401 before 404 and 405). `route` types `ctx.identity` from them.
import { routes, type AuthScheme, type RequestHook } from '@edfi-api/framework';
import type { AccessTokenVerifier } from '../security/index.js';
import { adminClientRepository, type AdminCredentials } from './admin/admin-credentials.js';

/** The framework's authentication options: what `ctx.identity` is typed from. */
export function authenticationOptions(verifier: Pick<AccessTokenVerifier, 'verify'>, admin?: AdminCredentials) {
  return {
    bearerVerifier: verifier.verify,
    onRequest: authenticateDataPaths,
    ...(admin === undefined ? {} : { clientRepository: adminClientRepository(admin) }),
  };
}

/** Route factories whose handlers receive the caller of an access token as `ctx.identity`. */
export const route = routes<ReturnType<typeof authenticationOptions>>();

/** Paths the ODS authenticates before routing, answering failures with a problem body (the rest get a bare 401). */
export const PROBLEM_AUTHENTICATED_PATH = /^\/(?:data|composites|changequeries)(?:\/|$)/i;

const BEARER: readonly AuthScheme[] = ['bearer'];

const authenticateDataPaths: RequestHook = (ctx) =>
  PROBLEM_AUTHENTICATED_PATH.test(ctx.path) ? ctx.authenticate(BEARER).then(() => undefined) : undefined;
