// Builds the example server; main.ts listens with it, the tests inject into it.

import { type ApiServer, createServer, type Logger } from '@edfi-api/framework';
import { clients } from './clients.js';
import { hashKey } from './config.js';

export function createHelloServer(logger?: Logger): Promise<ApiServer> {
  return createServer({
    namespace: 'hello',
    controllerDirectory: new URL('./controllers/', import.meta.url),
    hashKey,
    clientRepository: clients,
    logger,
  });
}
