import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../../http/auth.ts';
import { BatchAccepted, CodeParams, problems } from '../../http/common.schemas.ts';
import type { GrouperKind } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { batchLimits, submitBatch } from '../batch/batch.service.ts';
import { promotionGrouperBatchKind, stockGrouperBatchKind } from './groupers.batch.ts';
import { CreateGrouper, Grouper, GrouperBatchBody, GrouperStatusBody, UpdateGrouper } from './groupers.schemas.ts';
import { createGrouper, getGrouper, updateGrouper } from './groupers.service.ts';

const read = { auth: 'supplier', scope: 'supplier/grouper.read' } as const;
const write = { auth: 'supplier', scope: 'supplier/grouper.write' } as const;
const bulk = { auth: 'supplier', scope: 'supplier/grouper.bulkwrite', batch: true } as const;
const kinds = { promotion: promotionGrouperBatchKind, stock: stockGrouperBatchKind };

export const grouperRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    for (const kind of ['promotion', 'stock'] as GrouperKind[]) {
      const tags = [`${kind} groupers`];
      const what = kind === 'promotion' ? 'promotion grouper (a commercial segment)' : 'stock grouper (a warehouse)';

      app.post(`/grouper/${kind}`, {
        config: write,
        schema: { tags, summary: `Create a ${what}`, body: CreateGrouper, response: { 200: Grouper, ...problems(400, 401, 403, 409) } },
        handler: (request) => createGrouper(deps.db, supplierOf(request).supplierId, kind, request.body),
      });

      app.put(`/grouper/:code/${kind}`, {
        config: write,
        schema: { tags, summary: `Rename a ${kind} grouper`, params: CodeParams, body: UpdateGrouper, response: { 200: Grouper, ...problems(400, 401, 403, 404) } },
        handler: (request) => updateGrouper(deps.db, supplierOf(request).supplierId, kind, request.params.code, { name: request.body.name }),
      });

      app.put(`/grouper/:code/status/${kind}`, {
        config: write,
        schema: { tags, summary: `Enable or disable a ${kind} grouper`, params: CodeParams, body: GrouperStatusBody, response: { 200: Grouper, ...problems(400, 401, 403, 404) } },
        handler: (request) => updateGrouper(deps.db, supplierOf(request).supplierId, kind, request.params.code, { enabled: request.body.enabled }),
      });

      app.get(`/grouper/:code/${kind}`, {
        config: read,
        schema: { tags, summary: `A ${kind} grouper with its stores`, params: CodeParams, response: { 200: Grouper, ...problems(401, 403, 404) } },
        handler: (request) => getGrouper(deps.db, supplierOf(request).supplierId, kind, request.params.code),
      });

      app.post(`/batch/grouper/${kind}`, {
        config: bulk,
        schema: {
          tags,
          summary: kind === 'stock' ? 'Add and remove stores in bulk (adding a store moves it from its stock grouper)' : 'Add and remove stores in bulk',
          body: GrouperBatchBody,
          response: { 202: BatchAccepted, ...problems(401, 402, 403, 409, 413, 415) },
        },
        handler: async (request, reply) =>
          reply.code(202).send(await submitBatch(deps.db, batchLimits(deps.config), supplierOf(request).supplierId, kinds[kind], request.body, deps.workAccepted)),
      });
    }
  };
