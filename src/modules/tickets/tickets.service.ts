// Support tickets: stores open and answer them in the app, suppliers work them through
// the supplier API. Every change is one transaction with what it causes: the webhook to
// the supplier (a store's action) or the notification to the store (a supplier's).
import type { Kysely, Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/errors.ts';
import type { DB, TicketStatus } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { SupplierClocks } from '../../lib/clock.ts';
import { fieldError, notFound, type AppError } from '../../lib/errors.ts';
import { page } from '../../lib/pagination.ts';
import { recordNotification } from '../store-app/store-app.notifications.ts';
import { findOrder } from '../orders/orders.repository.ts';
import { recordEvent } from '../webhooks/webhooks.events.ts';
import * as repo from './tickets.repository.ts';
import { applyTicketOperation, type TicketOperation, type TicketState } from './tickets.rules.ts';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/** The ticket as every ticket endpoint and webhook shows it (openapi.json). */
export function ticketView(row: repo.TicketRow) {
  return {
    id: row.id,
    status: row.status,
    userMessage: row.user_message,
    externalTicketId: row.external_ticket_id,
    platformInternalCode: row.store_code,
    resolvedAt: iso(row.resolved_at),
    orderId: row.order_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    messages: row.messages.map((m) => ({ from: m.from, message: m.message, at: m.at })),
  };
}

const appTicketView = (row: repo.TicketRow) => ({ ...ticketView(row), storeId: row.store_id });

/** A ticket read with `names=true` (README.md, "Names"): the contract's ticket, the store's name and who opened it. */
const namedTicketView = (row: repo.TicketRow) => ({ ...ticketView(row), storeName: row.store_name!, openedBy: row.opened_by_user ?? null });

const stateOf = (row: repo.TicketRow): TicketState => ({
  id: row.id,
  status: row.status,
  externalTicketId: row.external_ticket_id,
  resolvedAt: iso(row.resolved_at),
  messages: row.messages,
});

export interface TicketContext {
  db: Kysely<DB>;
  /** Each supplier's time: a ticket's times follow a test twin's moved clock (src/modules/sandbox). */
  clocks: SupplierClocks;
  /** Wakes this process's webhook dispatcher after a commit that recorded an event. */
  wake: () => void;
}

const ticketNotFound = (ref: repo.TicketRef) =>
  'ticketId' in ref ? notFound('ticket', String(ref.ticketId), '/ticketId') : notFound('ticket', ref.externalTicketId, '/externalTicketId');

/** Exactly one of ticketId and externalTicketId (openapi.json): neither or both is a 400. */
export function ticketRef(body: { ticketId?: number; externalTicketId?: string }): repo.TicketRef {
  if (body.ticketId !== undefined && body.externalTicketId !== undefined) {
    throw fieldError('MUTUALLY_EXCLUSIVE', '/externalTicketId', 'send ticketId or externalTicketId, not both');
  }
  if (body.ticketId !== undefined) return { ticketId: body.ticketId };
  if (body.externalTicketId !== undefined) return { externalTicketId: body.externalTicketId };
  throw fieldError('REQUIRED', '/ticketId', 'send ticketId or externalTicketId');
}

/** Saves an operation's result and what it causes, in the transaction that holds the ticket's row lock. */
async function commitChange(trx: Transaction<DB>, row: repo.TicketRow, operation: TicketOperation, at: Date) {
  const change = applyTicketOperation(stateOf(row), operation, at.toISOString());
  if (!change.changed) return row;
  await repo.saveTicket(trx, row.supplier_id, row.id, { ...change.ticket, at });
  const saved = (await repo.findTicket(trx, row.supplier_id, row.id))!;
  if (change.notify) {
    const message = 'message' in operation ? operation.message : undefined;
    await recordNotification(trx, { supplierId: row.supplier_id, storeId: row.store_id, type: change.notify, ticketId: row.id, message: message ?? null });
  }
  if (change.webhook) {
    await recordEvent(trx, { supplierId: row.supplier_id, type: change.webhook, orderingKey: `ticket:${row.id}`, body: ticketView(saved) });
  }
  return saved;
}

/** A duplicate externalTicketId is refused once, here, where the unique index reports it. */
async function translatingDuplicates<T>(work: () => Promise<T>, externalTicketId: string | undefined): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw fieldError('ALREADY_EXISTS', '/externalTicketId', `another ticket of the supplier has externalTicketId ${externalTicketId}`);
    }
    throw error;
  }
}

// The supplier's side.

export async function getTicket(db: Kysely<DB>, supplierId: number, id: number, names = false) {
  const row = await repo.findTicket(db, supplierId, id, names);
  if (!row) throw notFound('ticket', String(id), '/params/id');
  return names ? namedTicketView(row) : ticketView(row);
}

