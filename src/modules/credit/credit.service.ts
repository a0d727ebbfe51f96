// Credit, invoices and payments (README.md): a store's terms, its account, the aging of a
// supplier's open balances, an order's payment method, the credit check of an order on
// CREDIT under the store's lock, and the supplier's release of a held order.
import { Decimal } from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import type { CreditHold, DB, PaymentMethod } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import { page } from '../../lib/pagination.ts';
import { lockOrders } from '../orders/orders.repository.ts';
import { getOrder, type OrderJson, type StoreOrder } from '../orders/orders.service.ts';
import { recordEvent } from '../webhooks/webhooks.events.ts';
import * as repo from './credit.repository.ts';
import type { CreditFields } from './credit.schemas.ts';

/** Answers carry money as JSON numbers, as orders do; sums stay exact decimals until then. */
const money = (value: string | number | Decimal) => new Decimal(value).toNumber();
/** How many payments an account answers. */
export const RECENT_PAYMENTS = 20;

const dayNumber = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000;
/** Whole days from `from` to `to` (YYYY-MM-DD). */
export const daysBetween = (from: string, to: string) => dayNumber(to) - dayNumber(from);

/** The terms as stored: a method listed twice counts once (its first place), the rest defaulted. */
export function creditWrite(body: CreditFields): repo.CreditWrite {
  return {
    payment_methods: [...new Set(body.paymentMethods)],
    credit_limit: body.limit ?? 0,
    term_days: body.termDays ?? null,
    hold_when_overdue_days: body.holdWhenOverdueDays ?? null,
    allow_over_limit_with_approval: body.allowOverLimitWithApproval ?? false,
  };
}

export function creditView(row: repo.CreditRow | undefined) {
  return {
    paymentMethods: row?.payment_methods ?? [],
    limit: money(row?.credit_limit ?? 0),
    termDays: row?.term_days ?? null,
    holdWhenOverdueDays: row?.hold_when_overdue_days ?? null,
    allowOverLimitWithApproval: row?.allow_over_limit_with_approval ?? false,
    updatedAt: row ? row.updated_at.toISOString() : null,
  };
}

async function requireStore(db: Kysely<DB>, supplierId: number, code: string) {
  const store = await repo.storeByCode(db, supplierId, code);
  if (!store) throw notFound('store', code);
  return store;
}

/** PUT /store/{code}/credit: the store's terms, written whole. */
export async function putCredit(db: Kysely<DB>, supplierId: number, code: string, body: CreditFields) {
  const store = await requireStore(db, supplierId, code);
  return creditView(await repo.upsertCredit(db, supplierId, store.id, creditWrite(body)));
}

/** GET /store/{code}/credit: the terms; a store without any answers none (no methods, limit 0, updatedAt null). */
export async function getCredit(db: Kysely<DB>, supplierId: number, code: string) {
  const store = await requireStore(db, supplierId, code);
  return creditView(await repo.findCredit(db, store.id));
}

export function invoiceView(row: repo.InvoiceRow, today: string) {
  const balance = Decimal.max(new Decimal(row.amount).minus(row.paid), 0);
  return {
    internalCode: row.internal_code,
    storeInternalCode: row.store_code,
    orderIds: row.order_ids.map(Number),
    amount: money(row.amount),
    paid: money(row.paid),
    balance: money(balance),
    issuedAt: new Date(row.issued_at).toISOString(),
    dueDate: row.due_date,
    daysOverdue: balance.gt(0) ? Math.max(0, daysBetween(row.due_date, today)) : 0,
    pdfUrl: row.pdf_url,
  };
}

export function paymentView(row: repo.PaymentRow) {
  const allocated = row.allocations.reduce((sum, a) => sum.plus(a.amount), new Decimal(0));
  return {
    internalCode: row.internal_code,
    storeInternalCode: row.store_code,
    amount: money(row.amount),
    method: row.method,
    collectedBy: row.collected_by,
    paidAt: new Date(row.paid_at).toISOString(),
    allocations: row.allocations.map((a) => ({ invoiceInternalCode: a.invoiceInternalCode, amount: a.amount })),
    unallocated: money(new Decimal(row.amount).minus(allocated)),
  };
}

