// A framework server with only the meta routes, mounted at /v7.3/api and rendering errors as the app does.
import { createServer, type ApiServer } from '@edfi-api/framework';
import { metaRoutes, type TrustProxy } from '../../../src/http/meta/index.js';
import { createProblemRenderer } from '../../../src/http/problem-details.js';
import { getModelRegistry } from '../../../src/model/index.js';

export const BASE = '/v7.3/api';

export async function metaServer(options: { docs?: boolean; trustProxy?: TrustProxy } = {}): Promise<ApiServer> {
  const server = await createServer({
    baseUriRegex: /^\/v7\.3\/api(?<Path>\/.*)?$/i,
    ignoreTrailingSlash: true,
    renderError: createProblemRenderer({ basePath: BASE, logger: console }),
  });
  server.addRoutes(1, metaRoutes({ registry: getModelRegistry(), basePath: `${BASE}/`, ...options }));
  return server;
}
