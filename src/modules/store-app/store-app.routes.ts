// The store app's API (/app, README.md): thin routes over the store side's services. Every
// route with a store id passes the membership guard first (`requireMembership`, the one
// check of "this person is a member of this store"); a route reaching an order or a
// ticket checks the membership of its store the same way. Another store answers 404,
// exactly like one that does not exist. Sign-in and /app/me are in store-app.me.routes.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { storeUserOf } from './store-app.principal.ts';
import { IdParams, Page, PageQuery, problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../lib/errors.ts';
import { cancelCodes, reasonIn } from '../orders/cancel-codes.ts';
import { DeliveryOptions } from '../delivery/delivery.schemas.ts';
import { cachedZoneOfStore, optionsOf } from '../delivery/delivery.service.ts';
import { CancelBody, Order } from '../orders/orders.schemas.ts';
import { PricedCart } from '../pricing/pricing.schemas.ts';
import { AnswerBody, AppTicket, AppTicketListQuery, OpenTicketBody, StoreIdParams } from '../tickets/tickets.schemas.ts';
import * as tickets from '../tickets/tickets.service.ts';
import { storeCatalog, storeCatalogFilters, storeProduct } from './store-app.catalog.ts';
import { storeAppContext, type StoreAppContext } from './store-app.context.ts';
import { buyerLanguage, wordedOrder } from './store-app.language.ts';
import type { Language } from '../messages/messages.templates.ts';
import { requireBuyerAccess, requireMembership } from './store-app.membership.ts';
import { Proposal } from '../sellers/sellers.schemas.ts';
import { propose, waitsForStore } from '../sellers/sellers.service.ts';
import { listNotifications, markRead } from './store-app.notifications.ts';
import { cancelStoreOrder, getStoreOrder, listStoreOrders, placeOrder } from './store-app.orders.ts';
import { etagged } from '../../lib/etag.ts';
import {
  CartBody,
  CatalogFilters,
  CatalogPage,
  CatalogQuery,
  Notification,
  NotificationQuery,
  PlaceBody,
  ProductParams,
  ReadAnswer,
  ReadBody,
  StoreCancelCodes,
  StoreParams,
  StoreProduct,
  StorePromotions,
} from './store-app.schemas.ts';
import { previewCart, storePromotions } from './store-app.service.ts';

const tags = ['store app'];
const store = { auth: 'store' } as const;
/** Store-side writes that change nothing the store cache holds (app.ts keeps it for them). */
const storeKeepingCache = { auth: 'store', keepsStoreCache: true } as const;

/** The store's STORE cancel codes (the supplier's, in its order), for the app's cancel form, worded in the buyer's language. */
async function storeCancelCodes(ctx: StoreAppContext, supplierId: number, language: Language | undefined) {
  const codes = await cancelCodes(ctx.db, supplierId);
  return { data: codes.filter((c) => c.usage === 'STORE').map(({ code, reason }) => ({ code, reason: language ? reasonIn(language, code, reason) : reason })) };
}

/** The buyer's language for this request (store-app.language.ts). */
const languageOf = (request: FastifyRequest) => buyerLanguage(request.headers['accept-language']);

/** A ticket of one of the person's stores (the membership guard on its store), or 404. */
async function requireTicketOfMember(ctx: StoreAppContext, personId: number, id: number) {
  const missing = () => notFound('ticket', String(id), '/params/id');
  const found = await tickets.ticketById(ctx.db, id);
  if (!found) throw missing();
  await requireMembership(ctx, personId, found.storeId, missing);
  return found;
}

export const storeAppRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const ctx = () => storeAppContext(deps);
    /** The store's supplier's time: an order's times follow a test twin's moved clock (src/modules/sandbox). */
    const now = async (supplierId: number) => (await deps.clocks.nowFor(supplierId)).toISOString();
    const ticketCtx = { db: deps.db, clocks: deps.clocks, wake: () => deps.workAccepted('webhooks') };
    /** The membership guard of every route with a store id: the store, or 404. */
    const member = (request: FastifyRequest<{ Params: { storeId: number } }>, context = ctx()) => requireMembership(context, storeUserOf(request), request.params.storeId);
    /** The guard of the routes a seller may use as a buyer would (reads and ordering; store-app.membership.ts). */
    const buyer = (request: FastifyRequest<{ Params: { storeId: number } }>, context = ctx()) => requireBuyerAccess(context, storeUserOf(request), request.params.storeId);

    app.get('/app/stores/:storeId/catalog', {
      config: store,
      schema: {
        tags,
        summary: 'What the store can buy: enabled, available, priced; with sizes, prices and promotions',
        description:
          'Answers an ETag: with If-None-Match naming it, 304 and no body. With changedSince (0, then the cursor of the last answer), only the items changed since, or every item marked full (README.md, "What changed since").',
        params: StoreParams,
        querystring: CatalogQuery,
        response: { 200: CatalogPage, ...problems(400, 401, 404) },
      },
      // A phone on a weak network asks again cheaply: ETag and 304 (src/lib/etag.ts).
      onSend: etagged,
      handler: async (request) => {
        const context = ctx();
        return storeCatalog(context, await buyer(request, context), request.query);
      },
    });

    app.get('/app/stores/:storeId/catalog/filters', {
      config: store,
      schema: { tags, summary: "The catalog filters' choices, with names: the categories and brands of what the store can buy", params: StoreParams, response: { 200: CatalogFilters, ...problems(400, 401, 404) } },
      handler: async (request) => {
        const context = ctx();
        return storeCatalogFilters(context, await buyer(request, context));
      },
    });

    app.get('/app/stores/:storeId/products/:code', {
      config: store,
      schema: {
        tags,
        summary: "One product of the store's catalog by its code: as the catalog answers it, with its sizes out of stock in the store's warehouse",
        description: 'A product the catalog does not list (disabled, not priced in the store\'s list, out of stock in every size) is a 404 naming /params/code (README.md, "One product").',
        params: ProductParams,
        response: { 200: StoreProduct, ...problems(400, 401, 404) },
      },
      handler: async (request) => {
        const context = ctx();
        return storeProduct(context, await buyer(request, context), request.params.code);
      },
    });

    app.get('/app/stores/:storeId/promotions', {
      config: store,
      schema: { tags, summary: "The promotions that take part for this store today (each product with its `name`, a crossed bonus's gift with its `productName`)", params: StoreParams, response: { 200: StorePromotions, ...problems(401, 404) } },
      handler: async (request) => {
        const context = ctx();
        return storePromotions(context, await buyer(request, context));
      },
    });

    app.post('/app/stores/:storeId/cart', {
      config: storeKeepingCache,
      schema: { tags, summary: 'Price a cart (changes nothing)', params: StoreParams, body: CartBody, response: { 200: PricedCart, ...problems(400, 401, 404) } },
      handler: async (request) => {
        const context = ctx();
        const store = await buyer(request, context);
        return previewCart(context, store, request.body, new Date(await now(store.store.supplier_id)));
      },
    });

    app.post('/app/stores/:storeId/orders', {
      config: storeKeepingCache,
      schema: {
        tags,
        summary: 'Place an order priced exactly as the preview (Idempotency-Key places one order only)',
        description:
          "The store's users and its supplier's sellers serving it may place one (a seller's carries placedBy and channel SELLER). A seller's order for a store that confirms its sellers' orders itself is not placed: it is kept as a proposal (202) until one of the store's users accepts it (src/modules/sellers/README.md).",
        params: StoreParams,
        body: PlaceBody,
        response: { 200: Order, 202: Proposal, ...problems(400, 401, 404, 409) },
      },
      handler: async (request, reply) => {
        const context = ctx();
        const store = await buyer(request, context);
        if (await waitsForStore(context.db, store)) return reply.code(202).send(await propose(context.db, store, request.body));
        return placeOrder(context, storeUserOf(request), store, request.body, await now(store.store.supplier_id));
      },
    });

    app.get('/app/stores/:storeId/orders', {
      config: store,
      schema: { tags, summary: "The store's orders, newest first", params: StoreParams, querystring: Type.Object(PageQuery), response: { 200: Page(Order), ...problems(400, 401, 404) } },
      handler: async (request) => {
        const context = ctx();
        const found = await listStoreOrders(context, await buyer(request, context), request.query, deps.config.timezone);
        const language = languageOf(request);
        return { ...found, data: found.data.map((o) => wordedOrder(o, language)) };
      },
    });

    app.get('/app/orders/:id', {
      config: store,
      schema: { tags, summary: 'One order of one of your stores', params: IdParams, response: { 200: Order, ...problems(401, 404) } },
      handler: async (request) => {
        const context = ctx();
        return wordedOrder(await getStoreOrder(context, storeUserOf(request), request.params.id), languageOf(request));
      },
    });

    app.post('/app/orders/:id/cancel', {
      config: storeKeepingCache,
      schema: { tags, summary: 'Cancel a PENDING order with a store cancellation code', params: IdParams, body: CancelBody, response: { 200: Order, ...problems(400, 401, 404, 409) } },
      handler: async (request) => {
        const context = ctx();
        return wordedOrder(await cancelStoreOrder(context, storeUserOf(request), request.params.id, request.body, now), languageOf(request));
      },
    });

    app.get('/app/stores/:storeId/cancel-codes', {
      config: store,
      schema: {
        tags,
        summary: "The reasons this store may give to cancel an order (its supplier's STORE cancel codes)",
        params: StoreParams,
        response: { 200: StoreCancelCodes, ...problems(400, 401, 404) },
      },
      handler: async (request) => {
        const context = ctx();
        const { store } = await member(request, context);
        return storeCancelCodes(context, store.supplier_id, languageOf(request));
      },
    });

    app.get('/app/stores/:storeId/delivery-options', {
      config: store,
      schema: {
        tags,
        summary: "The next dates this store's orders can be delivered on, with their cut-offs (none without a delivery zone)",
        params: StoreParams,
        response: { 200: DeliveryOptions, ...problems(400, 401, 404) },
      },
      handler: async (request) => {
        const context = ctx();
        const { store } = await buyer(request, context);
        // The supplier's time: a test twin's moved clock moves its cut-offs too (src/modules/sandbox).
        return optionsOf(await cachedZoneOfStore(context, store.id), await deps.clocks.nowFor(store.supplier_id));
      },
    });

    // The store's side of support tickets (the tickets module writes them).

    app.post('/app/stores/:storeId/tickets', {
      config: store,
      schema: {
        tags,
        summary: 'Open a ticket (PENDING); the supplier is called at create-ticket',
        params: StoreIdParams,
        body: OpenTicketBody,
        response: { 200: AppTicket, ...problems(400, 401, 404) },
      },
      handler: async (request) => {
        const { store } = await member(request);
        return tickets.openTicket(ticketCtx, { id: store.id, supplierId: store.supplier_id }, storeUserOf(request), request.body);
      },
    });

    app.get('/app/stores/:storeId/tickets', {
      config: store,
      schema: {
        tags,
        summary: "The store's tickets, newest first",
        params: StoreIdParams,
        querystring: AppTicketListQuery,
        response: { 200: Page(AppTicket), ...problems(400, 401, 404) },
      },
      handler: async (request) => {
        const { store } = await member(request);
        return tickets.listStoreTickets(deps.db, store.id, request.query);
      },
    });

    app.get('/app/tickets/:id', {
      config: store,
      schema: { tags, summary: 'A ticket with its messages', params: IdParams, response: { 200: AppTicket, ...problems(400, 401, 404) } },
      handler: async (request) => (await requireTicketOfMember(ctx(), storeUserOf(request), request.params.id)).view,
    });

    app.post('/app/tickets/:id/answer', {
      config: store,
      schema: {
        tags,
        summary: "Answer the supplier's request for information (only while ADDITIONAL_INFO_REQUESTED); the ticket goes IN_PROGRESS",
        params: IdParams,
        body: AnswerBody,
        response: { 200: AppTicket, ...problems(400, 401, 404, 409) },
      },
      handler: async (request) => {
        const found = await requireTicketOfMember(ctx(), storeUserOf(request), request.params.id);
        return tickets.answerTicket(ticketCtx, found.supplierId, request.params.id, request.body);
      },
    });

    // Notifications: of every store the person is a member of (store-app.notifications.ts).

    app.get('/app/notifications', {
      config: store,
      schema: {
        tags,
        summary: "What happened that concerns the person's stores, newest first",
        querystring: NotificationQuery,
        response: { 200: Page(Notification), ...problems(400, 401) },
      },
      handler: (request) => listNotifications(deps.db, storeUserOf(request), request.query),
    });

    app.post('/app/notifications/read', {
      config: store,
      schema: { tags, summary: 'Mark notifications read (for this person)', body: ReadBody, response: { 200: ReadAnswer, ...problems(400, 401) } },
      handler: (request) => markRead(deps.db, storeUserOf(request), request.body.ids),
    });
  };
