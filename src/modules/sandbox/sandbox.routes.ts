// The sandbox's routes (README.md): test mode only. A live credential or a console session
// in live mode is answered 404 on each of them, exactly as a route that does not exist
// (config.mode, src/http/auth.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { supplierOf } from '../auth/principal.ts';
import { audited } from '../audit/audited.ts';
import { problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { clockView, resetClock, setClock, type ClockContext } from './sandbox.clock.service.ts';
import { Type } from 'typebox';
import { Page, PageQuery } from '../../lib/schemas.ts';
import { checklist } from './sandbox.checklist.ts';
import { copyLive, resetTwin } from './sandbox.data.ts';
import { triggerEvent } from './sandbox.events.ts';
import { inbox } from './sandbox.inbox.ts';
import { Checklist, ClockBody, DataAnswer, EventBody, InboxMessage, SandboxClock, Triggered } from './sandbox.schemas.ts';

const tags = ['sandbox'];
const read = { auth: 'supplier', scope: 'supplier/catalog.read', mode: 'test' } as const;
const write = { auth: 'supplier', scope: 'supplier/catalog.write', mode: 'test', audit: 'sandbox' } as const;
// What an event makes happen is a store's doing, done through the store side's services,
// whose writes are not audited either: the order or ticket and its webhook are the record.
const trigger = { auth: 'supplier', scope: 'supplier/order.write', mode: 'test', audit: false } as const;

export const sandboxRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const clockCtx: ClockContext = { db: deps.db, clock: deps.clock, clocks: deps.clocks };
    /**
     * An audited write that may change the twin's clock (setting it, resetting it, emptying
     * or refilling the twin): once committed, this process forgets the clocks, so it reads
     * the new time at once (the others hear the NOTIFY).
     */
    const clockWrite = async <T>(request: FastifyRequest, entityId: string, work: (db: Kysely<DB>) => Promise<T>) => {
      const answer = await audited(deps, request, work, { entityId: () => entityId });
      deps.clocks.forget();
      return answer;
    };

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
      handler: (request) => clockWrite(request, 'clock', (db) => setClock({ ...clockCtx, db }, supplierOf(request).supplierId, request.body.now)),
    });

    app.delete('/sandbox/clock', {
      config: write,
      schema: { tags, summary: "Back to real time (test mode only)", response: { 200: SandboxClock, ...problems(401, 403, 404) } },
      handler: (request) => clockWrite(request, 'clock', (db) => resetClock({ ...clockCtx, db }, supplierOf(request).supplierId)),
    });

    app.post('/sandbox/events', {
      config: trigger,
      schema: {
        tags,
        summary: 'Make an event happen in the sandbox as a store would (test mode only): an order placed, an order cancelled, a ticket opened, an answer to a request for information; its webhook goes the real way',
        body: EventBody,
        response: { 200: Triggered, ...problems(400, 401, 403, 404, 409) },
      },
      handler: (request) => triggerEvent(deps, supplierOf(request).supplierId, request.body),
    });

    app.get('/sandbox/messages', {
      config: { auth: 'supplier', scope: 'supplier/store.read', mode: 'test' },
      schema: {
        tags,
        summary: "The sandbox's test inbox, newest first (test mode only): the codes and notifications its store users would have been sent",
        querystring: Type.Object(PageQuery),
        response: { 200: Page(InboxMessage), ...problems(400, 401, 403, 404) },
      },
      handler: (request) => inbox(deps.db, supplierOf(request).supplierId, request.query),
    });

    app.post('/sandbox/reset', {
      config: write,
      schema: { tags, summary: 'Empty the sandbox, keeping its credentials and webhook settings (test mode only)', response: { 200: DataAnswer, ...problems(401, 403, 404) } },
      handler: (request) => clockWrite(request, 'reset', (db) => resetTwin(db, supplierOf(request).supplierId)),
    });

    app.post('/sandbox/copy-live', {
      config: write,
      schema: {
        tags,
        summary: "Replace the sandbox's data with a copy of the live catalog, groupers, stock, price lists, stores and promotions (not orders, tickets or store users; test mode only)",
        response: { 200: DataAnswer, ...problems(401, 403, 404) },
      },
      handler: (request) => clockWrite(request, 'copy-live', (db) => copyLive(db, supplierOf(request).supplierId)),
    });

    app.get('/sandbox/checklist', {
      config: read,
      schema: { tags, summary: "The sandbox's progress along the 14-step load order, each step with where it shows in the console (test mode only)", response: { 200: Checklist, ...problems(401, 403, 404) } },
      handler: (request) => checklist(deps.db, supplierOf(request).supplierId),
    });
  };
