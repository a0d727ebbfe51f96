// The delivery log as suppliers and operators read it, and replays of it: every SQL
// statement of the read side of the webhook outbox.
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { DB, WebhookDeliveryStatus } from '../../db/types.ts';
import { offsetPage } from '../../db/paging.ts';

export interface DeliveryListQuery {
  status?: WebhookDeliveryStatus;
  /** Whose last attempt failed: failed for good, or pending a retry (see FAILING). */
  failing?: boolean;
  eventType?: string;
  /** A calendar day (platform timezone, inclusive) or an instant. */
  from?: string;
  to?: string;
  take: number;
  page: number;
}

/** A delivery is failing when its last attempt failed: it failed for good, or it waits for a retry (a pending delivery with attempts has failed each of them). */
const FAILING = sql<SqlBool>`(d.status = 'failed' or (d.status = 'pending' and d.attempts > 0))`;

/** Failing deliveries per supplier, the most first (the operators' system page). */
export async function failingBySupplier(db: Kysely<DB>) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('suppliers as p', 'p.id', 'd.supplier_id')
    .select(['p.id', 'p.code', 'p.name', sql<number>`count(*)::int`.as('failing')])
    .where(FAILING)
    .groupBy(['p.id', 'p.code', 'p.name'])
    .orderBy('failing', 'desc')
    .orderBy('p.id')
    .limit(100)
    .execute();
}

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

function base(db: Kysely<DB>) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', (j) => j.onRef('e.supplier_id', '=', 'd.supplier_id').onRef('e.id', '=', 'd.event_id'))
    .leftJoin('supplier_webhooks as w', 'w.supplier_id', 'd.supplier_id');
}

/** Why a pending delivery is not being sent, as the claim (webhooks.repository.ts, claimDue) decides it; null: nothing holds it back. */
export type Waiting = 'baseUrl' | 'enabled' | 'earlierEvent';

/**
 * The claim's own conditions, in its order: no base URL, the webhook disabled, an earlier
 * pending delivery of the same ordering key (webhook_deliveries_key finds it).
 */
const waiting = sql<Waiting | null>`case
  when d.status <> 'pending' then null
  when w.base_url is null then 'baseUrl'
  when not w.enabled then 'enabled'
  when d.ordering_key is not null and exists (
    select 1 from webhook_deliveries k
    where k.supplier_id = d.supplier_id and k.ordering_key = d.ordering_key and k.status = 'pending' and k.id < d.id) then 'earlierEvent'
  end`.as('waiting');

const columns = [
  'd.supplier_id',
  'd.id',
  'd.event_type',
  'd.redelivery_of',
  'd.status',
  'd.attempts',
  'd.next_attempt_at',
  'd.last_status_code',
  'd.last_error',
  'd.created_at',
  'd.finished_at',
  'd.event_id',
  'e.message_id',
  'e.path',
] as const;

export interface AttemptRow {
  /** ms since the epoch */
  at: number;
  status_code: number | null;
  latency_ms: number;
  response_body: string | null;
  error: string | null;
}

/** A delivery's attempts, oldest first, read in the same statement as the delivery (one snapshot). */
const attempts = sql<AttemptRow[]>`(
  select coalesce(json_agg(json_build_object(
      'at', extract(epoch from a.at) * 1000, 'status_code', a.status_code, 'latency_ms', a.latency_ms,
      'response_body', a.response_body, 'error', a.error) order by a.id), '[]'::json)
  from webhook_attempts a where a.supplier_id = d.supplier_id and a.delivery_id = d.id)`.as('attempts');

/** Newest first. */
export async function listDeliveries(db: Kysely<DB>, supplierId: number, q: DeliveryListQuery, timezone: string) {
  let query = base(db).where('d.supplier_id', '=', supplierId);
  if (q.status) query = query.where('d.status', '=', q.status);
  if (q.failing !== undefined) query = query.where(q.failing ? FAILING : sql<SqlBool>`not ${FAILING}`);
  if (q.eventType) query = query.where('d.event_type', '=', q.eventType);
  if (q.from) {
    query = query.where(
      isDay(q.from) ? sql<SqlBool>`(d.created_at at time zone ${timezone})::date >= ${q.from}::date` : sql<SqlBool>`d.created_at >= ${q.from}::timestamptz`,
    );
  }
  if (q.to) {
    query = query.where(
      isDay(q.to) ? sql<SqlBool>`(d.created_at at time zone ${timezone})::date <= ${q.to}::date` : sql<SqlBool>`d.created_at <= ${q.to}::timestamptz`,
    );
  }
  return offsetPage(query, (page) => page.select(columns).select(attempts).select(waiting).orderBy('d.id', 'desc'), q);
}

