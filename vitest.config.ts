import { defineConfig } from 'vitest/config';

// The same suite runs on embedded PGlite (default) and on PostgreSQL (DATABASE_URL set).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'web/e2e/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: 'test' },
  },
});
