// The sandbox's routes (README.md): test mode only. A live credential or a console session
// in live mode is answered 404 on each of them, exactly as a route that does not exist
// (config.mode, src/http/auth.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../../http/auth.ts';
import { audited } from '../../http/audit.ts';
import { problems } from '../../http/common.schemas.ts';
import type { Deps } from '../../deps.ts';
import { clockView, resetClock, setClock, type ClockContext } from './sandbox.clock.service.ts';
import { ClockBody, SandboxClock } from './sandbox.schemas.ts';

const tags = ['sandbox'];
const read = { auth: 'supplier', scope: 'supplier/catalog.read', mode: 'test' } as const;
const write = { auth: 'supplier', scope: 'supplier/catalog.write', mode: 'test', audit: 'sandbox' } as const;

export const sandboxRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const clockCtx: ClockContext = { db: deps.db, clock: deps.clock, clocks: deps.clocks };

    app.get('/sandbox/clock', {
      config: read,
      schema: { tags, summary: "The sandbox's time (test mode only)", response: { 200: SandboxClock, ...problems(401, 403, 404) } },
      handler: (request) => clockView(clockCtx, supplierOf(request).supplierId),
    });

    app.put('/sandbox/clock', {
      config: write,
      schema: {
        tags,
        summary: "Move the sandbox's time forward (test mode only): promotions, prices, order and ticket times follow it; live time never moves",
        body: ClockBody,
        response: { 200: SandboxClock, ...problems(400, 401, 403, 404) },
      },
      handler: async (request) => {
        const answer = await audited(deps, request, (db) => setClock({ ...clockCtx, db }, supplierOf(request).supplierId, request.body.now), { entityId: () => 'clock' });
        deps.clocks.forget(); // committed now: this process reads the new time at once (the others hear the NOTIFY)
        return answer;
      },
    });

    app.delete('/sandbox/clock', {
      config: write,
      schema: { tags, summary: "Back to real time (test mode only)", response: { 200: SandboxClock, ...problems(401, 403, 404) } },
      handler: async (request) => {
        const answer = await audited(deps, request, (db) => resetClock({ ...clockCtx, db }, supplierOf(request).supplierId), { entityId: () => 'clock' });
        deps.clocks.forget();
        return answer;
      },
    });
  };
