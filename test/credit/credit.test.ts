// Credit, invoices and payments through the real HTTP layer (src/modules/credit/README.md):
// a store's terms (PUT and the store batch), orders with a payment method, the credit
// check (refused over the limit, sent for approval, two orders at once that fit alone but
// not together: exactly one holds), the hold released or cancelled by the supplier,
// invoices and partial payments moving the available credit, an order's payment status,
// invoice.overdue once per invoice and only to subscribers, the overdue hold, the aging.
// The app's clock is moved; nothing waits. On PostgreSQL the two orders really race; on
// PGlite (one connection) they run one after the other.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceOverdue } from '../../src/modules/credit/credit.overdue.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { OffsetClock } from '../helpers/clock.ts';

const clock = new OffsetClock();
/** Moves the app's clock to an instant (forward only: tokens were issued at the first). */
const setClock = (iso: string) => {
  const by = Date.parse(iso) - clock.now().getTime();
  expect(by, `the clock only moves forward (to ${iso})`).toBeGreaterThanOrEqual(0);
  clock.advance(by);
};
/** Logs the supplier in again by the app's clock (its token of days earlier has expired). */
async function logInAgain(supplier: TestSupplier) {
  const res = ok(await t.request({ method: 'POST', url: '/login', payload: { clientId: supplier.clientId, clientSecret: supplier.clientSecret }, headers: { 'x-api-key': supplier.apiKey } }));
  supplier.token = res.access_token;
  supplier.headers = { ...supplier.headers, authorization: `Bearer ${res.access_token}` };
}
/** A store user's token, issued by the app's clock (one issued days earlier has expired). */
const storeToken = async (email: string) => ok(await t.admin('POST', '/admin/store-users/token', { email })).access_token as string;
// Platform timezone UTC (the test default): a due date is a UTC calendar day.
const T0 = '2027-03-01T15:00:00.000Z';

/** Credit of 5,000 with a 15-day term; over it, orders may be sent for approval; held on credit 8 days after an invoice is overdue. */
const TERMS = { paymentMethods: ['CREDIT', 'CASH_ON_DELIVERY'], limit: 5000, termDays: 15, holdWhenOverdueDays: 8, allowOverLimitWithApproval: true };

let t: TestApp;
let s: TestSupplier;
let other: TestSupplier;
let token: string;
let otherToken: string;
const storeIds: Record<string, number> = {};

const app = (method: 'GET' | 'POST', url: string, payload?: unknown, bearer = token) =>
  t.request({ method, url, payload: payload as never, headers: { authorization: `Bearer ${bearer}` } });
/** An order of `units` of P1 (1,000 each). */
const place = (store: string, units: number, body: Record<string, unknown> = {}, bearer = token) =>
  app('POST', `/app/stores/${storeIds[store]}/orders`, { lines: [{ productInternalCode: 'P1', units: 1, quantity: units }], ...body }, bearer);
const ok = (res: { statusCode: number; body: string }) => {
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(res.body);
};
const refused = (res: { statusCode: number; body: string }, status: number, code: string) => {
  expect(res.statusCode, res.body).toBe(status);
  expect(JSON.parse(res.body).code, res.body).toBe(code);
  return JSON.parse(res.body);
};
async function batch(url: string, body: unknown, supplier = s) {
  const { statuses } = await t.runBatch(supplier, url, body);
  return statuses;
}
const account = async (store: string) => ok(await app('GET', `/app/stores/${storeIds[store]}/account`));
const events = async (type: string) =>
  (await sql<{ supplier_id: number; body: string; ordering_key: string }>`select supplier_id, body, ordering_key from webhook_events where type = ${type} order by id`.execute(t.deps.db)).rows;

