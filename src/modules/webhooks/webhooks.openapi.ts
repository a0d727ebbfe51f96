// The `webhooks` section of the OpenAPI 3.1 document: every call the platform makes to a
// supplier, with its headers and body schema, so integrators can generate receivers. The
// bodies are the schemas the endpoints answer with (one schema per contract).
import { Type, type TSchema } from 'typebox';
import { loadConfig } from '../../config.ts';
import { Invoice } from '../credit/credit.schemas.ts';
import { CutoffReached } from '../delivery/delivery.schemas.ts';
import { Order as OrderBody } from '../orders/orders.schemas.ts';
import { Ticket } from '../tickets/tickets.schemas.ts';
import { WEBHOOK_EVENTS, type WebhookEventType } from './webhooks.events.ts';
import { PingBody } from './webhooks.schemas.ts';
import { RETRY_DELAYS_MS } from './webhooks.schedule.ts';

const EVENTS: Record<WebhookEventType, { summary: string; body: TSchema }> = {
  'order.created': { summary: 'A store placed an order (`status: PENDING`)', body: OrderBody },
  'order.cancelled': { summary: 'A store cancelled a pending order (`status: CANCELLED`, with `cancellation`)', body: OrderBody },
  'ticket.created': { summary: 'A store opened a support ticket', body: Ticket },
  'ticket.additional_info_received': { summary: "A store answered the supplier's request for information (its answer is the last message)", body: Ticket },
  'delivery.cutoff_reached': {
    summary:
      "Opt-in (the webhook settings' `events`): a delivery zone's orders for a date closed at its cut-off; the body lists them, so the route can be picked and loaded",
    body: CutoffReached,
  },
  'order.credit_hold': {
    summary:
      "Opt-in (the webhook settings' `events`): a store sent an order on credit for approval (`status: PENDING`, with `creditHold`); release it (`PUT /order/{id}/release`) or cancel it",
    body: OrderBody,
  },
  'invoice.overdue': {
    summary: "Opt-in (the webhook settings' `events`): an invoice passed its due date unpaid (sent once per invoice); the body is the invoice as the store's account shows it",
    body: Invoice,
  },
  ping: { summary: 'A test call (POST /webhook/test)', body: PingBody },
};

const header = (name: string, description: string, example?: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', ...(example ? { example } : {}) },
});

const HEADERS = [
  header('webhook-id', "the event's id: the same on every retry and redelivery; the receiver's deduplication key", 'msg_0f1e2d3c4b5a69788796a5b4c3d2e1f0'),
  header('webhook-timestamp', 'unix seconds of this attempt', '1767225600'),
  header(
    'webhook-signature',
    'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}">` keyed with the supplier secret (the part after `whsec_`, base64-decoded). During a secret rotation, two signatures separated by a space; either verifies.',
  ),
  header('x-event-type', 'the event type (the name of this webhook)'),
  header('user-agent', 'names the platform', 'Surtido-Webhooks/1.0'),
];

// The document describes the default; an operator's setting is theirs to announce.
const DEFAULT_TIMEOUT_MS = loadConfig({ NODE_ENV: 'test' }).webhookTimeoutMs;

const hours = (ms: number) => (ms < 60_000 ? `${ms / 1000} s` : ms < 3_600_000 ? `${ms / 60_000} min` : `${ms / 3_600_000} h`);

const DELIVERY = [
  'Sent as `POST` with `content-type: application/json`; the body is the resource itself.',
  `Success is any 2xx within the platform's timeout (\`WEBHOOK_TIMEOUT_MS\`, ${DEFAULT_TIMEOUT_MS / 1000} s unless the operator sets another); anything else (3xx included) is retried after ${RETRY_DELAYS_MS.map(hours).join(', ')} (±20 %), then the delivery fails.`,
  'A 429 or 503 with Retry-After waits at least that long (at most 24 h). 410 Gone disables the webhook until an operator enables it again.',
  "Events about one order or ticket arrive in the order they happened. At least once: deduplicate on `webhook-id`.",
].join(' ');

/** The OpenAPI 3.1 `webhooks` object: one entry per event type. */
export function webhooksDocument(): Record<string, unknown> {
  const plain = (schema: TSchema) => JSON.parse(JSON.stringify(schema)) as unknown;
  return Object.fromEntries(
    (Object.keys(EVENTS) as WebhookEventType[]).map((type) => [
      type,
      {
        post: {
          operationId: `webhook.${type}`,
          tags: ['webhooks'],
          summary: EVENTS[type].summary,
          description: `\`POST {baseUrl}${WEBHOOK_EVENTS[type]}\` with \`x-event-type: ${type}\`. ${DELIVERY}`,
          parameters: HEADERS,
          // The platform signs every call (the `webhook-signature` header): the receiver verifies it.
          security: [{ webhookSignature: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: plain(EVENTS[type].body) } } },
          responses: {
            '2XX': { description: 'received; any 2xx counts' },
            '410': { description: "gone: the platform disables the supplier's webhook" },
            default: { description: 'any other answer, or none: the attempt failed and is retried' },
          },
        },
      },
    ]),
  );
}
