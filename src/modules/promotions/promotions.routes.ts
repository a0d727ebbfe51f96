import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { supplierOf } from '../auth/principal.ts';
import { CodeParams, problems } from '../../lib/schemas.ts';
import type { PromotionType } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { keepSentBranch } from './promotions.validation.ts';
import {
  CrossedBonusBody,
  IndividualBonusBody,
  MultipleDiscountBody,
  Promotion,
  PromotionListQuery,
  PromotionPage,
  PromotionStatusBody,
  SimpleDiscountBody,
} from './promotions.schemas.ts';
import { todayFor } from '../../lib/clock.ts';
import { getPromotion, listPromotions, setPromotionStatus, upsertPromotion } from './promotions.service.ts';
import { audited } from '../audit/audited.ts';

const read = { auth: 'supplier', scope: 'supplier/promotion.read' } as const;
const write = { auth: 'supplier', scope: 'supplier/promotion.write', audit: 'promotion' } as const;
const tags = ['promotions'];

const writers: { path: string; type: PromotionType; body: typeof SimpleDiscountBody | typeof MultipleDiscountBody | typeof IndividualBonusBody | typeof CrossedBonusBody; summary: string }[] = [
  { path: '/promotion/discount/simple', type: 'DISCOUNT_SIMPLE', body: SimpleDiscountBody, summary: 'Create or replace a simple discount (one product, tiered)' },
  { path: '/promotion/discount/multiple', type: 'DISCOUNT_MULTIPLE', body: MultipleDiscountBody, summary: 'Create or replace a multiple discount (products counted together)' },
  { path: '/promotion/bonus/individual', type: 'BONUS_INDIVIDUAL', body: IndividualBonusBody, summary: 'Create or replace an individual bonus (buy X of a product, get Y of it)' },
  { path: '/promotion/bonus/crossed', type: 'BONUS_CROSSED', body: CrossedBonusBody, summary: 'Create or replace a crossed bonus (buy these products, get another)' },
];

export const promotionRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Today by the supplier's clock: a test twin's may have been moved (src/modules/sandbox).
    const ctx = async (request: FastifyRequest) => ({ today: await todayFor(deps.clocks, supplierOf(request).supplierId, deps.config.timezone), publicUrl: deps.config.publicUrl });

    for (const w of writers) {
      app.put(w.path, {
        config: write,
        schema: { tags, summary: w.summary, body: w.body, response: { 200: Promotion, ...problems(400, 401, 403, 409, 413, 415) } },
        errorHandler: keepSentBranch,
        handler: async (request) => {
          const c = await ctx(request);
          return audited(deps, request, (db) => upsertPromotion(db, supplierOf(request).supplierId, w.type, request.body, c));
        },
      });
    }

    app.put('/promotion/:code/status', {
      config: write,
      schema: { tags, summary: 'Enable or disable a promotion', params: CodeParams, body: PromotionStatusBody, response: { 200: Promotion, ...problems(400, 401, 403, 404) } },
      handler: async (request) => {
        const c = await ctx(request);
        return audited(deps, request, (db) => setPromotionStatus(db, supplierOf(request).supplierId, request.params.code, request.body.enabled, c));
      },
    });

    app.get('/promotion/:code', {
      config: read,
      schema: { tags, summary: 'One promotion', params: CodeParams, response: { 200: Promotion, ...problems(401, 403, 404) } },
      handler: async (request) => getPromotion(deps.db, supplierOf(request).supplierId, request.params.code, { ...(await ctx(request)), cache: deps.storeCache }),
    });

    app.get('/promotion', {
      config: read,
      schema: {
        tags,
        summary: 'Promotions by start date, then code; from/to keep those whose start..end overlaps from..to; search in code and name; type',
        querystring: PromotionListQuery,
        response: { 200: PromotionPage, ...problems(400, 401, 403) },
      },
      handler: async (request) => listPromotions(deps.db, supplierOf(request).supplierId, request.query, await ctx(request)),
    });
  };
