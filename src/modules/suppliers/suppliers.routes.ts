// The supplier's own account as its credentials see it (the operators' side is /admin).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../auth/principal.ts';
import { problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { ANY_SCOPE } from '../auth/scopes.ts';
import { supplierIdentity } from '../sandbox/sandbox.twins.ts';
import { CredentialListQuery, CredentialPage, SupplierIdentity } from './suppliers.schemas.ts';
import { issueOwnCredentials, listCredentials, revokeOwnCredentials } from './suppliers.service.ts';
import { audited } from '../audit/audited.ts';
import { Type } from 'typebox';
import { ClientIdParams, Credentials, IssueCredentialsBody, Revoked } from '../admin/admin.schemas.ts';

export const supplierRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/supplier', {
      // Who the caller is: any credential and any console session may ask.
      config: { auth: 'supplier', scope: ANY_SCOPE },
      schema: {
        tags: ['credentials'],
        summary: "The caller's supplier (code and name) and the token's mode: `live`, or `test` for a test credential (src/modules/sandbox)",
        response: { 200: SupplierIdentity, ...problems(401) },
      },
      handler: (request) => supplierIdentity(deps.db, supplierOf(request).supplierId, supplierOf(request).mode),
    });

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
      handler: (request) => audited(deps, request, (db) => issueOwnCredentials(db, supplierOf(request), request.body?.scopes, request.body?.mode)),
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
