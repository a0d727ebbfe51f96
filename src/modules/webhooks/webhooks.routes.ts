// The webhook's settings, the delivery log, replays and test pings: the supplier's own
// (scoped) and the operators' (under /admin, for every supplier). Setting the URL and
// rotating the secret call the same service functions as the admin routes
// (../suppliers/suppliers.service.ts), so the rules (a secret made once, the rotated-out one
// signing 24 h more, replays without the secret) are written once.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../auth/principal.ts';
import { IdParams, Page, problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { Secret, SupplierIdParams, Webhook, WebhookBody } from '../admin/admin.schemas.ts';
import { configureWebhook, rotateWebhookSecret } from '../suppliers/suppliers.service.ts';
import { Delivery, DeliveryDetail, DeliveryQuery, WebhookSettings } from './webhooks.schemas.ts';
import { deliveryWithBody, listDeliveries, listSupplierDeliveries, redeliver, sendTestPing, supplierWebhookSettings, webhookSettings } from './webhooks.service.ts';
import { audited } from '../audit/audited.ts';
import { findDelivery } from './webhooks.log.repository.ts';

const tags = ['webhooks'];
const admin = { auth: 'admin' } as const;
// Answers that carry the signing secret: an Idempotency-Key replay leaves it out (src/http/idempotency.ts).
const secretWrite = { auth: 'supplier', scope: 'supplier/webhook.write', audit: 'webhook', secretFields: ['secret'] } as const;

export const webhookRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { db } = deps;
    const ping = { db, sender: deps.webhookSender, clock: deps.clock, leaseSeconds: deps.config.webhookLeaseSeconds, metrics: deps.metrics };

    app.get('/webhook', {
      config: { auth: 'supplier', scope: 'supplier/webhook.read' },
      schema: {
        tags,
        summary: "The supplier's webhook settings: URL and state, never the secret",
        response: { 200: WebhookSettings, ...problems(401, 403) },
      },
      handler: (request) => webhookSettings(db, supplierOf(request).supplierId, deps.clock.now()),
    });

    app.put('/webhook', {
      config: secretWrite,
      schema: {
        tags,
        summary: "Set the supplier's own webhook base URL and state; the answer carries the signing secret",
        description:
          'The same operation as PUT /admin/suppliers/{supplierId}/webhook: the first call makes the secret, later calls change the URL and state and answer the secret the webhook has. ' +
          'An Idempotency-Key replay answers without the secret (`note` instead). The address is checked when a call is sent (refused addresses fail the attempt). ' +
          "The URL's user and password are sent as HTTP Basic credentials; every answer shows the password and the query's values as `***`, and a URL still holding `***` there is refused (400): leave `baseUrl` out to change only `enabled`.",
        body: WebhookBody,
        response: { 200: Webhook, ...problems(400, 401, 403) },
      },
      handler: (request) => audited(deps, request, (db) => configureWebhook(db, supplierOf(request).supplierId, request.body)),
    });

    app.post('/webhook/rotate-secret', {
      config: secretWrite,
      schema: {
        tags,
        summary: 'Rotate the signing secret: the new one is answered once, the old one signs beside it for 24 h',
        description: 'An Idempotency-Key replay answers without the secret (`note` instead). A supplier whose webhook was never set answers 409 WEBHOOK_NOT_CONFIGURED.',
        response: { 200: Secret, ...problems(401, 403, 409) },
      },
      handler: (request) => audited(deps, request, (db) => rotateWebhookSecret(db, supplierOf(request).supplierId)),
    });

    app.get('/webhook/deliveries', {
      config: { auth: 'supplier', scope: 'supplier/webhook.read' },
      schema: {
        tags,
        summary: 'Webhook deliveries, newest first, with every attempt',
        querystring: DeliveryQuery,
        response: { 200: Page(Delivery), ...problems(400, 401, 403) },
      },
      handler: (request) => listDeliveries(db, supplierOf(request).supplierId, request.query, deps.config.timezone),
    });

    app.get('/webhook/deliveries/:id', {
      config: { auth: 'supplier', scope: 'supplier/webhook.read' },
      schema: {
        tags,
        summary: 'One delivery with its attempts and the request body they sent',
        params: IdParams,
        response: { 200: DeliveryDetail, ...problems(400, 401, 403, 404) },
      },
      handler: (request) => deliveryWithBody(db, supplierOf(request).supplierId, request.params.id),
    });

    app.post('/webhook/deliveries/:id/redeliver', {
      config: { auth: 'supplier', scope: 'supplier/webhook.write', audit: 'webhook-delivery' },
      schema: {
        tags,
        summary: "Send a delivery's event again now, as a new delivery with the same webhook-id",
        description:
          'While a delivery of the same event is still pending (this one retrying or waiting, or an earlier redelivery), no second one is queued: that delivery is made due now and answered (`waitingFor` says what still holds it back), so the receiver gets the event once.',
        params: IdParams,
        response: { 200: Delivery, ...problems(400, 401, 403, 404) },
      },
      handler: (request) => audited(deps, request, (db) => redeliver(db, supplierOf(request).supplierId, request.params.id)),
    });

    app.post('/webhook/test', {
      // Not audited: a ping changes nothing the supplier owns, and every ping is in the delivery log.
      config: { auth: 'supplier', scope: 'supplier/webhook.write', audit: false },
      schema: {
        tags,
        summary: 'Send a signed ping to {baseUrl}/webhooks/ping now and answer with the attempt',
        response: { 200: Delivery, ...problems(401, 403, 409) },
      },
      handler: (request) => sendTestPing(ping, supplierOf(request).supplierId),
    });

    app.get('/admin/suppliers/:supplierId/webhook', {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: "A supplier's webhook settings: URL and state, never the secret",
        params: SupplierIdParams,
        response: { 200: WebhookSettings, ...problems(400, 401, 404) },
      },
      handler: (request) => supplierWebhookSettings(db, request.params.supplierId, deps.clock.now()),
    });

    app.get('/admin/suppliers/:supplierId/webhook/deliveries', {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: "A supplier's webhook deliveries, newest first, with every attempt",
        params: SupplierIdParams,
        querystring: DeliveryQuery,
        response: { 200: Page(Delivery), ...problems(400, 401, 404) },
      },
      handler: (request) => listSupplierDeliveries(db, request.params.supplierId, request.query, deps.config.timezone),
    });

    app.post('/admin/webhook/deliveries/:id/redeliver', {
      config: { ...admin, audit: 'webhook-delivery' },
      schema: {
        tags: ['admin'],
        summary: "Send any supplier's delivery again now, as a new delivery with the same webhook-id",
        description: 'While a delivery of the same event is still pending, that delivery is made due now and answered; no second one is queued.',
        params: IdParams,
        response: { 200: Delivery, ...problems(400, 401, 404) },
      },
      handler: (request) =>
        audited(deps, request, (db) => redeliver(db, undefined, request.params.id), {
          supplierId: async (_delivery, trx) => (await findDelivery(trx, undefined, request.params.id))?.supplier_id,
        }),
    });

    app.post('/admin/suppliers/:supplierId/webhook/test', {
      // Not audited: a ping changes nothing, and every ping is in the delivery log.
      config: { ...admin, audit: false },
      schema: {
        tags: ['admin'],
        summary: "Send a signed ping to the supplier's webhook now and answer with the attempt",
        params: SupplierIdParams,
        response: { 200: Delivery, ...problems(401, 404, 409) },
      },
      handler: (request) => sendTestPing(ping, request.params.supplierId),
    });
  };
