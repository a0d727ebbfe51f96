// The supplier's side of support tickets (docs/conventions.md, openapi.json).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../auth/principal.ts';
import { IdParams, Page, problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { NamedTicket, NamesQuery, Ticket, TicketListQuery, TicketRefBody, UpdateTicketBody } from './tickets.schemas.ts';
import { closeTicket, getTicket, listTickets, requestInfo, updateTicket } from './tickets.service.ts';
import { audited } from '../audit/audited.ts';

const tags = ['support tickets'];
const read = { auth: 'supplier', scope: 'supplier/support.read' } as const;
const write = { auth: 'supplier', scope: 'supplier/support.write', audit: 'ticket' } as const;

export const ticketRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const ctx = { db: deps.db, clocks: deps.clocks, wake: () => deps.workAccepted('webhooks') };

    app.get('/support/ticket', {
      config: read,
      schema: { tags, summary: 'Tickets, newest first', querystring: TicketListQuery, response: { 200: Page(NamedTicket), ...problems(400, 401, 403) } },
      handler: (request) => listTickets(deps.db, supplierOf(request).supplierId, request.query),
    });

    app.get('/support/ticket/:id', {
      config: read,
      schema: { tags, summary: 'A ticket with its messages', params: IdParams, querystring: NamesQuery, response: { 200: NamedTicket, ...problems(400, 401, 403, 404) } },
      handler: (request) => getTicket(deps.db, supplierOf(request).supplierId, request.params.id, request.query.names === true),
    });

    app.put('/support/ticket/:id', {
      config: write,
      schema: {
        tags,
        summary: "Link the supplier's own ticket id and/or move the status (IN_PROGRESS, SOLVED); any but CLOSED",
        params: IdParams,
        body: UpdateTicketBody,
        response: { 200: Ticket, ...problems(400, 401, 403, 404, 409) },
      },
      handler: (request) => audited(deps, request, (db) => updateTicket({ ...ctx, db }, supplierOf(request).supplierId, request.params.id, request.body)),
    });

    app.post('/support/ticket/additional-info', {
      config: write,
      schema: {
        tags,
        summary: 'Ask the store for more information (the store is notified)',
        body: TicketRefBody,
        response: { 200: Ticket, ...problems(400, 401, 403, 404, 409) },
      },
      handler: (request) => audited(deps, request, (db) => requestInfo({ ...ctx, db }, supplierOf(request).supplierId, request.body)),
    });

    app.put('/support/ticket/close', {
      config: write,
      schema: {
        tags,
        summary: 'Close a ticket; the message records the resolution',
        body: TicketRefBody,
        response: { 200: Ticket, ...problems(400, 401, 403, 404, 409) },
      },
      handler: (request) => audited(deps, request, (db) => closeTicket({ ...ctx, db }, supplierOf(request).supplierId, request.body)),
    });
  };
