import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: { '@edfi-api/framework': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
  test: {
    name: 'framework',
    include: ['test/**/*.test.ts'],
  },
});
