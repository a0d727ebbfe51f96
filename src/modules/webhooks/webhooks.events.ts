// The outbox: what other modules call to make the platform call a supplier. An event is
// written in the caller's transaction, beside the change that causes it, so the event
// exists if and only if the change committed (never "commit, then enqueue").
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { currentTraceparent } from '../../observability/trace-context.ts';
import { insertEvent, insertEventsAbout, isSubscribed, type EventsAboutNewRows, type NewEventAbout, type NewEventRow, type RecordedEvent } from './webhooks.repository.ts';

/** Every outgoing call: its `x-event-type` and the fixed path appended to the supplier's base URL (src/modules/webhooks/README.md). */
export const WEBHOOK_EVENTS = {
  'order.created': '/webhooks/order',
  'order.cancelled': '/webhooks/order',
  'ticket.created': '/webhooks/support/create-ticket',
  'ticket.additional_info_received': '/webhooks/support/ticket-additional-info-received',
  'delivery.cutoff_reached': '/webhooks/delivery/cutoff-reached',
  'order.credit_hold': '/webhooks/order/credit-hold',
  'invoice.overdue': '/webhooks/invoice/overdue',
  ping: '/webhooks/ping',
} as const;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = [
  'order.created',
  'order.cancelled',
  'ticket.created',
  'ticket.additional_info_received',
  'delivery.cutoff_reached',
  'order.credit_hold',
  'invoice.overdue',
  'ping',
] as const satisfies readonly WebhookEventType[];

/**
 * Events a supplier receives only when its webhook settings list them (`events`,
 * README.md "Opt-in events"): an integration written before an event existed never sees
 * it. Every other type goes to every supplier, as always. order.credit_hold and
 * invoice.overdue (src/modules/credit/README.md) joined this list and nothing else changed.
 */
export const OPT_IN_EVENT_TYPES = ['delivery.cutoff_reached', 'order.credit_hold', 'invoice.overdue'] as const satisfies readonly WebhookEventType[];
export type OptInEventType = (typeof OPT_IN_EVENT_TYPES)[number];
export const isOptIn = (type: string): type is OptInEventType => (OPT_IN_EVENT_TYPES as readonly string[]).includes(type);

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

export type { NewEventAbout, RecordedEvent };

/**
 * Records an event and its first delivery in the caller's transaction. It is sent once
 * the transaction commits and the supplier's webhook is enabled with a base URL; until
 * then it waits (a webhook configured later still receives it). An opt-in event
 * (OPT_IN_EVENT_TYPES) of a supplier not subscribed to it is not recorded at all (null):
 * nothing waits to be sent, and the delivery log shows only what the supplier asked for.
 */
export async function recordEvent<T extends WebhookEventType>(
  trx: Transaction<DB>,
  input: WebhookEventInput<T>,
): Promise<T extends OptInEventType ? RecordedEvent | null : RecordedEvent> {
  type Answer = T extends OptInEventType ? RecordedEvent | null : RecordedEvent;
  if (isOptIn(input.type) && !(await isSubscribed(trx, input.supplierId, input.type))) return null as Answer;
  return (await insertEvent(trx, eventRow(input))) as Answer;
}

/**
 * The event about a row not inserted yet (recordCreations), prepared where the row is
 * caused, so that it carries the caller's trace. `body` is the resource as it will be
 * answered, `id` its first field (any value: SQL writes the real id into its JSON, which
 * is then byte for byte that of `{ ...body, id }`).
 */
export function creationEvent(supplierId: number, body: { id: number }): NewEventAbout {
  return { supplierId, messageId: newMessageId(), body: JSON.stringify({ ...body, id: 0 }), traceparent: currentTraceparent() };
}

/**
 * Inserts resources and records the event about each, in one statement (atomic by itself:
 * no BEGIN or COMMIT), for a change that is a single INSERT per resource whose id the
 * database gives: one round trip and one commit for all of them. `about.insert` may read
 * each row's columns from its resource's JSON (`resource.json`, jsonb: EventsAboutNewRows),
 * so a resource goes to the database once. The ordering key is `about.keyPrefix` and the
 * id. Answers the new ids, in the order of `events`.
 */
export async function recordCreations(
  db: Kysely<DB>,
  type: WebhookEventType,
  about: EventsAboutNewRows,
  events: NewEventAbout[],
): Promise<(RecordedEvent & { id: number })[]> {
  // Every creation is sent to every supplier; an opt-in type would need the subscription check of recordEvent.
  if (isOptIn(type)) throw new Error(`${type} is an opt-in event: record it with recordEvent`);
  return insertEventsAbout(db, { type, path: WEBHOOK_EVENTS[type], maxAttempts: MAX_ATTEMPTS }, about, events);
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
