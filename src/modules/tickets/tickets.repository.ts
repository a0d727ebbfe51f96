// Every SQL statement of support tickets.
import { sql, type Kysely, type SelectQueryBuilder, type Selectable, type SqlBool, type Transaction } from 'kysely';
import type { DB, TicketMessage, TicketStatus, TicketsTable } from '../../db/types.ts';
import { offsetPage } from '../../db/paging.ts';

type Executor = Kysely<DB> | Transaction<DB>;
/** The store user who opened a ticket, as the supplier registered them. */
export type OpenedBy = { name: string | null; phone: string | null; email: string | null };
/** `store_name` and `opened_by_user` are read only when names are asked for (withNames). */
export type TicketRow = Selectable<TicketsTable> & { store_code: string; store_name?: string; opened_by_user?: OpenedBy | null };

function base(db: Executor) {
  return db
    .selectFrom('tickets as t')
    .innerJoin('stores as s', 's.id', 't.store_id')
    .selectAll('t')
    .select('s.internal_code as store_code');
}

/**
 * Adds the store's name and who opened the ticket to a selection of tickets joined to their
 * store (README.md, "Names"): the membership of the store naming the person who opened it
 * (the earliest, as an order's buyer), so the supplier sees what it registered and never
 * what another supplier did. A subquery of the page's own statement: no query per row, and
 * only the rows answered pay for it (not the count).
 */
function withNames<O>(query: SelectQueryBuilder<DB & { t: TicketsTable; s: DB['stores'] }, 't' | 's', O>) {
  return query.select([
    's.name as store_name',
    sql<OpenedBy | null>`(select json_build_object('name', m.name, 'phone', m.phone, 'email', m.email)
      from store_users m join people p on p.id = t.opened_by
      where m.store_id = t.store_id and (m.phone = p.phone or m.email = p.email)
      order by m.created_at, m.id limit 1)`.as('opened_by_user'),
  ]);
}

export async function insertTicket(
  trx: Transaction<DB>,
  t: { supplierId: number; storeId: number; personId: number; message: string; orderId: number | null; at: Date },
): Promise<number> {
  const messages: TicketMessage[] = [{ from: 'STORE', message: t.message, at: t.at.toISOString() }];
  const row = await trx
    .insertInto('tickets')
    .values({
      supplier_id: t.supplierId,
      store_id: t.storeId,
      opened_by: t.personId,
      status: 'PENDING',
      user_message: t.message,
      order_id: t.orderId,
      messages: JSON.stringify(messages),
      created_at: t.at,
      updated_at: t.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export type TicketRef = { ticketId: number } | { externalTicketId: string };

/** The supplier's ticket, by id or by its external id, locked for a change. */
export async function lockTicket(trx: Transaction<DB>, supplierId: number, ref: TicketRef): Promise<TicketRow | undefined> {
  let query = base(trx).where('t.supplier_id', '=', supplierId);
  query = 'ticketId' in ref ? query.where('t.id', '=', ref.ticketId) : query.where('t.external_ticket_id', '=', ref.externalTicketId);
  return query.forUpdate('t').executeTakeFirst();
}


export async function findTicket(db: Executor, supplierId: number, id: number, names = false): Promise<TicketRow | undefined> {
  const query = base(db).where('t.supplier_id', '=', supplierId).where('t.id', '=', id);
  return names ? withNames(query).executeTakeFirst() : query.executeTakeFirst();
}

/** Any supplier's ticket by id (the store app then checks the person's membership of its store). */
export async function findTicketById(db: Executor, id: number): Promise<TicketRow | undefined> {
  return base(db).where('t.id', '=', id).executeTakeFirst();
}

export async function saveTicket(
  trx: Transaction<DB>,
  supplierId: number,
  id: number,
  t: { status: TicketStatus; externalTicketId: string | null; resolvedAt: string | null; messages: TicketMessage[]; at: Date },
) {
  await trx
    .updateTable('tickets')
    .set({
      status: t.status,
      external_ticket_id: t.externalTicketId,
      resolved_at: t.resolvedAt,
      messages: JSON.stringify(t.messages),
      updated_at: t.at,
    })
    .where('supplier_id', '=', supplierId)
    .where('id', '=', id)
    .execute();
}

/** Newest first by id. `supplierId` or `storeId` scopes the list; `names` adds the store's name and who opened each (withNames). */
export async function listTickets(
  db: Kysely<DB>,
  scope: { supplierId: number } | { storeId: number },
  q: { status?: TicketStatus; names?: boolean; take: number; page: number },
) {
  let query = db.selectFrom('tickets as t');
  query = 'supplierId' in scope ? query.where('t.supplier_id', '=', scope.supplierId) : query.where('t.store_id', '=', scope.storeId);
  if (q.status) query = query.where('t.status', '=', q.status);
  const { rows, total } = await offsetPage(
    query,
    (page) => {
      const selected = page.innerJoin('stores as s', 's.id', 't.store_id').selectAll('t').select('s.internal_code as store_code').orderBy('t.id', 'desc');
      return q.names ? withNames(selected) : selected;
    },
    q,
  );
  return { rows: rows as TicketRow[], total };
}
