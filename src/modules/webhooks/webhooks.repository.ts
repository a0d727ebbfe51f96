// Every SQL statement of the webhook outbox: events, deliveries, attempts.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { DB, WebhookDeliveryStatus } from '../../db/types.ts';
import { pendingRowsStats } from '../../db/queue-stats.ts';

type Executor = Kysely<DB> | Transaction<DB>;

export interface RecordedEvent {
  eventId: number;
  deliveryId: number;
  webhookId: string;
}

export interface NewEventRow {
  supplierId: number;
  messageId: string;
  type: string;
  path: string;
  orderingKey: string | null;
  body: string;
  maxAttempts: number;
  /** Set: the delivery is created already claimed by this owner (a test ping sent at once). */
  leaseOwner?: string;
  leaseSeconds?: number;
  /** The W3C traceparent of the work that caused the event (null with tracing off). */
  traceparent?: string | null;
}

/**
 * An event and its first delivery, in one statement (kept simple: it is planned on every
 * call).
 */
/** Whether the supplier's webhook settings list the opt-in event type (supplier_webhooks.events, migration 0034). */
export async function isSubscribed(db: Executor, supplierId: number, type: string): Promise<boolean> {
  const row = await db
    .selectFrom('supplier_webhooks')
    .select('supplier_id')
    .where('supplier_id', '=', supplierId)
    .where(sql<boolean>`${type} = any(events)`)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertEvent(db: Executor, r: NewEventRow): Promise<RecordedEvent> {
  const result = await sql<{ event_id: number; delivery_id: number }>`
    with e as (
      insert into webhook_events (supplier_id, message_id, type, path, ordering_key, body)
      values (${r.supplierId}, ${r.messageId}, ${r.type}, ${r.path}, ${r.orderingKey}, ${r.body})
      returning supplier_id, id, ordering_key)
    ${firstDelivery(r)}`.execute(db);
  const row = result.rows[0]!;
  return { eventId: row.event_id, deliveryId: row.delivery_id, webhookId: r.messageId };
}

/** Events about rows that `insert` creates, in the same statement; their ids are drawn first, so each event names its row. */
export interface EventsAboutNewRows {
  /** The table of the rows: their ids are drawn from its identity column `id` before they are inserted. */
  table: string;
  /**
   * An INSERT ... OVERRIDING SYSTEM VALUE ... RETURNING id of one row per row of `resource`
   * (a table expression with columns `n`, the row's place from 1, `id`, its id, and `json`,
   * the event's body as jsonb, its id included). The JSON goes to the database once, for
   * the row and for its event.
   */
  insert: (resource: RawBuilder<unknown>) => RawBuilder<unknown>;
  /** The ordering key is this and the id (`order:` gives `order:1001`). */
  keyPrefix: string;
}

/** The body of an event about a row not inserted yet: its JSON text with the id first, as 0 (`{"id":0,"status":...}`). */
const ID_ZERO = '{"id":0';

/** One new row's event: its body is `body` with the row's id in place of the 0. */
export interface NewEventAbout extends Pick<NewEventRow, 'supplierId' | 'messageId'> {
  /** JSON text starting with ID_ZERO; sent byte for byte but for the id. */
  body: string;
  traceparent: string | null;
}

/**
 * New rows (`about.insert`), the event about each and each event's first delivery, in one
 * statement: all written or none, with no BEGIN or COMMIT around them. Answers, in the
 * order of `events`, each new row's id with its event's. The ids are drawn from the
 * sequences in the first step (materialised: drawn once), so the row, its event's body and
 * key, and the delivery agree; `resource` is materialised too, so each body is parsed as
 * JSON once however many columns its row reads from it.
 *
 * The bodies travel as one text, what follows each one's ID_ZERO joined by line feeds:
 * JSON text from JSON.stringify holds no raw line feed (one in a string is written
 * `\n`), so `string_to_table` splits it back byte for byte without parsing it, and the
 * driver sends it as it is (a text[] parameter would have every quote of every body
 * escaped in JavaScript, and a JSON array would be parsed once more to be split).
 */
export async function insertEventsAbout(
  db: Executor,
  common: Pick<NewEventRow, 'type' | 'path' | 'maxAttempts'>,
  about: EventsAboutNewRows,
  events: NewEventAbout[],
): Promise<(RecordedEvent & { id: number })[]> {
  const afterIds = events.map(({ body }) => {
    if (!body.startsWith(ID_ZERO) || body.includes('\n')) throw new Error(`the body of a ${common.type} event must start with ${ID_ZERO} and hold no line feed`);
    return body.slice(ID_ZERO.length);
  });
  const result = await sql<{ id: string | number; event_id: number; delivery_id: number }>`
    with drawn as materialized (
      select t.n, t.supplier_id, t.message_id, t.traceparent, b.after_id,
             nextval((select pg_get_serial_sequence(${about.table}, 'id'))) as id,
             nextval((select pg_get_serial_sequence('webhook_events', 'id'))) as event_id
      from unnest(${events.map((e) => e.supplierId)}::bigint[], ${events.map((e) => e.messageId)}::text[], ${events.map((e) => e.traceparent)}::text[])
             with ordinality as t(supplier_id, message_id, traceparent, n)
      join string_to_table(${afterIds.join('\n')}::text, e'\n') with ordinality as b(after_id, n) on b.n = t.n),
    resource as materialized (
      select d.*, b.body, b.body::jsonb as json from drawn d, lateral (select '{"id":' || d.id || d.after_id as body) as b),
    created as (${about.insert(sql`resource`)}),
    inserted as (
      insert into webhook_events (id, supplier_id, message_id, type, path, ordering_key, body) overriding system value
      select r.event_id, r.supplier_id, r.message_id, ${common.type}, ${common.path}, ${about.keyPrefix} || r.id, r.body
      from created c join resource r on r.id = c.id
      returning id),
    e as (select r.supplier_id, r.event_id as id, ${about.keyPrefix} || r.id as ordering_key, r.traceparent
          from inserted i join resource r on r.event_id = i.id),
    delivered as (${firstDelivery(common, sql`e.traceparent`)})
    select r.id, r.event_id, d.delivery_id from resource r join delivered d on d.event_id = r.event_id order by r.n`.execute(db);
  if (result.rows.length !== events.length) throw new Error(`${events.length} rows were to be created, ${result.rows.length} were`);
  return result.rows.map((row, n) => ({ id: Number(row.id), eventId: Number(row.event_id), deliveryId: Number(row.delivery_id), webhookId: events[n]!.messageId }));
}

/**
 * The INSERT of an event's first delivery from the CTE `e` (the event's supplier_id, id and
 * ordering_key); its traceparent is `traceparent`, an SQL expression (the request's by default).
 */
function firstDelivery(
  r: Pick<NewEventRow, 'type' | 'maxAttempts' | 'leaseOwner' | 'leaseSeconds' | 'traceparent'>,
  traceparent: RawBuilder<unknown> = sql`${r.traceparent ?? null}::text`,
) {
  const lease = r.leaseOwner === undefined ? sql`null::timestamptz` : sql`now() + make_interval(secs => ${r.leaseSeconds ?? 0})`;
  return sql`
    insert into webhook_deliveries (supplier_id, event_id, event_type, ordering_key, max_attempts, lease_owner, lease_expires_at, traceparent)
    select supplier_id, id, ${r.type}, ordering_key, ${r.maxAttempts}, ${r.leaseOwner ?? null}, ${lease}, ${traceparent} from e
    returning event_id, id as delivery_id`;
}

/** A delivery a dispatcher holds, with what it needs to send it. */
export interface ClaimedDelivery {
  supplier_id: number;
  id: number;
  attempts: number;
  max_attempts: number;
  message_id: string;
  type: string;
  path: string;
  body: string;
  base_url: string | null;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  /** Of the request that caused the delivery: its attempt's span links to it. */
  traceparent: string | null;
}

/**
 * Leases up to `limit` due deliveries. A delivery is due when it is pending, its time has
 * come (by the application's clock, or the database's for one recorded a moment ago),
 * nobody holds a live lease on it, its supplier's webhook is enabled with a base URL, and
 * no earlier delivery of its ordering key is still pending: one key's events go out one
 * at a time, in order. SKIP LOCKED lets dispatchers pass over each other's rows. A lost
 * claim (database crash) only makes the delivery claimable again: its commit need not
 * wait for the WAL flush.
 *
 * A supplier has at most `perSupplier` deliveries in flight, across every dispatcher:
 * a receiver that hangs until the timeout would otherwise take every slot, and every
 * other supplier's webhooks would wait behind it. Suppliers at the cap are left out
 * before anything is ranked, so a saturated supplier's backlog never hides the others;
 * of the first due deliveries of the rest, each supplier gets what its cap has left.
 *
 * Its cost follows what it can claim, not the backlog: it starts from the suppliers with
 * an enabled webhook and reads at most `perSupplier` due deliveries of each through
 * (supplier_id, next_attempt_at, id), so the deliveries waiting for a supplier with no
 * webhook (sent once one is configured, however many) are never read (migration 0024).
 */
export async function claimDue(
  db: Kysely<DB>,
  owner: string,
  leaseSeconds: number,
  now: Date,
  limit: number,
  perSupplier: number,
): Promise<ClaimedDelivery[]> {
  const result = await sql<ClaimedDelivery>`
    with in_flight as (
      select f.supplier_id, count(*) as n
      from webhook_deliveries f
      where f.status = 'pending' and f.lease_owner is not null and f.lease_expires_at > now()
      group by f.supplier_id),
    due as (
      select c.supplier_id, c.id, c.next_attempt_at
      from supplier_webhooks w
      cross join lateral (
        select c.supplier_id, c.id, c.next_attempt_at
        from webhook_deliveries c
        where c.supplier_id = w.supplier_id and c.status = 'pending'
          and c.next_attempt_at <= greatest(now(), ${now}::timestamptz)
          and (c.lease_expires_at is null or c.lease_expires_at < now())
          and (c.ordering_key is null or not exists (
            select 1 from webhook_deliveries e
            where e.supplier_id = c.supplier_id and e.ordering_key = c.ordering_key
              and e.status = 'pending' and e.id < c.id))
        order by c.next_attempt_at, c.id
        limit ${perSupplier}) c
      where w.enabled and w.base_url is not null
        and w.supplier_id not in (select supplier_id from in_flight where n >= ${perSupplier})
      order by c.next_attempt_at, c.id
      limit ${limit + perSupplier}),
    ranked as (
      select due.supplier_id, due.id,
             row_number() over (partition by due.supplier_id order by due.next_attempt_at, due.id) + coalesce(f.n, 0) as slot
      from due left join in_flight f on f.supplier_id = due.supplier_id),
    next as (
      select c.supplier_id, c.id
      from webhook_deliveries c
      join ranked r on r.supplier_id = c.supplier_id and r.id = c.id
      where r.slot <= ${perSupplier}
        and c.status = 'pending' and (c.lease_expires_at is null or c.lease_expires_at < now())
      order by c.next_attempt_at, c.id
      limit ${limit}
      for update of c skip locked),
    claimed as (
      update webhook_deliveries d set lease_owner = ${owner}, lease_expires_at = now() + make_interval(secs => ${leaseSeconds})
      from next where d.supplier_id = next.supplier_id and d.id = next.id
      returning d.supplier_id, d.id, d.event_id, d.attempts, d.max_attempts, d.traceparent)
    select c.supplier_id, c.id, c.attempts, c.max_attempts, e.message_id, e.type, e.path, e.body,
           w.base_url, w.secret, w.previous_secret, w.previous_secret_expires_at, c.traceparent,
           set_config('synchronous_commit', 'off', true) as commit_mode
    from claimed c
    join webhook_events e on e.supplier_id = c.supplier_id and e.id = c.event_id
    left join supplier_webhooks w on w.supplier_id = c.supplier_id
    order by c.id`.execute(db);
  return result.rows;
}

/** A delivery, claimed, read back for sending (a test ping created already claimed). */
export async function loadClaimed(db: Executor, supplierId: number, id: number): Promise<ClaimedDelivery> {
  const result = await sql<ClaimedDelivery>`
    select d.supplier_id, d.id, d.attempts, d.max_attempts, e.message_id, e.type, e.path, e.body,
           w.base_url, w.secret, w.previous_secret, w.previous_secret_expires_at, d.traceparent
    from webhook_deliveries d
    join webhook_events e on e.supplier_id = d.supplier_id and e.id = d.event_id
    left join supplier_webhooks w on w.supplier_id = d.supplier_id
    where d.supplier_id = ${supplierId} and d.id = ${id}`.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error(`delivery ${id} of supplier ${supplierId} does not exist`);
  return row;
}

export interface AttemptRecord {
  supplierId: number;
  deliveryId: number;
  owner: string;
  at: Date;
  statusCode: number | null;
  latencyMs: number;
  responseBody: string | null;
  error: string | null;
  /** The delivery's state after this attempt. */
  status: WebhookDeliveryStatus;
  nextAttemptAt: Date;
  lastError: string | null;
  /** 410 Gone: the supplier's webhook is disabled in the same transaction. */
  disableWebhook: boolean;
}

/**
 * Records an attempt and moves its delivery, in one statement (one transaction). The
 * delivery changes only while this owner still holds it: one that lost its lease records
 * the attempt, which did happen, and leaves the state to the new owner.
 *
 * The commit does not wait for its WAL flush: a database crash can only lose the latest
 * attempt records, and a delivery whose "delivered" was lost is pending again and is sent
 * again, with the same webhook-id (at least once; never zero times).
 */
export async function recordAttempt(db: Kysely<DB>, a: AttemptRecord) {
  await sql`
    with attempt as (
      insert into webhook_attempts (supplier_id, delivery_id, at, status_code, latency_ms, response_body, error)
      values (${a.supplierId}, ${a.deliveryId}, ${a.at}, ${a.statusCode}, ${a.latencyMs}, ${a.responseBody}, ${a.error})),
    delivery as (
      update webhook_deliveries set
        attempts = attempts + 1,
        status = ${a.status},
        next_attempt_at = ${a.nextAttemptAt},
        last_status_code = ${a.statusCode},
        last_error = ${a.lastError},
        finished_at = ${a.status === 'pending' ? null : a.at},
        lease_owner = null,
        lease_expires_at = null
      where supplier_id = ${a.supplierId} and id = ${a.deliveryId} and lease_owner = ${a.owner} and status = 'pending'),
    webhook as (
      update supplier_webhooks set enabled = false, updated_at = now()
      where ${a.disableWebhook} and supplier_id = ${a.supplierId})
    select set_config('synchronous_commit', 'off', true)`.execute(db);
}

/** For the metrics scrape: deliveries not yet finished (src/db/queue-stats.ts). */
export const queueStats = (db: Kysely<DB>) => pendingRowsStats(db, 'webhook_deliveries');
