// Entry point of the `edfi-api` executable.
import { buildProgram } from './program.js';

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  process.stderr.write(`edfi-api: ${error instanceof Error ? error.message : String(error)}\n`);
  // Explicitly, since an open store or a cluster worker's IPC channel would keep the process alive.
  process.exit(1);
}
