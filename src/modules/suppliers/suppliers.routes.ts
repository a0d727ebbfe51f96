// The supplier's own account as its credentials see it (the operators' side is /admin).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../../http/auth.ts';
import { problems } from '../../http/common.schemas.ts';
import type { Deps } from '../../deps.ts';
import { CredentialListQuery, CredentialPage } from './suppliers.schemas.ts';
import { issueOwnCredentials, listCredentials, revokeOwnCredentials } from './suppliers.service.ts';
import { audited } from '../../http/audit.ts';
import { Type } from 'typebox';
import { ClientIdParams, Credentials, IssueCredentialsBody, Revoked } from '../admin/admin.schemas.ts';

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

    app.post('/credential', {
      // An Idempotency-Key replay leaves the secrets out (src/http/idempotency.ts).
      config: { auth: 'supplier', scope: 'supplier/credential.write', audit: 'credential', secretFields: ['apiKey', 'clientSecret'] },
      schema: {
        tags: ['credentials'],
        summary: 'Issue an API key and client credentials (shown once); every scope but the owner-only ones when none are named',
        description: 'supplier/member.write and supplier/credential.write are granted by an operator only (POST /admin/suppliers/{supplierId}/credentials).',
        body: Type.Optional(IssueCredentialsBody),
        response: { 200: Credentials, ...problems(400, 401, 403) },
      },
      handler: (request) => audited(deps, request, (db) => issueOwnCredentials(db, supplierOf(request).supplierId, request.body?.scopes)),
    });

    app.delete('/credential/:clientId', {
      config: { auth: 'supplier', scope: 'supplier/credential.write', audit: 'credential' },
      schema: {
        tags: ['credentials'],
        summary: "Revoke one of the supplier's clients: its tokens stop working at once",
        params: ClientIdParams,
        response: { 200: Revoked, ...problems(401, 403, 404) },
      },
      handler: (request) => audited(deps, request, (db) => revokeOwnCredentials(db, supplierOf(request).supplierId, request.params.clientId, deps.liveCredentials)),
    });
  };
