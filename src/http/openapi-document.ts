// The OpenAPI document as committed in openapi.json: built from the route table of an
// app over an empty in-memory database (routes never touch it while being registered).
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { wrapPGlite } from '../db/database.ts';
import { createDeps } from '../deps.ts';

export async function generateOpenApiDocument(): Promise<string> {
  const config = loadConfig({ NODE_ENV: 'test', ADMIN_TOKEN: 'openapi-generation-token', JWT_SECRET: 'x'.repeat(32) });
  const database = wrapPGlite(new PGlite());
  const deps = await createDeps(config, database);
  const app = await buildApp(deps, { logger: false });
  try {
    await app.ready();
    return `${JSON.stringify(app.swagger(), null, 2)}\n`;
  } finally {
    await app.close();
    await deps.close();
  }
}
