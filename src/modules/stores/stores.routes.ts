import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../../http/auth.ts';
import { BatchAccepted, CodeParams, problems } from '../../http/common.schemas.ts';
import type { Deps } from '../../deps.ts';
import { batchLimits, submitBatch } from '../batch/batch.service.ts';
import { storeBatchKind } from './stores.batch.ts';
import { Store, StoreBatchBody, StoreUsers, UsersBody } from './stores.schemas.ts';
import { addUsers, getStore, removeUsers } from './stores.service.ts';

const tags = ['stores'];

export const storeRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post('/batch/store', {
      config: { auth: 'supplier', scope: 'supplier/store.bulkwrite', batch: true },
      schema: {
        tags,
        summary: 'Upsert stores with their price list, stock grouper, promotion groupers and settings (asynchronous)',
        body: StoreBatchBody,
        response: { 202: BatchAccepted, ...problems(401, 402, 403, 409, 413, 415) },
      },
      handler: async (request, reply) =>
        reply.code(202).send(await submitBatch(deps.db, batchLimits(deps.config), supplierOf(request).supplierId, storeBatchKind, request.body, deps.workAccepted)),
    });

    app.get('/store/:code', {
      config: { auth: 'supplier', scope: 'supplier/store.read' },
      schema: { tags, summary: 'A store with its links, settings and users', params: CodeParams, response: { 200: Store, ...problems(401, 403, 404) } },
      handler: (request) => getStore(deps.db, supplierOf(request).supplierId, request.params.code),
    });

    for (const [verb, fn] of [
      ['add', addUsers],
      ['remove', removeUsers],
    ] as const) {
      app.post(`/store/:code/${verb}/user`, {
        config: { auth: 'supplier', scope: 'supplier/store.write' },
        schema: {
          tags,
          summary: verb === 'add' ? 'Give people (by phone or email) access to the store' : 'Take people off the store',
          params: CodeParams,
          body: UsersBody,
          response: { 200: StoreUsers, ...problems(400, 401, 403, 404, 409) },
        },
        handler: (request) => fn(deps.db, supplierOf(request).supplierId, request.params.code, request.body.users),
      });
    }
  };
