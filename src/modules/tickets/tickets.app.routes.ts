// The store's side of support tickets, in the store app (store-app.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { storeUserOf } from '../../http/auth.ts';
import { Page, problems } from '../../http/common.schemas.ts';
import type { Deps } from '../../deps.ts';
import { AnswerBody, AppTicket, AppTicketListQuery, OpenTicketBody, StoreIdParams, TicketIdParams } from './tickets.schemas.ts';
import { answerTicket, getStoreTicket, listStoreTickets, openTicket } from './tickets.service.ts';

const tags = ['store app'];
const config = { auth: 'store' } as const;

export const ticketAppRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const ctx = { db: deps.db, clock: deps.clock, wake: deps.workAccepted };

    app.post('/app/stores/:storeId/tickets', {
      config,
      schema: {
        tags,
        summary: 'Open a ticket (PENDING); the supplier is called at create-ticket',
        params: StoreIdParams,
        body: OpenTicketBody,
        response: { 200: AppTicket, ...problems(400, 401, 404) },
      },
      handler: (request) => openTicket(ctx, storeUserOf(request), request.params.storeId, request.body),
    });

    app.get('/app/stores/:storeId/tickets', {
      config,
      schema: {
        tags,
        summary: "The store's tickets, newest first",
        params: StoreIdParams,
        querystring: AppTicketListQuery,
        response: { 200: Page(AppTicket), ...problems(400, 401, 404) },
      },
      handler: (request) => listStoreTickets(deps.db, storeUserOf(request), request.params.storeId, request.query),
    });

    app.get('/app/tickets/:id', {
      config,
      schema: { tags, summary: 'A ticket with its messages', params: TicketIdParams, response: { 200: AppTicket, ...problems(400, 401, 404) } },
      handler: (request) => getStoreTicket(deps.db, storeUserOf(request), request.params.id),
    });

    app.post('/app/tickets/:id/answer', {
      config,
      schema: {
        tags,
        summary: "Answer the supplier's request for information (only while ADDITIONAL_INFO_REQUESTED); the ticket goes IN_PROGRESS",
        params: TicketIdParams,
        body: AnswerBody,
        response: { 200: AppTicket, ...problems(400, 401, 404, 409) },
      },
      handler: (request) => answerTicket(ctx, storeUserOf(request), request.params.id, request.body),
    });
  };
