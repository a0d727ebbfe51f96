import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { storeUserOf } from '../../http/auth.ts';
import { Code, Description, Page, PageQuery, problems, Units } from '../../http/common.schemas.ts';
import type { Deps } from '../../deps.ts';
import { CancelBody, Order, OrderIdParams } from '../orders/orders.schemas.ts';
import { todayIn } from '../../lib/clock.ts';
import { cancelStoreOrder, getStoreOrder, listStoreOrders, placeOrder } from './store-orders.service.ts';
import { previewCart, storeCatalog, storePromotions, type StorefrontContext } from './storefront.service.ts';

const StoreParams = Type.Object({ storeId: Type.Integer({ minimum: 1 }) });
const CartLine = Type.Object({ productInternalCode: Code(), units: Units(), quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }) });
const CartBody = Type.Object({ lines: Type.Array(CartLine, { minItems: 1, maxItems: 500 }) });
const PlaceBody = Type.Object({
  lines: Type.Array(CartLine, { minItems: 1, maxItems: 500 }),
  address: Type.Optional(Type.Object({}, { additionalProperties: true })),
  notes: Type.Optional(Description()),
});
const CatalogQuery = Type.Object({
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  category: Type.Optional(Code()),
  brand: Type.Optional(Code()),
  ...PageQuery,
});
const Loose = Type.Object({}, { additionalProperties: true, description: 'see pricing.md' });
const CatalogItem = Type.Object({
  internalCode: Type.String(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  brandInternalCode: Type.String(),
  categoryInternalCode: Type.String(),
  image: Type.Union([Type.String(), Type.Null()]),
  images: Type.Array(Type.String()),
  sizes: Type.Array(Type.Object({ units: Type.Integer(), name: Type.Union([Type.String(), Type.Null()]), price: Type.Number() })),
  promotions: Type.Array(Type.Object({ internalCode: Type.String(), name: Type.Union([Type.String(), Type.Null()]), type: Type.String() })),
});
const tags = ['store app'];
const store = { auth: 'store' } as const;

export const storefrontRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const ctx = (): StorefrontContext => ({ db: deps.db, today: todayIn(deps.clock, deps.config.timezone), currencyDecimals: deps.config.currencyDecimals, wake: deps.workAccepted });
    const now = () => deps.clock.now().toISOString();

    app.get('/app/stores/:storeId/catalog', {
      config: store,
      schema: { tags, summary: 'What the store can buy: enabled, available, priced; with sizes, prices and promotions', params: StoreParams, querystring: CatalogQuery, response: { 200: Page(CatalogItem), ...problems(400, 401, 404) } },
      handler: (request) => storeCatalog(ctx(), storeUserOf(request), request.params.storeId, request.query),
    });

    app.get('/app/stores/:storeId/promotions', {
      config: store,
      schema: { tags, summary: 'The promotions that take part for this store today', params: StoreParams, response: { 200: Type.Object({ data: Type.Array(Loose) }), ...problems(401, 404) } },
      handler: (request) => storePromotions(ctx(), storeUserOf(request), request.params.storeId),
    });

    app.post('/app/stores/:storeId/cart', {
      config: store,
      schema: { tags, summary: 'Price a cart (changes nothing)', params: StoreParams, body: CartBody, response: { 200: Loose, ...problems(400, 401, 404) } },
      handler: (request) => previewCart(ctx(), storeUserOf(request), request.params.storeId, request.body.lines),
    });

    app.post('/app/stores/:storeId/orders', {
      config: store,
      schema: { tags, summary: 'Place an order priced exactly as the preview (Idempotency-Key places one order only)', params: StoreParams, body: PlaceBody, response: { 200: Order, ...problems(400, 401, 404, 409) } },
      handler: (request) => placeOrder(ctx(), storeUserOf(request), request.params.storeId, request.body, now()),
    });

    app.get('/app/stores/:storeId/orders', {
      config: store,
      schema: { tags, summary: "The store's orders, newest first", params: StoreParams, querystring: Type.Object(PageQuery), response: { 200: Page(Order), ...problems(400, 401, 404) } },
      handler: (request) => listStoreOrders(deps.db, storeUserOf(request), request.params.storeId, request.query, deps.config.timezone),
    });

    app.get('/app/orders/:id', {
      config: store,
      schema: { tags, summary: 'One order of one of your stores', params: OrderIdParams, response: { 200: Order, ...problems(401, 404) } },
      handler: (request) => getStoreOrder(deps.db, storeUserOf(request), request.params.id),
    });

    app.post('/app/orders/:id/cancel', {
      config: store,
      schema: { tags, summary: 'Cancel a PENDING order with a store cancellation code', params: OrderIdParams, body: CancelBody, response: { 200: Order, ...problems(400, 401, 404, 409) } },
      handler: (request) => cancelStoreOrder(ctx(), storeUserOf(request), request.params.id, request.body, now()),
    });
  };
