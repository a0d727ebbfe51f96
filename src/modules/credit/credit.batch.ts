// POST /batch/invoice and POST /batch/payment (upsert only): what the ERP relays of a
// store's account (README.md). Each chunk resolves the codes it names with one read per
// kind (stores, orders or invoices, and the records already there), fails an item whose
// references are wrong alone, with its pointer in the message, and writes the others with
// one statement, the last item of a code winning.
import { Decimal } from 'decimal.js';
import type { Transaction } from 'kysely';
import type { Static } from 'typebox';
import type { DB } from '../../db/types.ts';
import { defineBatchKind, failed, lastPerKey, upsertByCode, type ItemOutcome } from '../batch/batch.kinds.ts';
import * as repo from './credit.repository.ts';
import { InvoiceBatchBody, PaymentBatchBody, type InvoiceInput, type PaymentInput } from './credit.schemas.ts';

type Invoice = Static<typeof InvoiceInput>;
type Payment = Static<typeof PaymentInput>;

const ok: ItemOutcome = { status: 'completed' };
const fail = (code: string, pointer: string, message: string) => failed(code, `${pointer}: ${message}`);
const unique = <T>(values: T[]) => [...new Set(values)];

/** An invoice's references checked against what the supplier has: the write, or why the item fails. */
function checkInvoice(item: Invoice, stores: Map<string, number>, orders: Map<number, number>, existing: Map<string, { store_id: number }>): repo.InvoiceWrite | ItemOutcome {
  const storeId = stores.get(item.storeInternalCode);
  if (storeId === undefined) return fail('UNKNOWN_STORE', '/storeInternalCode', `store ${item.storeInternalCode} does not exist`);
  const before = existing.get(item.internalCode);
  if (before && before.store_id !== storeId) {
    return fail('INVOICE_OF_ANOTHER_STORE', '/storeInternalCode', `invoice ${item.internalCode} was relayed for another store; an invoice keeps its store`);
  }
  const orderIds = unique(item.orderIds ?? []);
  const foreign = orderIds.filter((id) => orders.get(id) !== storeId);
  if (foreign.length > 0) return fail('UNKNOWN_ORDER', '/orderIds', `not orders of store ${item.storeInternalCode}: ${foreign.join(', ')}`);
  if (item.dueDate < item.issuedAt.slice(0, 10)) return fail('INVALID_DATE_RANGE', '/dueDate', `${item.dueDate} is before the invoice was issued (${item.issuedAt})`);
  return {
    internal_code: item.internalCode,
    store_id: storeId,
    amount: item.amount,
    issued_at: item.issuedAt,
    due_date: item.dueDate,
    pdf_url: item.pdfUrl ?? null,
    order_ids: orderIds,
  };
}

/** A payment's references checked: the write, or why the item fails. */
function checkPayment(item: Payment, stores: Map<string, number>, invoices: Map<string, { id: number; store_id: number }>, existing: Map<string, number>): repo.PaymentWrite | ItemOutcome {
  const storeId = stores.get(item.storeInternalCode);
  if (storeId === undefined) return fail('UNKNOWN_STORE', '/storeInternalCode', `store ${item.storeInternalCode} does not exist`);
  const before = existing.get(item.internalCode);
  if (before !== undefined && before !== storeId) {
    return fail('PAYMENT_OF_ANOTHER_STORE', '/storeInternalCode', `payment ${item.internalCode} was relayed for another store; a payment keeps its store`);
  }
  const allocations: repo.PaymentWrite['allocations'] = [];
  const seen = new Set<string>();
  let allocated = new Decimal(0);
  for (const [n, a] of (item.allocations ?? []).entries()) {
    const pointer = `/allocations/${n}/invoiceInternalCode`;
    if (seen.has(a.invoiceInternalCode)) return fail('INVALID_VALUE', pointer, `invoice ${a.invoiceInternalCode} is listed twice: one allocation per invoice`);
    seen.add(a.invoiceInternalCode);
    const invoice = invoices.get(a.invoiceInternalCode);
    if (!invoice || invoice.store_id !== storeId) return fail('UNKNOWN_INVOICE', pointer, `store ${item.storeInternalCode} has no invoice ${a.invoiceInternalCode}`);
    allocated = allocated.plus(a.amount);
    allocations.push({ invoiceId: invoice.id, invoiceInternalCode: a.invoiceInternalCode, amount: a.amount });
  }
  if (allocated.gt(item.amount)) {
    return fail('ALLOCATIONS_EXCEED_AMOUNT', '/allocations', `the allocations add up to ${allocated.toString()}, more than the payment's amount ${item.amount}`);
  }
  return {
    internal_code: item.internalCode,
    store_id: storeId,
    amount: item.amount,
    method: item.method,
    collected_by: item.collectedBy ?? null,
    paid_at: item.paidAt,
    allocations,
  };
}

/** Splits checked items into their outcomes and the writes of the valid ones (the last of a code wins). */
function settle<W extends { internal_code: string }>(checked: (W | ItemOutcome)[]): { outcomes: ItemOutcome[]; writes: W[] } {
  const isOutcome = (c: W | ItemOutcome): c is ItemOutcome => 'status' in c;
  const outcomes = checked.map((c) => (isOutcome(c) ? c : ok));
  const writes = checked.filter((c): c is W => !isOutcome(c));
  return { outcomes, writes: lastPerKey(writes, (w) => w.internal_code) };
}

async function applyInvoices(trx: Transaction<DB>, supplierId: number, items: Invoice[]) {
  const [stores, orders, existing] = [
    await repo.storeIdsByCode(trx, supplierId, unique(items.map((i) => i.storeInternalCode))),
    await repo.orderStores(trx, supplierId, unique(items.flatMap((i) => i.orderIds ?? []))),
    await repo.invoicesByCode(trx, supplierId, unique(items.map((i) => i.internalCode))),
  ];
  const { outcomes, writes } = settle(items.map((item) => checkInvoice(item, stores, orders, existing)));
  await repo.writeInvoices(trx, supplierId, writes);
  return outcomes;
}

async function applyPayments(trx: Transaction<DB>, supplierId: number, items: Payment[]) {
  const [stores, invoices, existing] = [
    await repo.storeIdsByCode(trx, supplierId, unique(items.map((i) => i.storeInternalCode))),
    await repo.invoicesByCode(trx, supplierId, unique(items.flatMap((i) => (i.allocations ?? []).map((a) => a.invoiceInternalCode)))),
    await repo.paymentStoresByCode(trx, supplierId, unique(items.map((i) => i.internalCode))),
  ];
  const { outcomes, writes } = settle(items.map((item) => checkPayment(item, stores, invoices, existing)));
  await repo.writePayments(trx, supplierId, writes);
  return outcomes;
}

// What a store owes is order business: the orders' bulk scope, so every credential that
// moves orders relays their invoices and payments, and no scope list changes.
const route = { scope: 'supplier/order.bulkwrite', tags: ['credit'] };

export const invoiceBatchKind = defineBatchKind({
  endpoint: '/batch/invoice',
  body: InvoiceBatchBody,
  route: { ...route, summary: "Upsert a store's invoices, each written whole with the orders it bills (asynchronous)" },
  actions: (action) => [upsertByCode(action, { apply: applyInvoices })],
});

export const paymentBatchKind = defineBatchKind({
  endpoint: '/batch/payment',
  body: PaymentBatchBody,
  route: { ...route, summary: "Upsert a store's payments, each with its allocations to the store's invoices (asynchronous)" },
  actions: (action) => [upsertByCode(action, { apply: applyPayments })],
});
