import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { isMigrated } from '../db/migrator.ts';
import type { Deps } from '../deps.ts';
import { sendProblem } from './error-handler.ts';

export const healthRoutes =
  (deps: Deps, isDraining: () => boolean): FastifyPluginAsync =>
  async (app) => {
    // Process up: nothing else is checked.
    app.get('/healthz', { config: { auth: 'public' }, schema: { hide: true } }, async () => ({ status: 'ok' }));

    // Ready for traffic: database reachable, migrations applied, not shutting down.
    app.get('/readyz', { config: { auth: 'public' }, schema: { hide: true } }, async (_request, reply) => {
      if (isDraining()) {
        reply.header('retry-after', '5');
        return sendProblem(reply, 503, 'SERVICE_UNAVAILABLE', 'shutting down');
      }
      try {
        await sql`select 1`.execute(deps.db);
        if (!(await isMigrated(deps.db))) return sendProblem(reply, 503, 'SERVICE_UNAVAILABLE', 'migrations are not applied');
      } catch {
        reply.header('retry-after', '1');
        return sendProblem(reply, 503, 'SERVICE_UNAVAILABLE', 'the database is unreachable');
      }
      return { status: 'ready' };
    });
  };
