// The framework under test over HTTP, built from dist/ (see ours-app.mjs); skipped with a clear message when the
// framework has not been built.

import { runServer } from './common.mjs';
import { buildOurs } from './ours-app.mjs';

await runServer('ours', async (config) => {
  const server = await buildOurs(config);
  await server.listen(config.port, config.host);
  return () => server.close();
});
