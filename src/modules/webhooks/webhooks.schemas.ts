import { Type } from 'typebox';
import { Nullable, PageQuery, Timestamp } from '../../lib/schemas.ts';
import { OPT_IN_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from './webhooks.events.ts';

export const EventType = Type.Enum(WEBHOOK_EVENT_TYPES, { description: 'the `x-event-type` of the call' });

/** The opt-in event types a supplier subscribed to (absent from an answer: none). */
export const SubscribedEvents = (more = '') =>
  Type.Array(Type.Enum(OPT_IN_EVENT_TYPES), {
    maxItems: 50,
    description: `opt-in events sent besides the ones every supplier gets (src/modules/webhooks/README.md, "Opt-in events")${more}`,
  });

export const DeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]);

export const Attempt = Type.Object({
  at: Timestamp(),
  statusCode: Nullable(Type.Integer({ description: "the receiver's HTTP status; null when there was no answer" })),
  latencyMs: Type.Integer(),
  responseBody: Nullable(Type.String({ description: 'the first 1 KiB of the answer' })),
  error: Nullable(Type.String({ description: 'why there was no answer: timeout, refused connection or address, TLS ...' })),
});

export const Delivery = Type.Object({
  id: Type.Integer(),
  webhookId: Type.String({ description: 'the `webhook-id` header: the same on every retry and redelivery of the event' }),
  eventType: EventType,
  path: Type.String({ description: "appended to the supplier's base URL" }),
  status: DeliveryStatus,
  redeliveryOf: Nullable(Type.Integer({ description: 'the delivery this one replays' })),
  nextAttemptAt: Nullable(Timestamp()),
  waitingFor: Type.Optional(
    Type.Union([Type.Literal('baseUrl'), Type.Literal('enabled'), Type.Literal('earlierEvent')], {
      description:
        'present while a pending delivery is held back, whatever `nextAttemptAt` says: `baseUrl`, the supplier has no webhook URL; `enabled`, the webhook is disabled; `earlierEvent`, an earlier event of the same resource is still pending',
    }),
  ),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  createdAt: Timestamp(),
  finishedAt: Nullable(Timestamp()),
  attempts: Type.Array(Attempt, { description: 'every attempt, oldest first' }),
});

/** One delivery with the request body its attempts sent (`GET /webhook/deliveries/{id}`). */
export const DeliveryDetail = Type.Object({
  ...Delivery.properties,
  requestBody: Type.String({ description: "the body every attempt of this delivery sent, byte for byte (the event's body; it is signed with the webhook-id and each attempt's timestamp); its first 65,536 characters" }),
  requestBodyBytes: Type.Integer({ description: 'the whole body, in bytes' }),
  requestBodyTruncated: Type.Boolean({ description: 'true when `requestBody` holds only the first 65,536 characters' }),
});

const DayOrInstant = (description: string) =>
  Type.Union([Type.String({ format: 'calendar-date' }), Type.String({ format: 'date-time' })], { description });

export const DeliveryQuery = Type.Object({
  status: Type.Optional(DeliveryStatus),
  failing: Type.Optional(
    Type.Boolean({ description: 'true: only deliveries whose last attempt failed (failed for good, or pending a retry); false: only the others' }),
  ),
  eventType: Type.Optional(EventType),
  from: Type.Optional(DayOrInstant('created on or after: a day (YYYY-MM-DD, platform timezone) or an instant')),
  to: Type.Optional(DayOrInstant('created on or before: a day (YYYY-MM-DD, platform timezone, inclusive) or an instant')),
  ...PageQuery,
});

/** The body of a ping (`POST /webhook/test`). */
export const PingBody = Type.Object({
  type: Type.Literal('ping'),
  supplierCode: Type.String(),
  at: Timestamp(),
});

export const WebhookSettings = Type.Object({
  baseUrl: Nullable(Type.String({ description: 'the URL with its password and query values shown as `***`' })),
  enabled: Type.Boolean({ description: 'false also after the platform turned it off for failing deliveries' }),
  events: Type.Optional(SubscribedEvents('; absent: none')),
  previousSecretExpiresAt: Nullable(Type.String({ format: 'date-time', description: 'while set, the secret rotated out still signs beside the new one' })),
  updatedAt: Nullable(Timestamp()),
});
