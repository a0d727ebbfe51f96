// What concerns a person's stores: written by the modules whose supplier actions a
// store must hear of (tickets and orders), read in the store app.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { page } from '../../lib/pagination.ts';
import * as repo from './store-app.notifications.repository.ts';
import { enqueueForNotifications } from '../messages/messages.service.ts';

/** Records notifications for stores, in the caller's transaction (with the changes they tell of). */
export async function recordNotifications(trx: Transaction<DB>, notifications: repo.NewNotification[]): Promise<number[]> {
  const ids = await repo.insertNotifications(trx, notifications);
  // And, to the people who opted in, a message (the outbox row in this same transaction).
  await enqueueForNotifications(trx, notifications);
  return ids;
}

export async function recordNotification(trx: Transaction<DB>, notification: repo.NewNotification): Promise<number> {
  const [id] = await recordNotifications(trx, [notification]);
  return id!;
}

const view = (r: repo.NotificationRow) => ({
  id: r.id,
  type: r.type as repo.NewNotification['type'],
  store: { id: r.store_id, internalCode: r.store_code, name: r.store_name },
  ticketId: r.ticket_id,
  orderId: r.order_id,
  message: r.message,
  ...(r.packages ? { packages: r.packages } : {}),
  createdAt: r.created_at.toISOString(),
  read: r.read,
});

export async function listNotifications(db: Kysely<DB>, personId: number, query: { unread?: boolean; take: number; page: number }) {
  const { rows, total } = await repo.listForPerson(db, personId, query);
  return page(rows.map(view), total, query.page, query.take);
}

/** Ids of other people's stores are left alone and left out of the answer (their existence is not told). */
export async function markRead(db: Kysely<DB>, personId: number, ids: number[]) {
  return { read: await repo.markRead(db, personId, [...new Set(ids)]) };
}
