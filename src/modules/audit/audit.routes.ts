// The audit log: operators read every entry under /admin, a supplier its own.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../auth/principal.ts';
import { problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { AdminAuditQuery, AuditPage, AuditQuery } from './audit.schemas.ts';
import { listAudit } from './audit.service.ts';

const summary = 'Who changed what, newest first (filters combine; from inclusive, to exclusive)';

export const auditRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/audit', {
      config: { auth: 'supplier', scope: 'supplier/audit.read' },
      schema: { tags: ['audit'], summary, querystring: AuditQuery, response: { 200: AuditPage, ...problems(400, 401, 403) } },
      handler: (request) => listAudit(deps.db, supplierOf(request).supplierId, request.query, 'supplier'),
    });

    app.get('/admin/audit', {
      config: { auth: 'admin' },
      schema: { tags: ['admin'], summary, querystring: AdminAuditQuery, response: { 200: AuditPage, ...problems(400, 401) } },
      handler: (request) => {
        const { supplier, ...query } = request.query;
        return listAudit(deps.db, supplier, query, 'operator');
      },
    });
  };
