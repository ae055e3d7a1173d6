import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { standardDecorators } from '../../vitest.shared.js';

export default defineConfig({
  plugins: [standardDecorators()],
  resolve: {
    alias: { '@edfi-api/framework': fileURLToPath(new URL('../framework/src/index.ts', import.meta.url)) },
  },
  test: {
    name: 'server',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/postgres-setup.ts', 'test/support/edfi-source-setup.ts'],
    passWithNoTests: true,
    // Set-up hooks start servers on new stores: a PostgreSQL schema is some 300 tables and 1,200 indexes, which takes
    // longer than the default 10 s when the machine is busy (CI runs the files in parallel).
    hookTimeout: 60_000,
  },
});
