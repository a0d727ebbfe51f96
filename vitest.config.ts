import os from 'node:os';
import { defineConfig } from 'vitest/config';

// The same suite runs on embedded PGlite (default) and on PostgreSQL (DATABASE_URL set).
// Files run two at a time at least: Vitest's default (one fewer than the cores) runs one
// at a time on the 2-core CI machines, while much of a file's time is spent waiting on
// the child processes it starts, on PostgreSQL and on timers. Two at a time took the
// PGlite run from 21.6 to 16.1 minutes and the PostgreSQL run from 12.3 to 8.3 there.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'web/e2e/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: 'test' },
  },
});
