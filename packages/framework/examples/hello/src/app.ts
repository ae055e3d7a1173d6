// Builds the example server; main.ts listens with it, the tests inject into it.

import { type ApiServer, createServer, docsPageRoutes, type Logger } from '@edfi-api/framework';
import { clients } from './clients.js';
import { hashKey } from './config.js';

/** Each version's OpenAPI document, and a docs page (Swagger UI) over both in version 1: /api/v1/docs. */
export async function createHelloServer(logger?: Logger): Promise<ApiServer> {
  const server = await createServer({
    namespace: 'hello',
    controllerDirectory: new URL('./controllers/', import.meta.url),
    hashKey,
    clientRepository: clients,
    logger,
    openApi: { route: '/openapi.json' },
  });
  server.addRoutes(
    1,
    docsPageRoutes({
      title: 'hello example',
      documents: [
        { name: 'v1', url: 'openapi.json' },
        { name: 'v2', url: '/api/v2/openapi.json' },
      ],
    }),
  );
  return server;
}
