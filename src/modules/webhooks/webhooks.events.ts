// The outbox: what other modules call to make the platform call a supplier. An event is
// written in the caller's transaction, beside the change that causes it, so the event
// exists if and only if the change committed (never "commit, then enqueue").
import { randomBytes } from 'node:crypto';
import type { Kysely, RawBuilder, Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { currentTraceparent } from '../../observability/trace-context.ts';
import { insertEvent, type NewEventRow, type RecordedEvent } from './webhooks.repository.ts';

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
export const newMessageId = () => `msg_${randomBytes(16).toString('hex')}`;

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
 * Records an event and its first delivery in one statement with the caller's own write
 * (`alongside`, a data-modifying statement such as the INSERT of the order the event is
 * about): both are written or neither, with no transaction around them. For a change
 * that is a single INSERT, where BEGIN and COMMIT would be two of four round trips.
 */
export async function recordEventAlongside(db: Kysely<DB>, input: WebhookEventInput, alongside: RawBuilder<unknown>): Promise<RecordedEvent> {
  return insertEvent(db, eventRow(input), alongside);
}

function eventRow(input: WebhookEventInput): NewEventRow {
  const path = WEBHOOK_EVENTS[input.type];
  if (!path) throw new Error(`unknown webhook event type ${input.type}`);
  if (input.path !== undefined && input.path !== path) throw new Error(`${input.type} is sent to ${path}, not ${input.path}`);
  const body = JSON.stringify(input.body);
  if (body === undefined) throw new Error('a webhook event needs a JSON body');
  return { supplierId: input.supplierId, messageId: newMessageId(), type: input.type, path, orderingKey: input.orderingKey, body, maxAttempts: MAX_ATTEMPTS, traceparent: currentTraceparent() };
}