/** A store's account (README.md, "The account"): `today` is the platform's, by the app's clock. */
export async function accountOf(db: Kysely<DB>, storeId: number, today: string) {
  const [credit, exposure, invoices, payments] = await Promise.all([
    repo.findCredit(db, storeId),
    repo.exposure(db, storeId, today),
    repo.openInvoices(db, storeId),
    repo.recentPayments(db, storeId, RECENT_PAYMENTS),
  ]);
  const limit = new Decimal(credit?.credit_limit ?? 0);
  return {
    paymentMethods: credit?.payment_methods ?? [],
    limit: money(limit),
    used: money(exposure.used),
    pending: money(exposure.pending),
    overdue: money(exposure.overdue),
    available: money(limit.minus(exposure.used).minus(exposure.pending)),
    termDays: credit?.term_days ?? null,
    allowOverLimitWithApproval: credit?.allow_over_limit_with_approval ?? false,
    invoices: invoices.map((i) => invoiceView(i, today)),
    payments: payments.map(paymentView),
  };
}

/** GET /store/{code}/account: as the store app answers its store. */
export async function storeAccount(db: Kysely<DB>, supplierId: number, code: string, today: string) {
  const store = await requireStore(db, supplierId, code);
  return accountOf(db, store.id, today);
}

/** GET /account/aging: the supplier's open balances by days past due, per store and together. */
export async function aging(db: Kysely<DB>, supplierId: number, today: string, query: { storeInternalCode?: string; take: number; page: number }) {
  const { rows, totals, stores } = await repo.aging(db, supplierId, today, query);
  const buckets = (r: Omit<repo.AgingRow, 'store_code' | 'store_name'>) => ({
    current: money(r.current),
    days1to30: money(r.days1to30),
    days31to60: money(r.days31to60),
    over60: money(r.over60),
    total: money(r.total),
  });
  const data = rows.map((r) => ({ storeInternalCode: r.store_code, storeName: r.store_name, ...buckets(r) }));
  return { asOf: today, totals: buckets(totals), ...page(data, stores, query.page, query.take) };
}

/**
 * The method an order of the store is placed with: the one asked for, else the store's
 * first; null for a store without terms, which takes none (today's orders). A method the
 * store does not have is a 400 naming the ones it has.
 */
export function paymentMethodFor(credit: repo.CreditRow | undefined, asked: PaymentMethod | undefined): PaymentMethod | null {
  if (!credit) {
    if (asked !== undefined) throw fieldError('INVALID_VALUE', '/paymentMethod', 'this store has no payment methods to choose from: leave paymentMethod out');
    return null;
  }
  const method = asked ?? credit.payment_methods[0]!;
  if (!credit.payment_methods.includes(method)) {
    throw fieldError('INVALID_VALUE', '/paymentMethod', `${method} is not one of this store's payment methods: ${credit.payment_methods.join(', ')}`);
  }
  return method;
}

/** A store's terms through the store side's cache (store_credit announces its changes, migration 0042). */
export function cachedCreditOfStore(ctx: { db: Kysely<DB>; cache: { get<T>(key: string, compute: () => Promise<T>): Promise<T> } }, storeId: number) {
  return ctx.cache.get(`credit:${storeId}`, () => repo.findCredit(ctx.db, storeId));
}

/** Why an order on credit cannot take the store's credit as it is, or undefined when it can. */
function creditRefusal(credit: repo.CreditRow, exposure: repo.Exposure, total: Decimal, today: string): { code: 'OVERDUE_INVOICES' | 'CREDIT_LIMIT_EXCEEDED'; message: string; shortfall?: Decimal } | undefined {
  const late = credit.hold_when_overdue_days;
  if (late !== null && exposure.oldest_due !== null && daysBetween(exposure.oldest_due, today) > late) {
    const days = daysBetween(exposure.oldest_due, today);
    return { code: 'OVERDUE_INVOICES', message: `an invoice of this store is ${days} days past its due date (orders on credit wait once one is more than ${late})` };
  }
  const available = new Decimal(credit.credit_limit).minus(exposure.used).minus(exposure.pending);
  if (total.lte(available)) return undefined;
  const shortfall = total.minus(available);
  return {
    code: 'CREDIT_LIMIT_EXCEEDED',
    message: `the order's total ${total.toString()} is over the available credit ${available.toString()} by ${shortfall.toString()}`,
    shortfall,
  };
}