export async function listTickets(db: Kysely<DB>, supplierId: number, query: { status?: TicketStatus; names?: boolean; take: number; page: number }) {
  const { rows, total } = await repo.listTickets(db, { supplierId }, query);
  return page(rows.map(query.names ? namedTicketView : ticketView), total, query.page, query.take);
}

async function supplierChange(ctx: TicketContext, supplierId: number, ref: repo.TicketRef, operation: TicketOperation, missing: AppError) {
  const externalTicketId = operation.op === 'update' ? operation.externalTicketId : undefined;
  // The supplier's time is read before the transaction: reading it may query the database,
  // and inside a transaction on embedded PGlite (one connection) that query would wait for
  // the transaction holding it, for ever. An audited route's ctx.db is already its
  // transaction: the time is then read through it.
  const at = await ctx.clocks.nowFor(supplierId, ctx.db);
  const saved = await translatingDuplicates(
    () =>
      inTransaction(ctx.db, async (trx) => {
        const row = await repo.lockTicket(trx, supplierId, ref);
        if (!row) throw missing;
        return commitChange(trx, row, operation, at);
      }),
    externalTicketId,
  );
  return ticketView(saved);
}

export function updateTicket(ctx: TicketContext, supplierId: number, id: number, body: { externalTicketId?: string; status?: 'IN_PROGRESS' | 'SOLVED'; message?: string }) {
  return supplierChange(ctx, supplierId, { ticketId: id }, { op: 'update', ...body }, notFound('ticket', String(id), '/params/id'));
}

export function requestInfo(ctx: TicketContext, supplierId: number, body: { ticketId?: number; externalTicketId?: string; message?: string }) {
  const ref = ticketRef(body);
  return supplierChange(ctx, supplierId, ref, { op: 'requestInfo', ...(body.message !== undefined ? { message: body.message } : {}) }, ticketNotFound(ref));
}

export function closeTicket(ctx: TicketContext, supplierId: number, body: { ticketId?: number; externalTicketId?: string; message?: string }) {
  const ref = ticketRef(body);
  return supplierChange(ctx, supplierId, ref, { op: 'close', ...(body.message !== undefined ? { message: body.message } : {}) }, ticketNotFound(ref));
}

// The store's side (src/modules/store-app calls these after its membership guard found the store).

/** Any ticket by id with its supplier and store (the store app checks the person's membership of that store). */
export async function ticketById(db: Kysely<DB>, id: number) {
  const row = await repo.findTicketById(db, id);
  return row && { supplierId: row.supplier_id, storeId: row.store_id, view: appTicketView(row) };
}

export async function openTicket(ctx: TicketContext, store: { id: number; supplierId: number }, personId: number, body: { message: string; orderId?: number }) {
  if (body.orderId !== undefined) {
    const order = await findOrder(ctx.db, store.supplierId, body.orderId);
    if (!order || order.store_id !== store.id) throw fieldError('UNKNOWN_ORDER', '/orderId', `order ${body.orderId} is not an order of this store`);
  }
  const at = await ctx.clocks.nowFor(store.supplierId, ctx.db); // before the transaction, as in supplierChange
  const saved = await inTransaction(ctx.db, async (trx) => {
    const id = await repo.insertTicket(trx, {
      supplierId: store.supplierId,
      storeId: store.id,
      personId,
      message: body.message,
      orderId: body.orderId ?? null,
      at,
    });
    const row = (await repo.findTicket(trx, store.supplierId, id))!;
    await recordEvent(trx, { supplierId: store.supplierId, type: 'ticket.created', orderingKey: `ticket:${id}`, body: ticketView(row) });
    return row;
  });
  ctx.wake();
  return appTicketView(saved);
}

/** The store answers the supplier's request for information on its ticket. */
export async function answerTicket(ctx: TicketContext, supplierId: number, id: number, body: { message: string }) {
  const at = await ctx.clocks.nowFor(supplierId, ctx.db); // before the transaction, as in supplierChange
  const saved = await inTransaction(ctx.db, async (trx) => {
    const row = await repo.lockTicket(trx, supplierId, { ticketId: id });
    if (!row) throw notFound('ticket', String(id), '/params/id');
    return commitChange(trx, row, { op: 'answer', message: body.message }, at);
  });
  ctx.wake();
  return appTicketView(saved);
}

export async function listStoreTickets(db: Kysely<DB>, storeId: number, query: { take: number; page: number }) {
  const { rows, total } = await repo.listTickets(db, { storeId }, query);
  return page(rows.map(appTicketView), total, query.page, query.take);
}
