// The outbox: what other modules call to make the platform call a supplier. An event is
// written in the caller's transaction, beside the change that causes it, so the event
// exists if and only if the change committed (never "commit, then enqueue").
import { randomUUID } from 'node:crypto';
import type { Kysely, RawBuilder, Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { currentTraceparent } from '../../observability/trace-context.ts';
import { insertEvent, insertEventAbout, type NewEventRow, type RecordedEvent } from './webhooks.repository.ts';

/** Every outgoing call: its `x-event-type` and the fixed path appended to the supplier's base URL (src/modules/webhooks/README.md). */
export const WEBHOOK_EVENTS = {
  'order.created': '/webhooks/order',
  'order.cancelled': '/webhooks/order',
  'ticket.created': '/webhooks/support/create-ticket',
  'ticket.additional_info_received': '/webhooks/support/ticket-additional-info-received',
  ping: '/webhooks/ping',
} as const;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = ['order.created', 'order.cancelled', 'ticket.created', 'ticket.additional_info_received', 'ping'] as const satisfies readonly WebhookEventType[];

/** Attempts of a delivery: the first and the nine retries of the schedule. */
export const MAX_ATTEMPTS = 10;

/** The Standard Webhooks message id (`webhook-id`): fixed per event, the same on every retry and redelivery. */
export const newMessageId = () => `msg_${randomUUID().replaceAll('-', '')}`;

export interface WebhookEventInput<T extends WebhookEventType = WebhookEventType> {
  supplierId: number;
  type: T;
  /** The event's path; it must be the one src/modules/webhooks/README.md gives the type (defaults to it). */
  path?: (typeof WEBHOOK_EVENTS)[T];
  /**
   * The resource the event is about (`order:1001`, `ticket:12`): events with one key reach
   * the supplier in the order they were recorded. Record while holding the resource's row
   * lock (the UPDATE of the order or ticket does), so the order of the ids is the order
   * of the changes.
   */
  orderingKey: string;
  /** The resource itself as it is now (not an envelope); stored as JSON text and sent byte for byte. */
  body: unknown;
}

export type { RecordedEvent };

/**
 * Records an event and its first delivery in the caller's transaction. It is sent once
 * the transaction commits and the supplier's webhook is enabled with a base URL; until
 * then it waits (a webhook configured later still receives it).
 */
export async function recordEvent(trx: Transaction<DB>, input: WebhookEventInput): Promise<RecordedEvent> {
  return insertEvent(trx, eventRow(input));
}

/**
 * Inserts a resource and records the event about it, in one statement (atomic by itself:
 * no BEGIN or COMMIT), for a change that is a single INSERT whose id the database gives:
 * one round trip where a transaction would take four. `insert` builds an INSERT ...
 * RETURNING id of one row, which may read its columns from the resource's JSON
 * (`resource.json`, jsonb, id 0: EventAboutNewRow), so the resource goes to the database
 * once. `body` is the resource as it will be answered, `id` its first field (any value:
 * SQL writes the real id into its JSON, which is then byte for byte that of
 * `{ ...body, id }`); the ordering key is `keyPrefix` and the id. Answers the new id.
 */
export async function recordCreation<T extends { id: number }>(
  db: Kysely<DB>,
  insert: (resource: RawBuilder<unknown>) => RawBuilder<unknown>,
  event: Omit<WebhookEventInput, 'orderingKey' | 'body'> & { keyPrefix: string; body: T },
): Promise<RecordedEvent & { id: number }> {
  const json = JSON.stringify({ ...event.body, id: 0 });
  const head = '{"id":0';
  if (!json.startsWith(head)) throw new Error(`the body of ${event.type} must have its id first`);
  return insertEventAbout(db, eventHead(event), { insert, keyPrefix: event.keyPrefix, bodyAfterId: json.slice(head.length) });
}

function eventHead(input: Pick<WebhookEventInput, 'supplierId' | 'type' | 'path'>): Omit<NewEventRow, 'orderingKey' | 'body'> {
  const path = WEBHOOK_EVENTS[input.type];
  if (!path) throw new Error(`unknown webhook event type ${input.type}`);
  if (input.path !== undefined && input.path !== path) throw new Error(`${input.type} is sent to ${path}, not ${input.path}`);
  return { supplierId: input.supplierId, messageId: newMessageId(), type: input.type, path, maxAttempts: MAX_ATTEMPTS, traceparent: currentTraceparent() };
}

function eventRow(input: WebhookEventInput): NewEventRow {
  const body = JSON.stringify(input.body);
  if (body === undefined) throw new Error('a webhook event needs a JSON body');
  return { ...eventHead(input), orderingKey: input.orderingKey, body };
}