/** Makes an order on CREDIT of what the store's credit allows: as it is, or held; throws a refusal. */
export type CreditDecision = (order: StoreOrder) => StoreOrder;

/**
 * Places a store's order on CREDIT (README.md, "The credit check"): in one transaction,
 * under the lock of the store's terms, it reads what the store's invoices and orders on
 * credit already take, then `place` writes the order in that transaction, passing the
 * order as it will be written (its total final: a minimum's fee included) through
 * `decide`. Two such orders of one store are checked one after the other: the second
 * counts the first. One that does not fit is refused (CREDIT_LIMIT_EXCEEDED or
 * OVERDUE_INVOICES, 400, the shortfall in the message) or, where the supplier allows it
 * and the store asked (`requestApproval`), placed PENDING with its `creditHold`, announced
 * to a subscribed supplier by order.credit_hold. `at`: the placement's time; `today`: the
 * platform's date.
 */
export async function placeOnCredit(
  db: Kysely<DB>,
  store: { id: number; supplierId: number },
  options: { requestApproval: boolean; at: string; today: string },
  place: (trx: Transaction<DB>, decide: CreditDecision) => Promise<OrderJson>,
): Promise<OrderJson> {
  return inTransaction(db, async (trx) => {
    const credit = await repo.lockCredit(trx, store.id);
    // The terms changed since the method was chosen (read through the cache): as if asked now.
    if (!credit?.payment_methods.includes('CREDIT')) paymentMethodFor(credit, 'CREDIT');
    const exposure = await repo.exposure(trx, store.id, options.today);
    const decide: CreditDecision = (order) => {
      const refusal = creditRefusal(credit!, exposure, new Decimal(order.total), options.today);
      if (!refusal) return { ...order, payment_method: 'CREDIT', credit_hold: null };
      const approvable = credit!.allow_over_limit_with_approval;
      if (!(options.requestApproval && approvable)) {
        const way = approvable ? 'send it with requestApproval: true for the supplier to approve, ' : '';
        const message = `${refusal.message}: ${way}pay it another way or reduce the cart`;
        throw new AppError(refusal.code, message, { errors: [{ pointer: '/paymentMethod', code: refusal.code, message }] });
      }
      const hold: CreditHold = { reason: refusal.code, detail: refusal.message, ...(refusal.shortfall ? { shortfall: refusal.shortfall.toNumber() } : {}), at: options.at };
      return { ...order, payment_method: 'CREDIT', credit_hold: hold };
    };
    const placed = await place(trx, decide);
    if (placed.creditHold) await recordEvent(trx, { supplierId: store.supplierId, type: 'order.credit_hold', orderingKey: `order:${placed.id}`, body: placed });
    return placed;
  });
}

/**
 * PUT /order/{id}/release: the supplier takes a held order on credit (README.md, "Holds").
 * The order stays PENDING, now counts as pending credit, and its history says so; one not
 * on hold (or no longer PENDING) is a 409.
 */
export async function releaseOrder(db: Kysely<DB>, supplierId: number, orderId: number, at: string) {
  await inTransaction(db, async (trx) => {
    const [row] = await lockOrders(trx, supplierId, [orderId]);
    if (!row) throw notFound('order', String(orderId), '/params/id');
    if (row.credit_hold === null || row.status !== 'PENDING') {
      throw new AppError('INVALID_ORDER_TRANSITION', `order ${orderId} is not on credit hold (${row.status})`);
    }
    await repo.releaseHold(trx, supplierId, orderId, { status: 'PENDING', at, by: 'SUPPLIER', note: 'credit hold released' });
  });
  return getOrder(db, supplierId, orderId);
}
