// Starts the hello example on PORT (default 3000).

import { createHelloServer } from './app.js';
import { port } from './config.js';

const server = await createHelloServer();
const address = await server.listen(port);
console.info(`hello example listening on http://localhost:${address.port}/api/v1/public/ping`);
console.info(`API documentation: http://localhost:${address.port}/api/v1/docs`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