async function catalog(supplier: TestSupplier, stores: object[]) {
  await as(t, supplier, 'PUT', '/category', { internalCode: 'C', name: 'C' });
  await batch('/batch/brand', [{ internalCode: 'B', name: 'B' }], supplier);
  await batch('/batch/product', { upsert: [{ internalCode: 'P1', name: 'Cola', brandInternalCode: 'B', categoryInternalCode: 'C' }] }, supplier);
  await as(t, supplier, 'POST', '/pricelist', { internalCode: 'PL' });
  await batch('/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'PL', productInternalCode: 'P1', units: 1, price: 1000 }] } }, supplier);
  const [status] = await batch('/batch/store', { upsert: stores }, supplier);
  expect(status.failed, JSON.stringify(status)).toBe(0);
  for (const store of stores as { internalCode: string }[]) {
    ok(await as(t, supplier, 'POST', `/store/${store.internalCode}/add/user`, { users: [{ email: supplier === s ? 'ana@example.com' : 'bea@example.com' }] }));
  }
}

beforeAll(async () => {
  t = await createTestApp({ clock });
  setClock(T0);
  s = await t.supplier();
  other = await t.supplier();
  const store = (internalCode: string, extra: object = {}) => ({ internalCode, name: internalCode, priceListCode: 'PL', ...extra });
  await catalog(s, [
    store('S-CREDIT'),
    store('S-STRICT', { credit: { paymentMethods: ['CREDIT'], limit: 3000 } }),
    store('S-RACE', { credit: { paymentMethods: ['CREDIT'], limit: 1500 } }),
    store('S-NONE'),
  ]);
  await catalog(other, [store('O-1', { credit: { paymentMethods: ['CREDIT'], limit: 0, allowOverLimitWithApproval: true } })]);
  token = await storeToken('ana@example.com');
  otherToken = await storeToken('bea@example.com');
  for (const bearer of [token, otherToken]) for (const m of ok(await app('GET', '/app/me', undefined, bearer)).stores) storeIds[m.internalCode] = m.id;
  // s subscribes to the credit events; `other` to none.
  ok(await as(t, s, 'PUT', '/webhook', { baseUrl: 'https://erp.example/hooks', enabled: false, events: ['order.credit_hold', 'invoice.overdue'] }));
});
afterAll(() => t.close());

describe("a store's terms", () => {
  it('are written whole by PUT, read back, and none for a store without them', async () => {
    const put = ok(await as(t, s, 'PUT', '/store/S-CREDIT/credit', TERMS));
    expect(put).toMatchObject({ ...TERMS, updatedAt: expect.any(String) });
    expect(ok(await as(t, s, 'GET', '/store/S-CREDIT/credit'))).toEqual(put);
    expect(ok(await as(t, s, 'GET', '/store/S-NONE/credit'))).toEqual({
      paymentMethods: [],
      limit: 0,
      termDays: null,
      holdWhenOverdueDays: null,
      allowOverLimitWithApproval: false,
      updatedAt: null,
    });
    // Left out: limit 0, no terms, no approval; a method twice counts once.
    const twice = ok(await as(t, s, 'PUT', '/store/S-NONE/credit', { paymentMethods: ['TRANSFER', 'TRANSFER', 'CASH_ON_DELIVERY'] }));
    expect(twice).toMatchObject({ paymentMethods: ['TRANSFER', 'CASH_ON_DELIVERY'], limit: 0, termDays: null, allowOverLimitWithApproval: false });
    const bad = refused(await as(t, s, 'PUT', '/store/S-NONE/credit', { paymentMethods: ['CHEQUE'], limit: -1 }), 400, 'VALIDATION_FAILED');
    expect(bad.errors.map((e: { pointer: string }) => e.pointer)).toEqual(expect.arrayContaining(['/paymentMethods/0', '/limit']));
    refused(await as(t, s, 'PUT', '/store/NOBODY/credit', TERMS), 404, 'NOT_FOUND');
  });

  it('come with the store batch: shown in its detail as sent, null removes them, an invalid one fails the request', async () => {
    expect(ok(await as(t, s, 'GET', '/store/S-STRICT/credit'))).toMatchObject({ paymentMethods: ['CREDIT'], limit: 3000, allowOverLimitWithApproval: false });
    // The second item fails (its price list): it writes nothing, its terms neither; the first's null removes them.
    const { ids } = await t.runBatch(s, '/batch/store', {
      upsert: [
        { internalCode: 'S-NONE', name: 'S-NONE', credit: null },
        { internalCode: 'S-NONE', name: 'S-NONE', priceListCode: 'NOPE', credit: TERMS },
      ],
    });
    const detail = ok(await as(t, s, 'GET', `/batch/${ids[0]}/detail`)).detail;
    expect(detail.map((d: { status: string }) => d.status)).toEqual(['completed', 'failed']);
    expect(JSON.parse(detail[0].batchItem)).toEqual({ internalCode: 'S-NONE', name: 'S-NONE', credit: null });
    expect(JSON.parse(detail[1].batchItem).credit).toEqual(TERMS);
    expect(ok(await as(t, s, 'GET', '/store/S-NONE/credit')).updatedAt).toBeNull();
    const wrong = await as(t, s, 'POST', '/batch/store', { upsert: [{ internalCode: 'S-X', name: 'x', credit: { paymentMethods: [] } }] });
    expect(wrong.statusCode, wrong.body).toBe(402);
  });
});

describe('placing orders with a payment method', () => {
  it('leaves the orders of a store without terms as they were, and refuses a method there', async () => {
    const order = ok(await place('S-NONE', 1));
    for (const field of ['paymentMethod', 'paymentStatus', 'creditHold']) expect(order).not.toHaveProperty(field);
    expect(ok(await as(t, s, 'GET', `/order/${order.id}`))).not.toHaveProperty('paymentMethod');
    const bad = refused(await place('S-NONE', 1, { paymentMethod: 'CREDIT' }), 400, 'INVALID_VALUE');
    expect(bad.errors[0].pointer).toBe('/paymentMethod');
    expect(await account('S-NONE')).toMatchObject({ paymentMethods: [], limit: 0, used: 0, pending: 0, available: 0, invoices: [], payments: [] });
  });

  it("takes the store's first method by default, another of its own when asked, and refuses one it lacks", async () => {
    const first = ok(await place('S-CREDIT', 1));
    expect(first).toMatchObject({ status: 'PENDING', paymentMethod: 'CREDIT', paymentStatus: 'NOT_INVOICED' });
    expect(first).not.toHaveProperty('creditHold');
    const cash = ok(await place('S-CREDIT', 2, { paymentMethod: 'CASH_ON_DELIVERY' }));
    expect(cash).toMatchObject({ paymentMethod: 'CASH_ON_DELIVERY', paymentStatus: 'NOT_INVOICED' });
    const bad = refused(await place('S-CREDIT', 1, { paymentMethod: 'TRANSFER' }), 400, 'INVALID_VALUE');
    expect(bad.detail).toBe("TRANSFER is not one of this store's payment methods: CREDIT, CASH_ON_DELIVERY");
    // Only the order on credit is pending credit.
    expect(await account('S-CREDIT')).toMatchObject({ limit: 5000, used: 0, pending: 1000, overdue: 0, available: 4000, termDays: 15 });
    expect(ok(await as(t, s, 'GET', `/order/${first.id}`))).toMatchObject({ paymentMethod: 'CREDIT', paymentStatus: 'NOT_INVOICED' });
  });

  it('refuses an order over the available credit with the shortfall, and sends it for approval when asked', async () => {
    const over = refused(await place('S-CREDIT', 5), 400, 'CREDIT_LIMIT_EXCEEDED');
    expect(over.detail).toBe(
      "the order's total 5000 is over the available credit 4000 by 1000: send it with requestApproval: true for the supplier to approve, pay it another way or reduce the cart",
    );
    expect(over.errors).toEqual([{ pointer: '/paymentMethod', code: 'CREDIT_LIMIT_EXCEEDED', message: over.detail }]);
    const held = ok(await place('S-CREDIT', 5, { requestApproval: true }));
    expect(held).toMatchObject({
      status: 'PENDING',
      paymentMethod: 'CREDIT',
      creditHold: { reason: 'CREDIT_LIMIT_EXCEEDED', shortfall: 1000, detail: "the order's total 5000 is over the available credit 4000 by 1000", at: held.createdAt },
    });
    // A held order takes none of the credit until it is released.
    expect(await account('S-CREDIT')).toMatchObject({ pending: 1000, available: 4000 });
    const [event] = (await events('order.credit_hold')).filter((e) => e.ordering_key === `order:${held.id}`);
    expect(JSON.parse(event!.body)).toEqual(held);
    // Where the supplier does not allow approval, asking for it changes nothing.
    const strict = refused(await place('S-STRICT', 4, { requestApproval: true }), 400, 'CREDIT_LIMIT_EXCEEDED');
    expect(strict.detail).toBe("the order's total 4000 is over the available credit 3000 by 1000: pay it another way or reduce the cart");
    // Cash on delivery is never checked against the credit.
    ok(await place('S-CREDIT', 9, { paymentMethod: 'CASH_ON_DELIVERY' }));
  });

  it('sends order.credit_hold only to a supplier subscribed to it', async () => {
    const held = ok(await place('O-1', 1, { requestApproval: true }, otherToken));
    expect(held.creditHold).toMatchObject({ reason: 'CREDIT_LIMIT_EXCEEDED', shortfall: 1000 });
    expect((await events('order.credit_hold')).some((e) => e.supplier_id === other.id)).toBe(false);
    expect((await events('order.created')).some((e) => e.ordering_key === `order:${held.id}`)).toBe(true);
  });

  it('lets the supplier release a held order (it then takes the credit) or cancel one, and not confirm one held', async () => {
    const held = ok(await place('S-CREDIT', 5, { requestApproval: true, paymentMethod: 'CREDIT' }));
    expect(held.creditHold).toBeDefined();
    expect(refused(await as(t, s, 'PUT', `/order/${held.id}/confirm`, {}), 409, 'CREDIT_HOLD').detail).toBe(
      `order ${held.id} is on credit hold: release it (PUT /order/${held.id}/release) or cancel it`,
    );
    const before = await account('S-CREDIT');
    const released = ok(await as(t, s, 'PUT', `/order/${held.id}/release`));
    expect(released).not.toHaveProperty('creditHold');
    expect(released).toMatchObject({ status: 'PENDING', paymentMethod: 'CREDIT' });
    expect(released.history.at(-1)).toMatchObject({ status: 'PENDING', by: 'SUPPLIER', note: 'credit hold released' });
    // Past the limit now: the supplier chose to take it.
    expect(await account('S-CREDIT')).toMatchObject({ pending: before.pending + 5000, available: before.available - 5000 });
    refused(await as(t, s, 'PUT', `/order/${held.id}/release`), 409, 'INVALID_ORDER_TRANSITION');
    ok(await as(t, s, 'PUT', `/order/${held.id}/confirm`, {}));
    // Another one, cancelled: it never takes the credit.
    const cancelled = ok(await place('S-CREDIT', 9, { requestApproval: true }));
    ok(await as(t, s, 'PUT', `/order/${cancelled.id}/cancel`, { cancelCode: 'OUT_OF_STOCK' }));
    expect(await account('S-CREDIT')).toMatchObject({ pending: before.pending + 5000 });
    refused(await as(t, s, 'PUT', `/order/${cancelled.id}/release`), 409, 'INVALID_ORDER_TRANSITION');
    refused(await as(t, other, 'PUT', `/order/${held.id}/release`), 404, 'NOT_FOUND');
  });

  it('checks two orders at once under the lock: each fits alone, exactly one is placed', async () => {
    const both = await Promise.all([place('S-RACE', 1), place('S-RACE', 1)]);
    const codes = both.map((r) => r.statusCode).sort();
    expect(codes, both.map((r) => r.body).join('\n')).toEqual([200, 400]);
    expect(JSON.parse(both.find((r) => r.statusCode === 400)!.body).code).toBe('CREDIT_LIMIT_EXCEEDED');
    expect(await account('S-RACE')).toMatchObject({ limit: 1500, pending: 1000, available: 500 });
  });
});

describe('invoices and payments', () => {
  let creditOrders: number[];

  it('move orders from pending to used, and partial payments give the credit back', async () => {
    const orders = ok(await as(t, s, 'GET', '/order?storeInternalCode=S-CREDIT'));
    creditOrders = orders.data
      .filter((o: { paymentMethod: string; status: string; creditHold?: unknown }) => o.paymentMethod === 'CREDIT' && o.status !== 'CANCELLED' && !o.creditHold)
      .map((o: { id: number }) => o.id);
    const before = await account('S-CREDIT');
    expect(before.pending).toBe(6000);
    const [status] = await batch('/batch/invoice', {
      upsert: [{ internalCode: 'F-1', storeInternalCode: 'S-CREDIT', orderIds: creditOrders, amount: 6000, issuedAt: '2027-03-01T16:00:00.000Z', dueDate: '2027-03-16', pdfUrl: 'https://erp.example/f-1.pdf' }],
    });
    expect(status).toMatchObject({ completed: 1, failed: 0 });
    const invoiced = await account('S-CREDIT');
    expect(invoiced).toMatchObject({ used: 6000, pending: 0, overdue: 0, available: -1000 });
    expect(invoiced.invoices).toEqual([
      { internalCode: 'F-1', storeInternalCode: 'S-CREDIT', orderIds: creditOrders, amount: 6000, paid: 0, balance: 6000, issuedAt: '2027-03-01T16:00:00.000Z', dueDate: '2027-03-16', daysOverdue: 0, pdfUrl: 'https://erp.example/f-1.pdf' },
    ]);
    expect(ok(await as(t, s, 'GET', `/order/${creditOrders[0]}`)).paymentStatus).toBe('INVOICED');

    const [paid] = await batch('/batch/payment', {
      upsert: [{ internalCode: 'P-1', storeInternalCode: 'S-CREDIT', amount: 2000.5, method: 'CASH', collectedBy: 'driver 7', paidAt: '2027-03-02T10:00:00.000Z', allocations: [{ invoiceInternalCode: 'F-1', amount: 1500.25 }] }],
    });
    expect(paid).toMatchObject({ completed: 1, failed: 0 });
    const partly = await account('S-CREDIT');
    expect(partly).toMatchObject({ used: 4499.75, available: 500.25 });
    expect(partly.invoices[0]).toMatchObject({ paid: 1500.25, balance: 4499.75 });
    expect(partly.payments).toEqual([
      { internalCode: 'P-1', storeInternalCode: 'S-CREDIT', amount: 2000.5, method: 'CASH', collectedBy: 'driver 7', paidAt: '2027-03-02T10:00:00.000Z', allocations: [{ invoiceInternalCode: 'F-1', amount: 1500.25 }], unallocated: 500.25 },
    ]);
    expect(ok(await as(t, s, 'GET', `/order/${creditOrders[0]}`)).paymentStatus).toBe('PARTIALLY_PAID');

    // The payment sent again replaces its allocations: the invoice moves by the difference.
    await batch('/batch/payment', {
      upsert: [{ internalCode: 'P-1', storeInternalCode: 'S-CREDIT', amount: 2000.5, method: 'CASH', paidAt: '2027-03-02T10:00:00.000Z', allocations: [{ invoiceInternalCode: 'F-1', amount: 2000.5 }] }],
    });
    expect(await account('S-CREDIT')).toMatchObject({ used: 3999.5, available: 1000.5 });
    await batch('/batch/payment', {
      upsert: [{ internalCode: 'P-2', storeInternalCode: 'S-CREDIT', amount: 3999.5, method: 'TRANSFER', paidAt: '2027-03-03T10:00:00.000Z', allocations: [{ invoiceInternalCode: 'F-1', amount: 3999.5 }] }],
    });
    const settled = await account('S-CREDIT');
    expect(settled).toMatchObject({ used: 0, pending: 0, available: 5000, invoices: [] });
    expect(settled.payments.map((p: { internalCode: string }) => p.internalCode)).toEqual(['P-2', 'P-1']);
    expect(ok(await as(t, s, 'GET', `/order/${creditOrders[0]}`)).paymentStatus).toBe('PAID');
    expect(ok(await as(t, s, 'GET', '/store/S-CREDIT/account'))).toEqual(settled);
  });

  it('fails an item whose references are wrong alone, with its pointer', async () => {
    const noneOrder = ok(await as(t, s, 'GET', '/order?storeInternalCode=S-NONE')).data[0].id;
    const { ids } = await t.runBatch(s, '/batch/invoice', {
      upsert: [
        { internalCode: 'F-X1', storeInternalCode: 'NOBODY', amount: 1, issuedAt: T0, dueDate: '2027-03-10' },
        { internalCode: 'F-X2', storeInternalCode: 'S-CREDIT', orderIds: [noneOrder], amount: 1, issuedAt: T0, dueDate: '2027-03-10' },
        { internalCode: 'F-1', storeInternalCode: 'S-STRICT', amount: 1, issuedAt: T0, dueDate: '2027-03-10' },
        { internalCode: 'F-X3', storeInternalCode: 'S-CREDIT', amount: 1, issuedAt: T0, dueDate: '2027-02-10' },
        { internalCode: 'F-OK', storeInternalCode: 'S-STRICT', amount: 100, issuedAt: T0, dueDate: '2027-03-10' },
      ],
    });
    const detail = ok(await as(t, s, 'GET', `/batch/${ids[0]}/detail`)).detail.map((d: { status: string; errorCode?: string; message?: string }) => [d.status, d.errorCode ?? null, d.message ?? null]);
    expect(detail).toEqual([
      ['failed', 'UNKNOWN_STORE', '/storeInternalCode: store NOBODY does not exist'],
      ['failed', 'UNKNOWN_ORDER', `/orderIds: not orders of store S-CREDIT: ${noneOrder}`],
      ['failed', 'INVOICE_OF_ANOTHER_STORE', '/storeInternalCode: invoice F-1 was relayed for another store; an invoice keeps its store'],
      ['failed', 'INVALID_DATE_RANGE', `/dueDate: 2027-02-10 is before the invoice was issued (${T0})`],
      ['completed', null, null],
    ]);
    const pay = await t.runBatch(s, '/batch/payment', {
      upsert: [
        { internalCode: 'P-X1', storeInternalCode: 'S-CREDIT', amount: 10, method: 'CARD', paidAt: T0, allocations: [{ invoiceInternalCode: 'F-OK', amount: 10 }] },
        { internalCode: 'P-X2', storeInternalCode: 'S-STRICT', amount: 10, method: 'CARD', paidAt: T0, allocations: [{ invoiceInternalCode: 'F-OK', amount: 10.01 }] },
        { internalCode: 'P-X3', storeInternalCode: 'S-STRICT', amount: 10, method: 'CARD', paidAt: T0, allocations: [{ invoiceInternalCode: 'F-OK', amount: 1 }, { invoiceInternalCode: 'F-OK', amount: 1 }] },
        { internalCode: 'P-1', storeInternalCode: 'S-STRICT', amount: 10, method: 'CARD', paidAt: T0 },
      ],
    });
    const payDetail = ok(await as(t, s, 'GET', `/batch/${pay.ids[0]}/detail`)).detail.map((d: { errorCode?: string; message?: string }) => [d.errorCode, d.message]);
    expect(payDetail).toEqual([
      ['UNKNOWN_INVOICE', '/allocations/0/invoiceInternalCode: store S-CREDIT has no invoice F-OK'],
      ['ALLOCATIONS_EXCEED_AMOUNT', "/allocations: the allocations add up to 10.01, more than the payment's amount 10"],
      ['INVALID_VALUE', '/allocations/1/invoiceInternalCode: invoice F-OK is listed twice: one allocation per invoice'],
      ['PAYMENT_OF_ANOTHER_STORE', '/storeInternalCode: payment P-1 was relayed for another store; a payment keeps its store'],
    ]);
    expect((await account('S-STRICT')).used).toBe(100);
  });

  it('announces invoice.overdue once per invoice, the day after its due date, only to a subscribed supplier', async () => {
    await batch('/batch/invoice', { upsert: [{ internalCode: 'F-2', storeInternalCode: 'S-CREDIT', amount: 1000, issuedAt: T0, dueDate: '2027-03-05' }] });
    await batch('/batch/invoice', { upsert: [{ internalCode: 'OF-1', storeInternalCode: 'O-1', amount: 50, issuedAt: T0, dueDate: '2027-03-05' }] }, other);
    setClock('2027-03-05T23:59:00.000Z');
    await announceOverdue({ db: t.deps.db, clock, timezone: 'UTC' });
    expect((await events('invoice.overdue')).length).toBe(0);
    setClock('2027-03-06T00:01:00.000Z');
    await announceOverdue({ db: t.deps.db, clock, timezone: 'UTC' });
    await announceOverdue({ db: t.deps.db, clock, timezone: 'UTC' });
    const sent = await events('invoice.overdue');
    // F-OK (due 2027-03-10) is not overdue yet; OF-1 is, but its supplier did not subscribe.
    expect(sent.map((e) => [e.supplier_id, e.ordering_key])).toEqual([[s.id, 'invoice:F-2']]);
    expect(JSON.parse(sent[0]!.body)).toEqual({
      internalCode: 'F-2',
      storeInternalCode: 'S-CREDIT',
      orderIds: [],
      amount: 1000,
      paid: 0,
      balance: 1000,
      issuedAt: T0,
      dueDate: '2027-03-05',
      daysOverdue: 1,
      pdfUrl: null,
    });
    expect(await account('S-CREDIT')).toMatchObject({ used: 1000, overdue: 1000 });
    // Marked either way: subscribing later never announces it.
    const marked = await sql<{ n: number }>`select count(*)::int as n from invoices where overdue_announced_at is not null`.execute(t.deps.db);
    expect(marked.rows[0]!.n).toBe(2);
  });

  it('holds orders on credit once an invoice is overdue past the terms, and ages the open balances', async () => {
    // 8 days past due: still within the terms.
    setClock('2027-03-13T12:00:00.000Z');
    token = await storeToken('ana@example.com');
    ok(await place('S-CREDIT', 1));
    setClock('2027-03-15T12:00:00.000Z');
    for (const supplier of [s, other]) await logInAgain(supplier);
    const late = refused(await place('S-CREDIT', 1), 400, 'OVERDUE_INVOICES');
    expect(late.detail).toBe(
      'an invoice of this store is 10 days past its due date (orders on credit wait once one is more than 8): send it with requestApproval: true for the supplier to approve, pay it another way or reduce the cart',
    );
    expect(ok(await place('S-CREDIT', 1, { requestApproval: true })).creditHold).toMatchObject({ reason: 'OVERDUE_INVOICES' });
    ok(await place('S-CREDIT', 1, { paymentMethod: 'CASH_ON_DELIVERY' }));

    await batch('/batch/invoice', {
      upsert: [
        { internalCode: 'F-OLD', storeInternalCode: 'S-STRICT', amount: 70, issuedAt: '2026-12-01T00:00:00.000Z', dueDate: '2027-01-01' },
        { internalCode: 'F-MID', storeInternalCode: 'S-STRICT', amount: 30.5, issuedAt: '2026-12-01T00:00:00.000Z', dueDate: '2027-02-01' },
      ],
    });
    const aging = ok(await as(t, s, 'GET', '/account/aging'));
    expect(aging).toEqual({
      asOf: '2027-03-15',
      totals: { current: 0, days1to30: 1100, days31to60: 30.5, over60: 70, total: 1200.5 },
      data: [
        { storeInternalCode: 'S-CREDIT', storeName: 'S-CREDIT', current: 0, days1to30: 1000, days31to60: 0, over60: 0, total: 1000 },
        { storeInternalCode: 'S-STRICT', storeName: 'S-STRICT', current: 0, days1to30: 100, days31to60: 30.5, over60: 70, total: 200.5 },
      ],
      page: 1,
      take: 50,
      total: 2,
      totalPages: 1,
    });
    const one = ok(await as(t, s, 'GET', '/account/aging?storeInternalCode=S-STRICT'));
    expect(one).toMatchObject({ totals: { total: 200.5 }, total: 1, data: [{ storeInternalCode: 'S-STRICT' }] });
    expect(ok(await as(t, other, 'GET', '/account/aging'))).toMatchObject({ totals: { total: 50 }, total: 1, data: [{ storeInternalCode: 'O-1' }] });
  });
});
