// The operators' API under /admin, authorised by the ADMIN_TOKEN bearer token.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { supplierOfClient } from '../auth/credentials.repository.ts';
import * as suppliers from '../suppliers/suppliers.service.ts';
import { CredentialListQuery, CredentialPage } from '../suppliers/suppliers.schemas.ts';
import { systemStatus } from './admin.service.ts';
import { audited } from '../audit/audited.ts';
import {
  ClientIdParams,
  CreateSupplierBody,
  Credentials,
  IssueCredentialsBody,
  Revoked,
  Secret,
  Settings,
  SettingsBody,
  Supplier,
  SupplierIdParams,
  SupplierStatusBody,
  SystemStatus,
  Webhook,
  WebhookBody,
} from './admin.schemas.ts';

const config = { auth: 'admin' } as const;
const writes = (audit: string) => ({ ...config, audit });
// Answers that issue a secret: an Idempotency-Key replay leaves these fields out (src/http/idempotency.ts).
const secret = (...secretFields: string[]) => ({ secretFields });
const tags = ['admin'];

export const adminRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { db } = deps;

    app.post('/admin/suppliers', {
      config: writes('supplier'),
      schema: { tags, summary: 'Create a supplier', body: CreateSupplierBody, response: { 200: Supplier, ...problems(400, 401, 409) } },
      handler: (request) => audited(deps, request, (db) => suppliers.createSupplier(db, request.body), { supplierId: (created) => created.id }),
    });

    app.get('/admin/system', {
      config,
      schema: { tags, summary: 'Queues (depth and oldest waiting item), failing webhook deliveries by supplier, version and database', response: { 200: SystemStatus, ...problems(401) } },
      handler: () => systemStatus(db, deps.database.kind),
    });

    app.get('/admin/suppliers', {
      config,
      schema: { tags, summary: 'Every supplier', response: { 200: Type.Array(Supplier), ...problems(401) } },
      handler: () => suppliers.listSuppliers(db),
    });

    app.put('/admin/suppliers/:supplierId/status', {
      config: writes('supplier'),
      schema: {
        tags,
        summary: 'Enable or disable a supplier: disabled, its credentials and console sessions are refused at once and its stores show to buyers as closed',
        params: SupplierIdParams,
        body: SupplierStatusBody,
        response: { 200: Supplier, ...problems(400, 401, 404) },
      },
      handler: (request) => audited(deps, request, (db) => suppliers.setSupplierStatus(db, request.params.supplierId, request.body.enabled, deps.liveCredentials)),
    });

    app.post('/admin/suppliers/:supplierId/credentials', {
      config: { ...writes('credential'), ...secret('apiKey', 'clientSecret') },
      schema: {
        tags,
        summary: 'Issue an API key and client credentials (every scope when none are named)',
        params: SupplierIdParams,
        body: Type.Optional(IssueCredentialsBody),
        response: { 200: Credentials, ...problems(400, 401, 404) },
      },
      handler: (request) => audited(deps, request, (db) => suppliers.issueCredentials(db, request.params.supplierId, request.body?.scopes, request.body?.mode)),
    });

    app.delete('/admin/credentials/:clientId', {
      config: writes('credential'),
      schema: { tags, summary: 'Revoke a client: its tokens stop working at once', params: ClientIdParams, response: { 200: Revoked, ...problems(401, 404) } },
      handler: (request) => audited(deps, request, (db) => suppliers.revokeCredentials(db, request.params.clientId, deps.liveCredentials), {
          supplierId: (_revoked, trx) => supplierOfClient(trx, request.params.clientId),
        }),
    });

    app.get('/admin/suppliers/:supplierId/credentials', {
      config,
      schema: {
        tags,
        summary: "A supplier's API credentials, newest first: client id, scopes, issued and revoked; never a secret",
        params: SupplierIdParams,
        querystring: CredentialListQuery,
        response: { 200: CredentialPage, ...problems(400, 401, 404) },
      },
      handler: (request) => suppliers.listSupplierCredentials(db, request.params.supplierId, request.query),
    });

    app.put('/admin/suppliers/:supplierId/webhook', {
      config: { ...writes('webhook'), ...secret('secret') },
      schema: { tags, summary: "Set the supplier's webhook base URL", params: SupplierIdParams, body: WebhookBody, response: { 200: Webhook, ...problems(400, 401, 404) } },
      handler: (request) => audited(deps, request, (db) => suppliers.configureWebhook(db, request.params.supplierId, request.body)),
    });

    app.post('/admin/suppliers/:supplierId/webhook/rotate-secret', {
      config: { ...writes('webhook'), ...secret('secret') },
      schema: { tags, summary: 'Rotate the webhook secret (the old one signs alongside for 24 h)', params: SupplierIdParams, response: { 200: Secret, ...problems(401, 404, 409) } },
      handler: (request) => audited(deps, request, (db) => suppliers.rotateWebhookSecret(db, request.params.supplierId)),
    });

    app.put('/admin/suppliers/:supplierId/settings', {
      config: writes('supplier-settings'),
      schema: { tags, summary: "The supplier's settings (global minimum order, order guide window)", params: SupplierIdParams, body: SettingsBody, response: { 200: Settings, ...problems(400, 401, 404) } },
      handler: (request) => audited(deps, request, (db) => suppliers.updateSettings(db, request.params.supplierId, request.body)),
    });
  };
