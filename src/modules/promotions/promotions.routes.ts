import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { supplierOf } from '../../http/auth.ts';
import { BatchAccepted, CodeParams, problems } from '../../http/common.schemas.ts';
import type { PromotionType } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { batchLimits, submitBatch } from '../batch/batch.service.ts';
import { promotionBatchKind } from './promotions.batch.ts';
import {
  CrossedBonusBody,
  IndividualBonusBody,
  MultipleDiscountBody,
  Promotion,
  PromotionBatchBody,
  PromotionListQuery,
  PromotionPage,
  PromotionStatusBody,
  SimpleDiscountBody,
} from './promotions.schemas.ts';
import { todayIn } from '../../lib/clock.ts';
import { getPromotion, listPromotions, setPromotionStatus, upsertPromotion } from './promotions.service.ts';

const read = { auth: 'supplier', scope: 'supplier/promotion.read' } as const;
const write = { auth: 'supplier', scope: 'supplier/promotion.write' } as const;
const bulk = { auth: 'supplier', scope: 'supplier/promotion.bulkwrite', batch: true } as const;
const tags = ['promotions'];

const writers: { path: string; type: PromotionType; body: typeof SimpleDiscountBody | typeof MultipleDiscountBody | typeof IndividualBonusBody | typeof CrossedBonusBody; summary: string }[] = [
  { path: '/promotion/discount/simple', type: 'DISCOUNT_SIMPLE', body: SimpleDiscountBody, summary: 'Create or replace a simple discount (one product, tiered)' },
  { path: '/promotion/discount/multiple', type: 'DISCOUNT_MULTIPLE', body: MultipleDiscountBody, summary: 'Create or replace a multiple discount (products counted together)' },
  { path: '/promotion/bonus/individual', type: 'BONUS_INDIVIDUAL', body: IndividualBonusBody, summary: 'Create or replace an individual bonus (buy X of a product, get Y of it)' },
  { path: '/promotion/bonus/crossed', type: 'BONUS_CROSSED', body: CrossedBonusBody, summary: 'Create or replace a crossed bonus (buy these products, get another)' },
];

function valueAt(body: unknown, pointer: string): unknown {
  let value = body;
  for (const token of pointer.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return value;
}

/**
 * The one product of a simple discount or an individual bonus is an object or a one-item
 * array (a union), and Ajv reports the failure of both branches. Keep only the failures of
 * the branch the value was sent as, so the pointers and codes name the real problem.
 * Rethrown, the error goes on to the app's one error handler.
 */
function keepSentBranch(error: FastifyError, request: FastifyRequest): never {
  if (error.validationContext === 'body' && error.validation) {
    const errors = error.validation as unknown as ErrorObject[];
    const unions = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
    const otherBranch = (e: ErrorObject) => {
      if (!unions.has(e.instancePath) || e.keyword !== 'type') return false;
      const value = valueAt(request.body, e.instancePath);
      const expected = (e.params as { type: string }).type;
      return (expected === 'array' && value !== null && typeof value === 'object' && !Array.isArray(value)) || (expected === 'object' && Array.isArray(value));
    };
    const kept = errors.filter((e) => !otherBranch(e));
    const explained = (path: string) => kept.some((e) => e.keyword !== 'anyOf' && (e.instancePath === path || e.instancePath.startsWith(`${path}/`)));
    const pruned = kept.filter((e) => !(e.keyword === 'anyOf' && explained(e.instancePath)));
    errors.splice(0, errors.length, ...pruned);
  }
  throw error;
}

export const promotionRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const ctx = () => ({ today: todayIn(deps.clock, deps.config.timezone), publicUrl: deps.config.publicUrl });

    for (const w of writers) {
      app.put(w.path, {
        config: write,
        schema: { tags, summary: w.summary, body: w.body, response: { 200: Promotion, ...problems(400, 401, 403, 409, 413, 415) } },
        errorHandler: keepSentBranch,
        handler: (request) => upsertPromotion(deps.db, supplierOf(request).supplierId, w.type, request.body, ctx()),
      });
    }

    app.put('/promotion/:code/status', {
      config: write,
      schema: { tags, summary: 'Enable or disable a promotion', params: CodeParams, body: PromotionStatusBody, response: { 200: Promotion, ...problems(400, 401, 403, 404) } },
      handler: (request) => setPromotionStatus(deps.db, supplierOf(request).supplierId, request.params.code, request.body.enabled, ctx()),
    });

    app.get('/promotion/:code', {
      config: read,
      schema: { tags, summary: 'One promotion', params: CodeParams, response: { 200: Promotion, ...problems(401, 403, 404) } },
      handler: (request) => getPromotion(deps.db, supplierOf(request).supplierId, request.params.code, ctx()),
    });

    app.get('/promotion', {
      config: read,
      schema: {
        tags,
        summary: 'Promotions by start date, then code; from/to keep those whose start..end overlaps from..to',
        querystring: PromotionListQuery,
        response: { 200: PromotionPage, ...problems(400, 401, 403) },
      },
      handler: (request) => listPromotions(deps.db, supplierOf(request).supplierId, request.query, ctx()),
    });

    app.post('/batch/promotion', {
      config: bulk,
      schema: {
        tags,
        summary: 'Upsert promotions of every type and remove promotions in bulk (asynchronous; removes first)',
        body: PromotionBatchBody,
        response: { 202: BatchAccepted, ...problems(401, 402, 403, 409, 413, 415) },
      },
      errorHandler: keepSentBranch,
      handler: async (request, reply) =>
        reply.code(202).send(await submitBatch(deps.db, batchLimits(deps.config), supplierOf(request).supplierId, promotionBatchKind, request.body, deps.workAccepted)),
    });
  };
