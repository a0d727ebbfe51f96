// The OpenAPI document as committed in openapi.json (npm run openapi writes it; a test
// compares it): built from the route table of an app over an empty in-memory database
// (routes never touch it while being registered). The running service serves the same
// document at /openapi.json (src/http/openapi.ts).
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { wrapPGlite } from '../src/db/database.ts';
import { createDeps } from '../src/deps.ts';

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
