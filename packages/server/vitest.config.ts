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
  },
});
