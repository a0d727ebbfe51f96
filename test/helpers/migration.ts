// For a test of one migration on rows written in the shape before it: a fresh database the
// test moves back to that shape and fills, then the real app built over it once migrated,
// so what the migration kept is checked through the routes. Closed after the file.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import { MemoryNotifier } from '../../src/lib/notifier.ts';
import { ADMIN_TOKEN } from './app.ts';
import { freshDatabase } from './database.ts';

export function migrationFixture() {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let deps: Deps | undefined;
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    await app?.close();
    if (deps) await deps.close();
    else await database.close();
  });
  return {
    /** The fresh database (the migrations all applied until the test undoes its own). */
    db: () => database.db,
    /** The real app over the database as it is now (built once, after the migration ran). */
    async serve(): Promise<{ app: FastifyInstance; deps: Deps }> {
      deps = await createDeps(loadConfig({ NODE_ENV: 'test', ADMIN_TOKEN }), database, { notifier: new MemoryNotifier() });
      app = await buildApp(deps, { logger: false });
      return { app, deps };
    },
  };
}
