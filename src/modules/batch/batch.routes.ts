import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../../http/auth.ts';
import { problems } from '../../http/common.schemas.ts';
import type { Deps } from '../../deps.ts';
import { BatchDetail, BatchDetailQuery, BatchParams, BatchStatus } from './batch.schemas.ts';
import { batchDetail, batchStatus } from './batch.service.ts';

const config = { auth: 'supplier', scope: 'supplier/batch.read' } as const;

export const batchRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const codeOf = (endpoint: string, action: string, item: unknown) => deps.batches.action(endpoint, action).code(item);

    app.get('/batch/:uuid/status', {
      config,
      schema: { tags: ['batches'], summary: 'Progress of a batch', params: BatchParams, response: { 200: BatchStatus, ...problems(400, 401, 403, 404) } },
      handler: (request) => batchStatus(deps.db, supplierOf(request).supplierId, request.params.uuid),
    });

    app.get('/batch/:uuid/detail', {
      config,
      schema: {
        tags: ['batches'],
        summary: 'Item-by-item results of a batch, in submission order',
        params: BatchParams,
        querystring: BatchDetailQuery,
        response: { 200: BatchDetail, ...problems(400, 401, 403, 404) },
      },
      handler: (request) => batchDetail(deps.db, codeOf, supplierOf(request).supplierId, request.params.uuid, request.query),
    });
  };
