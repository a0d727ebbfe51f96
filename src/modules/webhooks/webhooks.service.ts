// The delivery log, replays and test pings, for suppliers and operators alike (an
// operator's call names the supplier; a supplier's is scoped to itself).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { page } from '../../lib/pagination.ts';
import { requireSupplier } from '../suppliers/suppliers.service.ts';
import { currentTraceparent } from '../../observability/trace-context.ts';
import { attemptDelivery, type AttemptContext } from './webhooks.attempt.ts';
import { MAX_ATTEMPTS, newMessageId, WEBHOOK_EVENTS, type OptInEventType, type WebhookEventType } from './webhooks.events.ts';
import * as log from './webhooks.log.repository.ts';
import * as repo from './webhooks.repository.ts';
import type { WebhookSender } from './webhooks.sender.ts';
import { maskedUrl } from './webhooks.url.ts';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

function view(r: log.DeliveryRow) {
  return {
    id: r.id,
    webhookId: r.message_id,
    eventType: r.event_type as WebhookEventType,
    path: r.path,
    status: r.status,
    redeliveryOf: r.redelivery_of,
    nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    // Only while something holds it back: an answer about any other delivery is as it was.
    ...(r.waiting === null ? {} : { waitingFor: r.waiting }),
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    createdAt: r.created_at.toISOString(),
    finishedAt: iso(r.finished_at),
    attempts: r.attempts.map((a) => ({
      at: new Date(a.at).toISOString(),
      statusCode: a.status_code,
      latencyMs: a.latency_ms,
      responseBody: a.response_body,
      error: a.error,
    })),
  };
}

export async function listDeliveries(db: Kysely<DB>, supplierId: number, query: log.DeliveryListQuery, timezone: string) {
  const { rows, total } = await log.listDeliveries(db, supplierId, query, timezone);
  return page(rows.map(view), total, query.page, query.take);
}

async function deliveryView(db: Kysely<DB>, supplierId: number | undefined, id: number) {
  const row = await log.findDelivery(db, supplierId, id);
  if (!row) throw notFound('delivery', String(id), '/params/id');
  return view(row);
}

/**
 * Sends the delivery's event again now. Without a supplier: an operator's call. While a
 * delivery of the same event is still pending (this one retrying or waiting, or an earlier
 * redelivery), the redelivery joins it: that delivery is made due now and answered, and no
 * second one is queued, so the receiver never gets the event twice because of a replay
 * (README, "Watching and replaying"). Otherwise a new delivery with the same webhook-id,
 * due at once. Runs in the caller's transaction (the audited route's), which wakes the
 * dispatcher once it commits: a wake before the commit would only find nothing.
 */
export async function redeliver(db: Kysely<DB>, supplierId: number | undefined, id: number) {
  const original = await log.findDelivery(db, supplierId, id);
  if (!original) throw notFound('delivery', String(id), '/params/id');
  const pending = await log.lockEventFindPending(db, original.supplier_id, original.event_id);
  if (pending) {
    await log.dueNow(db, original.supplier_id, pending.id);
    return deliveryView(db, original.supplier_id, pending.id);
  }
  const newId = await log.insertRedelivery(db, original.supplier_id, original.id, MAX_ATTEMPTS, currentTraceparent());
  return deliveryView(db, original.supplier_id, newId);
}

/** How much of a request body a delivery's read answers: event bodies are the platform's own resources, an order with many lines included. */
export const REQUEST_BODY_LIMIT = 64 * 1024;

/**
 * One delivery with the body its attempts sent: the event's body, the same bytes on every
 * attempt (README, "Recorded in the caller's transaction"), signed with the webhook-id and
 * each attempt's timestamp. The signing secret is never part of it.
 */
export async function deliveryWithBody(db: Kysely<DB>, supplierId: number, id: number) {
  const delivery = await deliveryView(db, supplierId, id);
  const sent = await log.deliveryBody(db, supplierId, id, REQUEST_BODY_LIMIT);
  if (!sent) throw notFound('delivery', String(id), '/params/id');
  return { ...delivery, requestBody: sent.body, requestBodyBytes: Number(sent.bytes), requestBodyTruncated: Number(sent.chars) > REQUEST_BODY_LIMIT };
}

export interface PingContext {
  db: Kysely<DB>;
  sender: WebhookSender;
  clock: Clock;
  leaseSeconds: number;
  metrics?: AttemptContext['metrics'];
}

/**
 * Sends a signed ping to {baseUrl}/webhooks/ping now, once, and answers the delivery with
 * its one attempt. It is sent even while the webhook is disabled: it is how a receiver is
 * checked before it is enabled again. The delivery is created already claimed, so no
 * dispatcher sends it too; a ping is never retried.
 */
export async function sendTestPing(ctx: PingContext, supplierId: number) {
  const supplier = await requireSupplier(ctx.db, supplierId);
  const webhook = await log.findWebhook(ctx.db, supplierId);
  if (!webhook?.base_url) {
    throw new AppError('WEBHOOK_NOT_CONFIGURED', 'the supplier has no webhook base URL; set it with PUT /webhook (operators: PUT /admin/suppliers/{supplierId}/webhook)');
  }
  const owner = `ping-${randomUUID()}`;
  const body = JSON.stringify({ type: 'ping', supplierCode: supplier.code, at: ctx.clock.now().toISOString() });
  const recorded = await repo.insertEvent(ctx.db, {
    supplierId,
    messageId: newMessageId(),
    type: 'ping',
    path: WEBHOOK_EVENTS.ping,
    orderingKey: null,
    body,
    maxAttempts: 1,
    leaseOwner: owner,
    leaseSeconds: ctx.leaseSeconds,
  });
  const claimed = await repo.loadClaimed(ctx.db, supplierId, recorded.deliveryId);
  await attemptDelivery({ db: ctx.db, sender: ctx.sender, clock: ctx.clock, owner, metrics: ctx.metrics }, claimed);
  return deliveryView(ctx.db, supplierId, recorded.deliveryId);
}

/** An operator's delivery list names its supplier, which must exist. */
export async function listSupplierDeliveries(db: Kysely<DB>, supplierId: number, query: log.DeliveryListQuery, timezone: string) {
  await requireSupplier(db, supplierId);
  return listDeliveries(db, supplierId, query, timezone);
}

/**
 * The supplier's webhook settings, without the secret (shown once, when the supplier or an
 * operator sets the URL or rotates it) and with the URL's password and query values
 * masked, for every reader (webhooks.url.ts). A supplier never configured answers baseUrl null and enabled false, as
 * a fresh one is. `previousSecretExpiresAt`: while a rotated-out secret still signs.
 */
export async function webhookSettings(db: Kysely<DB>, supplierId: number, now: Date) {
  const w = await log.findWebhookSettings(db, supplierId);
  const overlap = w?.previous_secret_expires_at && w.previous_secret_expires_at > now ? w.previous_secret_expires_at : null;
  return {
    baseUrl: maskedUrl(w?.base_url ?? null),
    enabled: w?.enabled ?? false,
    // Only when subscribed to any: a supplier that never did reads what it always read.
    ...(w && w.events.length > 0 ? { events: w.events as OptInEventType[] } : {}),
    previousSecretExpiresAt: iso(overlap),
    updatedAt: iso(w?.updated_at ?? null),
  };
}

/** An operator's read of a supplier's webhook settings names its supplier, which must exist. */
export async function supplierWebhookSettings(db: Kysely<DB>, supplierId: number, now: Date) {
  await requireSupplier(db, supplierId);
  return webhookSettings(db, supplierId, now);
}
