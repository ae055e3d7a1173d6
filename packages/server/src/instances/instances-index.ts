// What a server of several instances answers outside them (contract §1.2, §6.3): the discovery document at the base
// path, and at `/{tenant}` when a context route follows the tenant, with `{tenantIdentifier}` and the context keys as
// placeholders where the request carries no value; 404 for every other path (unknown tenant, unmatched context).
import { createServer, route, type ApiServer, type Logger, type ResponseObserver } from '@edfi-api/framework';
import { ApiProblem } from '../api/index.js';
import { baseUriRegexFor } from '../http/app.js';
import { discoveryDocument, requestRoot } from '../http/meta/index.js';
import { createProblemRenderer } from '../http/problem-details.js';
import { contextPlaceholders } from './context-route.js';
import type { InstancesConfig } from './instances-file.js';

export interface InstancesIndexOptions {
  readonly config: InstancesConfig;
  /** Normalised: leading slash, no trailing slash. */
  readonly basePath: string;
  readonly logger: Logger;
  readonly onResponse?: ResponseObserver;
}

const PUBLIC = { auth: ['none'] } as const;
const TENANT_PLACEHOLDER = '{tenantIdentifier}';

export async function createInstancesIndex(options: InstancesIndexOptions): Promise<ApiServer> {
  const { config, basePath, logger } = options;
  const context = config.contextRoute === undefined ? [] : contextPlaceholders(config.contextRoute);
  const tenants = new Map(config.instances.map(({ tenant }) => [tenant?.toLowerCase(), tenant]));
  const rootWith = (root: string, tenant: string | undefined): string =>
    [root, ...(config.multiTenant ? [tenant ?? TENANT_PLACEHOLDER] : []), ...context].join('/');

  const server = await createServer({
    baseUriRegex: baseUriRegexFor(basePath),
    renderError: createProblemRenderer({ basePath, logger }),
    implicitHead: false,
    implicitOptions: false,
    ignoreTrailingSlash: true,
    logger,
    ...(options.onResponse === undefined ? {} : { onResponse: options.onResponse }),
  });
  server.addRoutes(1, [
    route.get('/', PUBLIC, (ctx) => discoveryDocument(rootWith(requestRoot(ctx, basePath), undefined))),
    route.get('/{tenant}', PUBLIC, (ctx) => {
      const tenant = tenants.get(ctx.params.tenant.toLowerCase());
      // Reached only when a context route follows the tenant: otherwise `/{tenant}` is the instance's own root.
      if (!config.multiTenant || tenant === undefined)
        throw new ApiProblem('notFound', { raisedBeforeController: true });
      return discoveryDocument(rootWith(requestRoot(ctx, basePath), tenant));
    }),
  ]);
  return server;
}