export type DeliveryRow = Awaited<ReturnType<typeof listDeliveries>>['rows'][number];

/** One delivery; without a supplier (operators), by its id alone. */
export async function findDelivery(db: Kysely<DB>, supplierId: number | undefined, id: number): Promise<DeliveryRow | undefined> {
  let query = base(db).select(columns).select(attempts).select(waiting).where('d.id', '=', id);
  if (supplierId !== undefined) query = query.where('d.supplier_id', '=', supplierId);
  return query.executeTakeFirst();
}

/**
 * A new delivery of the same event (same webhook-id), due at once. A replay stands outside
 * the ordering of its resource: it neither waits for nor holds back newer events.
 */
export async function insertRedelivery(db: Kysely<DB>, supplierId: number, deliveryId: number, maxAttempts: number, traceparent: string | null = null): Promise<number> {
  const row = await db
    .insertInto('webhook_deliveries')
    .columns(['supplier_id', 'event_id', 'event_type', 'ordering_key', 'redelivery_of', 'max_attempts', 'traceparent'])
    .expression((eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select([
          'supplier_id',
          'event_id',
          'event_type',
          sql<null>`null::text`.as('ordering_key'),
          'id',
          sql<number>`${maxAttempts}::int`.as('max_attempts'),
          sql<string | null>`${traceparent}::text`.as('traceparent'),
        ])
        .where('supplier_id', '=', supplierId)
        .where('id', '=', deliveryId),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The event a redelivery would send, locked until the caller's transaction ends, and its
 * delivery still pending if there is one: two redeliveries of one event at once see each
 * other's pending delivery instead of both inserting one.
 */
export async function lockEventFindPending(db: Kysely<DB>, supplierId: number, eventId: number) {
  await db.selectFrom('webhook_events').select('id').where('supplier_id', '=', supplierId).where('id', '=', eventId).forUpdate().executeTakeFirst();
  return db
    .selectFrom('webhook_deliveries')
    .select(['id', 'next_attempt_at'])
    .where('supplier_id', '=', supplierId)
    .where('event_id', '=', eventId)
    .where('status', '=', 'pending')
    .orderBy('id')
    .executeTakeFirst();
}

/** The body the delivery's attempts sent (its event's, byte for byte): the first `limit` characters, and its size in bytes. */
export async function deliveryBody(db: Kysely<DB>, supplierId: number, id: number, limit: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', (j) => j.onRef('e.supplier_id', '=', 'd.supplier_id').onRef('e.id', '=', 'd.event_id'))
    .select([sql<string>`left(e.body, ${limit})`.as('body'), sql<number>`octet_length(e.body)`.as('bytes'), sql<number>`char_length(e.body)`.as('chars')])
    .where('d.supplier_id', '=', supplierId)
    .where('d.id', '=', id)
    .executeTakeFirst();
}

/** A pending delivery made due now (a redelivery joining it); one due already keeps its time, and its place in line. */
export async function dueNow(db: Kysely<DB>, supplierId: number, id: number) {
  await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: sql<Date>`least(next_attempt_at, now())` })
    .where('supplier_id', '=', supplierId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

export async function findWebhook(db: Kysely<DB>, supplierId: number) {
  return db.selectFrom('supplier_webhooks').select(['base_url', 'enabled']).where('supplier_id', '=', supplierId).executeTakeFirst();
}

/** The supplier's webhook settings as it may see them: never a secret. */
export async function findWebhookSettings(db: Kysely<DB>, supplierId: number) {
  return db
    .selectFrom('supplier_webhooks')
    .select(['base_url', 'enabled', 'events', 'previous_secret_expires_at', 'updated_at'])
    .where('supplier_id', '=', supplierId)
    .executeTakeFirst();
}
