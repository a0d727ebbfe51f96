// The supplier's own account as its credentials see it (the operators' side is /admin).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../../http/auth.ts';
import { problems } from '../../http/common.schemas.ts';
import type { Deps } from '../../deps.ts';
import { CredentialListQuery, CredentialPage } from './suppliers.schemas.ts';
import { listCredentials } from './suppliers.service.ts';

export const supplierRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/credential', {
      config: { auth: 'supplier', scope: 'supplier/credential.read' },
      schema: {
        tags: ['credentials'],
        summary: "The supplier's API credentials, newest first: client id, scopes, issued and revoked; never a secret",
        querystring: CredentialListQuery,
        response: { 200: CredentialPage, ...problems(400, 401, 403) },
      },
      handler: (request) => listCredentials(deps.db, supplierOf(request).supplierId, request.query),
    });
  };
