import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'framework',
    include: ['test/**/*.test.ts'],
  },
});
