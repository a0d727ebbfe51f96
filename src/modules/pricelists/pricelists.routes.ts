import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../../http/auth.ts';
import { BatchAccepted, CodeParams, problems } from '../../http/common.schemas.ts';
import type { Deps } from '../../deps.ts';
import { batchLimits, submitBatch } from '../batch/batch.service.ts';
import { priceListBatchKind } from './pricelists.batch.ts';
import { CreatePriceList, PriceList, PriceListBatchBody, PriceListStatusBody, PriceListSummary } from './pricelists.schemas.ts';
import { createPriceList, getPriceList, setPriceListStatus } from './pricelists.service.ts';

const tags = ['price lists'];

export const priceListRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post('/pricelist', {
      config: { auth: 'supplier', scope: 'supplier/pricelist.write' },
      schema: {
        tags,
        summary: 'Create a price list (an existing code answers 404 ALREADY_EXISTS)',
        body: CreatePriceList,
        response: { 200: PriceList, ...problems(400, 401, 403, 404, 409) },
      },
      handler: (request) => createPriceList(deps.db, supplierOf(request).supplierId, request.body),
    });

    app.get('/pricelist/:code', {
      config: { auth: 'supplier', scope: 'supplier/pricelist.read' },
      schema: { tags, summary: 'A price list with its prices and stores', params: CodeParams, response: { 200: PriceList, ...problems(401, 403, 404) } },
      handler: (request) => getPriceList(deps.db, supplierOf(request).supplierId, request.params.code),
    });

    app.put('/pricelist/:code/status', {
      config: { auth: 'supplier', scope: 'supplier/pricelist.write' },
      schema: {
        tags,
        summary: 'Enable or disable a price list',
        params: CodeParams,
        body: PriceListStatusBody,
        response: { 200: PriceListSummary, ...problems(400, 401, 403, 404) },
      },
      handler: (request) => setPriceListStatus(deps.db, supplierOf(request).supplierId, request.params.code, request.body.enabled),
    });

    app.post('/batch/pricelist', {
      config: { auth: 'supplier', scope: 'supplier/pricelist.bulkwrite', batch: true },
      schema: {
        tags,
        summary: 'Upsert and remove prices and store links in bulk (asynchronous)',
        body: PriceListBatchBody,
        response: { 202: BatchAccepted, ...problems(401, 402, 403, 409, 413, 415) },
      },
      handler: async (request, reply) => {
        const accepted = await submitBatch(deps.db, batchLimits(deps.config), supplierOf(request).supplierId, priceListBatchKind, request.body, deps.workAccepted);
        return reply.code(202).send(accepted);
      },
    });
  };
