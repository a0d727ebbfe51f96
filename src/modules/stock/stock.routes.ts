import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../../http/auth.ts';
import { BatchAccepted, problems } from '../../http/common.schemas.ts';
import type { Deps } from '../../deps.ts';
import { batchLimits, submitBatch } from '../batch/batch.service.ts';
import { stockBatchKind } from './stock.batch.ts';
import { StockBatchBody } from './stock.schemas.ts';

export const stockRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post('/batch/stock/grouper', {
      config: { auth: 'supplier', scope: 'supplier/stock.bulkwrite', batch: true },
      schema: {
        tags: ['stock'],
        summary: 'Set product availability per stock grouper, for a product or one package size (asynchronous)',
        body: StockBatchBody,
        response: { 202: BatchAccepted, ...problems(401, 402, 403, 409, 413, 415) },
      },
      handler: async (request, reply) =>
        reply.code(202).send(await submitBatch(deps.db, batchLimits(deps.config), supplierOf(request).supplierId, stockBatchKind, request.body, deps.workAccepted)),
    });
  };
