// Every SQL statement of support tickets.
import { type Kysely, type Selectable, type SqlBool, type Transaction } from 'kysely';
import type { DB, TicketMessage, TicketStatus, TicketsTable } from '../../db/types.ts';
import { offsetPage } from '../../db/paging.ts';

type Executor = Kysely<DB> | Transaction<DB>;
export type TicketRow = Selectable<TicketsTable> & { store_code: string };

function base(db: Executor) {
  return db
    .selectFrom('tickets as t')
    .innerJoin('stores as s', 's.id', 't.store_id')
    .selectAll('t')
    .select('s.internal_code as store_code');
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


export async function findTicket(db: Executor, supplierId: number, id: number): Promise<TicketRow | undefined> {
  return base(db).where('t.supplier_id', '=', supplierId).where('t.id', '=', id).executeTakeFirst();
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

/** Newest first by id. `supplierId` or `storeId` scopes the list. */
export async function listTickets(db: Kysely<DB>, scope: { supplierId: number } | { storeId: number }, q: { status?: TicketStatus; take: number; page: number }) {
  let query = db.selectFrom('tickets as t');
  query = 'supplierId' in scope ? query.where('t.supplier_id', '=', scope.supplierId) : query.where('t.store_id', '=', scope.storeId);
  if (q.status) query = query.where('t.status', '=', q.status);
  const { rows, total } = await offsetPage(
    query,
    (page) => page.innerJoin('stores as s', 's.id', 't.store_id').selectAll('t').select('s.internal_code as store_code').orderBy('t.id', 'desc'),
    q,
  );
  return { rows: rows as TicketRow[], total };
}
