import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { standardDecorators } from '../../vitest.shared.js';

export default defineConfig({
  plugins: [standardDecorators()],
  resolve: {
    alias: { '@edfi-api/framework': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
  test: {
    name: 'framework',
    include: ['test/**/*.test.ts'],
    exclude: ['test/fixtures/**'],
  },
});
