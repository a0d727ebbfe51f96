// Recommendations' routes (README.md): the supplier's (keyed by internalCode, under the
// promotion scopes: README, "Scopes") and the store's read of its own, behind the store
// app's membership guard. Thin: parse (the schema), call a service, reply.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { storeUserOf } from '../store-app/store-app.principal.ts';
import { supplierOf } from '../auth/principal.ts';
import { audited } from '../audit/audited.ts';
import { CodeParams, problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { todayFor } from '../../lib/clock.ts';
import { storeAppContext } from '../store-app/store-app.context.ts';
import { requireBuyerAccess } from '../store-app/store-app.membership.ts';
import { StoreParams } from '../store-app/store-app.schemas.ts';
import { Recommendation, RecommendationBody, RecommendationListQuery, RecommendationPage, StoreRecommendations } from './recommendations.schemas.ts';
import { getRecommendation, listRecommendations, putRecommendation, storeRecommendations } from './recommendations.service.ts';

const read = { auth: 'supplier', scope: 'supplier/promotion.read' } as const;
const write = { auth: 'supplier', scope: 'supplier/promotion.write', audit: 'recommendation' } as const;
const tags = ['recommendations'];

export const recommendationRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // The supplier's today: a test twin's clock may have been moved (src/modules/sandbox).
    const today = (supplierId: number) => todayFor(deps.clocks, supplierId, deps.config.timezone);

    app.put('/recommendation/:code', {
      config: write,
      schema: {
        tags,
        summary: 'Create or replace a recommendation for stores, promotion groupers or every store',
        params: CodeParams,
        body: RecommendationBody,
        response: { 200: Recommendation, ...problems(400, 401, 403, 413, 415) },
      },
      handler: async (request) => {
        const { supplierId } = supplierOf(request);
        const day = await today(supplierId);
        return audited(deps, request, (db) => putRecommendation(db, supplierId, request.params.code, request.body, day));
      },
    });

    app.get('/recommendation/:code', {
      config: read,
      schema: { tags, summary: 'One recommendation', params: CodeParams, response: { 200: Recommendation, ...problems(401, 403, 404) } },
      handler: async (request) => getRecommendation(deps.db, supplierOf(request).supplierId, request.params.code, await today(supplierOf(request).supplierId)),
    });

    app.get('/recommendation', {
      config: read,
      schema: {
        tags,
        summary: 'Recommendations by start date, then code; search in code and name; reason; active (shown today)',
        querystring: RecommendationListQuery,
        response: { 200: RecommendationPage, ...problems(400, 401, 403) },
      },
      handler: async (request) => listRecommendations(deps.db, supplierOf(request).supplierId, request.query, await today(supplierOf(request).supplierId)),
    });

    app.get('/app/stores/:storeId/recommendations', {
      config: { auth: 'store' },
      schema: {
        tags: ['store app'],
        summary: "\"Sugerido para ti\": the supplier's recommendations shown to the store today, and the platform's cadence suggestion (products usually bought every N days and not bought for longer)",
        params: StoreParams,
        response: { 200: StoreRecommendations, ...problems(400, 401, 404) },
      },
      handler: async (request) => {
        const context = storeAppContext(deps);
        const member = await requireBuyerAccess(context, storeUserOf(request), request.params.storeId);
        return storeRecommendations(context, member, await deps.clocks.nowFor(member.store.supplier_id), deps.config.timezone);
      },
    });
  };
