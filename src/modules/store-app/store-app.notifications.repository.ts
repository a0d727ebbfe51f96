import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { isMember } from './store-app.repository.ts';
import type { NotificationType } from './store-app.notifications.types.ts';
import { offsetPage } from '../../db/paging.ts';

export interface NewNotification {
  supplierId: number;
  storeId: number;
  type: NotificationType;
  ticketId?: number | null;
  orderId?: number | null;
  /** The supplier's words, when the action carried any. */
  message?: string | null;
  /** ORDER_DELIVERED: the packages delivered of those ordered, for the message's words (the in-app list reads them from the order). */
  packages?: { delivered: number; ordered: number };
}

/** Many notifications in one statement (a batch chunk's worth); answers their ids in order. */
export async function insertNotifications(trx: Transaction<DB>, list: NewNotification[]): Promise<number[]> {
  if (list.length === 0) return [];
  const rows = await trx
    .insertInto('notifications')
    .values(
      list.map((n) => ({ supplier_id: n.supplierId, store_id: n.storeId, type: n.type, ticket_id: n.ticketId ?? null, order_id: n.orderId ?? null, message: n.message ?? null })),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The notifications of every store the person is a member of, newest first, each with whether this person read it. */
export async function listForPerson(db: Kysely<DB>, personId: number, q: { unread?: boolean; take: number; page: number }) {
  let query = db
    .selectFrom('notifications as n')
    .innerJoin('stores as s', 's.id', 'n.store_id')
    .leftJoin('notification_reads as r', (j) =>
      j.onRef('r.supplier_id', '=', 'n.supplier_id').onRef('r.notification_id', '=', 'n.id').on('r.person_id', '=', personId),
    )
    .where(isMember(personId, 'n.store_id'));
  if (q.unread) query = query.where('r.notification_id', 'is', null);
  return offsetPage(
    query,
    (page) =>
      page
        .select(['n.id', 'n.type', 'n.store_id', 's.internal_code as store_code', 's.name as store_name', 'n.ticket_id', 'n.order_id', 'n.message', 'n.created_at'])
        .select(sql<boolean>`r.notification_id is not null`.as('read'))
        // A delivery tells how much came: the order's packages delivered and ordered (fixed once delivered).
        .select(
          sql<{ delivered: number; ordered: number } | null>`case when n.type = 'ORDER_DELIVERED' then (
          select json_build_object('delivered', coalesce(sum((l->>'deliveredQuantity')::int), 0), 'ordered', coalesce(sum((l->>'quantity')::int), 0))
          from orders o cross join jsonb_array_elements(o.products) l
          where o.supplier_id = n.supplier_id and o.id = n.order_id) end`.as('packages'),
        )
        .orderBy('n.id', 'desc'),
    q,
  );
}

/** Marks as read, for this person, those of `ids` that belong to their stores; answers those ids. */
export async function markRead(db: Kysely<DB>, personId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const result = await sql<{ id: number }>`
    with mine as (
      select n.supplier_id, n.id
      from notifications n
      where n.id = any(${ids}::bigint[]) and ${isMember(personId, 'n.store_id')}),
    marked as (
      insert into notification_reads (supplier_id, notification_id, person_id)
      select supplier_id, id, ${personId} from mine
      on conflict do nothing)
    select id from mine order by id`.execute(db);
  return result.rows.map((r) => r.id);
}

export type NotificationRow = Awaited<ReturnType<typeof listForPerson>>['rows'][number];
