// The order guide's /app routes (README.md): thin, each behind the store app's one
// membership guard (another store answers 404, exactly as one that does not exist).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { storeUserOf } from '../store-app/store-app.principal.ts';
import { problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { storeAppContext } from '../store-app/store-app.context.ts';
// A seller serving the store reads the guide, fills and repeats as a buyer would; only the store's users change its preferences.
import { requireBuyerAccess, requireMembership } from '../store-app/store-app.membership.ts';
import { StoreParams } from '../store-app/store-app.schemas.ts';
import { Fill, FillBody, GuideProductParams, GuideQuery, OrderGuide, Preference, PreferenceBody, Repeat, RepeatParams } from './order-guide.schemas.ts';
import { fill, orderGuide, repeatOrder, setPreference } from './order-guide.service.ts';

const tags = ['store app'];
const store = { auth: 'store' } as const;
/** Answers that write nothing the store cache holds (preferences are read from the database). */
const storeKeepingCache = { auth: 'store', keepsStoreCache: true } as const;

export const orderGuideRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const ctx = () => storeAppContext(deps);
    const timezone = deps.config.timezone;

    app.get('/app/stores/:storeId/order-guide', {
      config: store,
      schema: {
        tags,
        summary: "\"Lo de siempre\": what the store bought in its supplier's window (90 days by default) and its pinned products, with today's price, badges and availability",
        params: StoreParams,
        querystring: GuideQuery,
        response: { 200: OrderGuide, ...problems(400, 401, 404) },
      },
      handler: async (request) => {
        const context = ctx();
        const member = await requireBuyerAccess(context, storeUserOf(request), request.params.storeId);
        return orderGuide(context, member, request.query, await deps.clocks.nowFor(member.store.supplier_id), timezone);
      },
    });

    app.put('/app/stores/:storeId/order-guide/:productInternalCode', {
      config: storeKeepingCache,
      schema: {
        tags,
        summary: "Pin, hide or set the par of a product in the store's order guide (fields left out stay as they are)",
        params: GuideProductParams,
        body: PreferenceBody,
        response: { 200: Preference, ...problems(400, 401, 404) },
      },
      handler: async (request) => {
        const context = ctx();
        const member = await requireMembership(context, storeUserOf(request), request.params.storeId);
        return setPreference(context, member, request.params.productInternalCode, request.body);
      },
    });

    app.post('/app/stores/:storeId/order-guide/fill', {
      config: storeKeepingCache,
      schema: {
        tags,
        summary: 'What to order to bring counted shelves back to their par: max(par − onHand, 0) rounded up to the case multiple (changes nothing)',
        params: StoreParams,
        body: FillBody,
        response: { 200: Fill, ...problems(400, 401, 404) },
      },
      handler: async (request) => {
        const context = ctx();
        const member = await requireBuyerAccess(context, storeUserOf(request), request.params.storeId);
        return fill(context, member, request.body, await deps.clocks.nowFor(member.store.supplier_id), timezone);
      },
    });

    app.post('/app/stores/:storeId/orders/:orderId/repeat', {
      config: storeKeepingCache,
      schema: {
        tags,
        summary: "A past order as it would be ordered today (places nothing): the lines still available priced by today's engine, those unavailable, those repriced",
        params: RepeatParams,
        response: { 200: Repeat, ...problems(400, 401, 404) },
      },
      handler: async (request) => {
        const context = ctx();
        const member = await requireBuyerAccess(context, storeUserOf(request), request.params.storeId);
        return repeatOrder(context, member, request.params.orderId);
      },
    });
  };
