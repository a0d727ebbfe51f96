import os from 'node:os';
import { defineConfig } from 'vitest/config';

// The same suite runs on embedded PGlite (default) and on PostgreSQL (DATABASE_URL set).
// Files run two at a time at least: Vitest's default (one fewer than the cores) runs one
// at a time on the 2-core CI machines, while much of a file's time is spent waiting on
// the child processes it starts, on PostgreSQL and on timers. Two at a time took the
// PGlite run from 21.6 to 16.1 minutes and the PostgreSQL run from 12.3 to 8.3 there.
//
// A worker runs file after file in one process (isolate: false) instead of a new process
// per file: the app's modules are loaded and PGlite's WebAssembly compiled once per
// worker, not once per file, which was over a third of the CPU of a file of ordinary
// tests (27 such files: 104 against 62 CPU seconds). Files still never share state:
// each has its own database (test/helpers/database.ts) and app, and closes them; the
// service keeps nothing per process that a test can see (its caches are keyed by what
// they cache, its metrics registry is per app); no test mocks a module, and the one
// spy is restored after each test. A file that needs a process of its own starts one
// (test/helpers/process.ts).
//
// test/client/retries.test.ts keeps a process of its own (isolate: true): it drives the SDK
// through a proxy that drops answers and hangs, on a service in the same process, and in a
// worker shared with other files its lost-answer attempt hung until the file timed out
// (seen twice in whole PGlite runs, never alone nor with isolation).
const OWN_PROCESS = ['test/client/retries.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: 'test' },
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts', 'web/e2e/**/*.test.ts'], exclude: OWN_PROCESS, isolate: false } },
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS, isolate: true } },
    ],
  },
});
