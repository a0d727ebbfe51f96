import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../auth/principal.ts';
import { BatchAccepted, problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { BatchDetail, BatchDetailQuery, BatchListQuery, BatchPage, BatchParams, BatchStatus } from './batch.schemas.ts';
import { acceptBatch } from './batch.accept.ts';
import { batchDetail, batchStatus, listBatches } from './batch.service.ts';

const config = { auth: 'supplier', scope: 'supplier/batch.read' } as const;

/** Said of every batch endpoint: the limit is the configured one, checked when the request is accepted. */
const ITEM_LIMIT =
  'Asynchronous: the answer is the ids of the accepted batches. A request holds at most MAX_BATCH_REQUEST_ITEMS items, counted over all its nodes (a setting of the service); ' +
  'a larger one is refused whole with 402 TOO_MANY_ITEMS, nothing queued.';

export const batchRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // One POST route per declared batch kind (batch.kinds.ts, defineBatchKind).
    for (const kind of deps.batches.all()) {
      const { scope, tags, summary, preValidation, errorHandler } = kind.route;
      app.post(kind.endpoint, {
        config: { auth: 'supplier', scope, batch: true, audit: 'batch' },
        schema: { tags, summary, description: ITEM_LIMIT, body: kind.body, response: { 202: BatchAccepted, ...problems(401, 402, 403, 409, 413, 415) } },
        ...(preValidation ? { preValidation } : {}),
        ...(errorHandler ? { errorHandler } : {}),
        handler: async (request, reply) => reply.code(202).send(await acceptBatch(deps, request, kind)),
      });
    }

    app.get('/batch', {
      config,
      schema: {
        tags: ['batches'],
        summary: 'Batches newest first, with the count in each state; filter by status and endpoint',
        querystring: BatchListQuery,
        response: { 200: BatchPage, ...problems(400, 401, 403) },
      },
      handler: (request) => listBatches(deps.db, supplierOf(request).supplierId, request.query),
    });

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
      handler: (request) => batchDetail(deps.db, deps.batches, supplierOf(request).supplierId, request.params.uuid, request.query),
    });
  };
