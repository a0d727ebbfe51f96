import { Type } from 'typebox';
import { Code, Nullable, Timestamp } from '../../lib/schemas.ts';

export const ClockBody = Type.Object({
  now: Type.String({ format: 'date-time', description: "the sandbox's new time (RFC 3339, with its offset), not before its current one" }),
});
export const SandboxClock = Type.Object({
  now: Timestamp(),
  moved: Type.Boolean({ description: 'false: real time' }),
});

export const SANDBOX_EVENT_TYPES = ['order.created', 'order.cancelled', 'ticket.created', 'ticket.additional_info_received'] as const;

export const EventBody = Type.Object({
  type: Type.Union(SANDBOX_EVENT_TYPES.map((t) => Type.Literal(t)), { description: 'the event to make happen in the sandbox, as a store would' }),
  storeCode: Type.Optional(Code({ description: "the test store's internalCode; the first store when left out" })),
  orderId: Type.Optional(Type.Integer({ minimum: 1, description: 'order.cancelled: the order (a new one when left out); ticket.created: the order the ticket is about' })),
  ticketId: Type.Optional(Type.Integer({ minimum: 1, description: 'ticket.additional_info_received: a ticket waiting for information (a new one, asked for information, when left out)' })),
  lines: Type.Optional(
    Type.Array(
      Type.Object({ productInternalCode: Code(), units: Type.Integer({ minimum: 1 }), quantity: Type.Integer({ minimum: 1, maximum: 100_000 }) }),
      { minItems: 1, maxItems: 200, description: "order.created: the order's lines (one unit of the store's first product when left out)" },
    ),
  ),
  message: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: "the ticket's or the answer's text" })),
});

export const Triggered = Type.Object({
  type: Type.String(),
  storeCode: Type.String(),
  orderId: Type.Optional(Nullable(Type.Integer())),
  ticketId: Type.Optional(Type.Integer()),
  deliveryId: Nullable(Type.Integer({ description: "the webhook delivery (GET /webhook/deliveries/{id}); null when the event is not one the supplier's webhook gets" })),
  webhookId: Nullable(Type.String({ description: 'the webhook-id header the delivery carries' })),
});

export const InboxMessage = Type.Object({
  id: Type.Integer(),
  purpose: Type.Union([Type.Literal('code'), Type.Literal('event')]),
  to: Type.String(),
  channel: Nullable(Type.String()),
  subject: Nullable(Type.String()),
  body: Type.String({ description: 'empty for a withheld code' }),
  status: Type.Union([Type.Literal('inbox'), Type.Literal('withheld')], { description: 'withheld: a code for an identifier not reserved for tests (see `note`)' }),
  note: Nullable(Type.String()),
  createdAt: Timestamp(),
});

export const DataAnswer = Type.Object({
  counts: Type.Record(Type.String(), Type.Integer(), { description: 'what the sandbox holds now, by kind' }),
});

export const Checklist = Type.Object({
  complete: Type.Boolean(),
  done: Type.Integer({ description: 'steps done, of 14' }),
  steps: Type.Array(
    Type.Object({
      step: Type.Integer({ minimum: 1, maximum: 14 }),
      key: Type.String(),
      title: Type.String(),
      done: Type.Boolean(),
      count: Type.Integer(),
      missing: Type.Optional(Type.Array(Type.String(), { description: 'webhook: the event types not yet answered with a 2xx' })),
      link: Type.String({ description: 'where it shows in the console' }),
    }),
  ),
});
