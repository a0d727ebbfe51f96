import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../auth/principal.ts';
import { CodeParams, problems } from '../../lib/schemas.ts';
import type { GrouperKind } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { CreateGrouper, Grouper, GrouperListQuery, GrouperPage, GrouperStatusBody, UpdateGrouper } from './groupers.schemas.ts';
import { createGrouper, getGrouper, listGroupers, updateGrouper } from './groupers.service.ts';
import { audited } from '../audit/audited.ts';

const read = { auth: 'supplier', scope: 'supplier/grouper.read' } as const;
const write = { auth: 'supplier', scope: 'supplier/grouper.write', audit: 'grouper' } as const;

export const grouperRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    for (const kind of ['promotion', 'stock'] as GrouperKind[]) {
      const tags = [`${kind} groupers`];
      const what = kind === 'promotion' ? 'promotion grouper (a commercial segment)' : 'stock grouper (a warehouse)';

      app.post(`/grouper/${kind}`, {
        config: write,
        schema: { tags, summary: `Create a ${what}`, body: CreateGrouper, response: { 200: Grouper, ...problems(400, 401, 403, 409) } },
        handler: (request) => audited(deps, request, (db) => createGrouper(db, supplierOf(request).supplierId, kind, request.body)),
      });

      app.put(`/grouper/:code/${kind}`, {
        config: write,
        schema: { tags, summary: `Rename a ${kind} grouper`, params: CodeParams, body: UpdateGrouper, response: { 200: Grouper, ...problems(400, 401, 403, 404) } },
        handler: (request) => audited(deps, request, (db) => updateGrouper(db, supplierOf(request).supplierId, kind, request.params.code, { name: request.body.name })),
      });

      app.put(`/grouper/:code/status/${kind}`, {
        config: write,
        schema: { tags, summary: `Enable or disable a ${kind} grouper`, params: CodeParams, body: GrouperStatusBody, response: { 200: Grouper, ...problems(400, 401, 403, 404) } },
        handler: (request) => audited(deps, request, (db) => updateGrouper(db, supplierOf(request).supplierId, kind, request.params.code, { enabled: request.body.enabled })),
      });

      app.get(`/grouper/:code/${kind}`, {
        config: read,
        schema: { tags, summary: `A ${kind} grouper with its stores`, params: CodeParams, response: { 200: Grouper, ...problems(401, 403, 404) } },
        handler: (request) => getGrouper(deps.db, supplierOf(request).supplierId, kind, request.params.code),
      });

      app.get(`/grouper/${kind}`, {
        config: read,
        schema: {
          tags,
          summary: `${kind === 'promotion' ? 'Promotion' : 'Stock'} groupers by code, with how many stores each holds; search in code and name`,
          querystring: GrouperListQuery,
          response: { 200: GrouperPage, ...problems(400, 401, 403) },
        },
        handler: (request) => listGroupers(deps.db, supplierOf(request).supplierId, kind, request.query),
      });
    }
  };
