// The supplier's side of orders: every allowed and refused move, partial deliveries and
// returns, cancel codes, the batch endpoint and the history import.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { importPendingOrders } from '../helpers/fixtures.ts';

let t: TestApp;
let s: TestSupplier;
let other: TestSupplier;

async function submit(url: string, body: unknown, who = s) {
  const { ids, statuses } = await t.runBatch(who, url, body);
  const detail = (await as(t, who, 'GET', `/batch/${ids[0]}/detail`)).json().detail;
  return { statuses, detail };
}

/** `n` PENDING orders of 3 boxes of P1 and 10 units of P2, imported: their ids. */
async function pendingOrders(n: number, tag: string): Promise<number[]> {
  const lines = [
    { internalCode: 'P1', units: 12, quantity: 3, unitPrice: 11000 },
    { internalCode: 'P2', units: 1, quantity: 10, unitPrice: 2500.5 },
  ];
  return importPendingOrders(t, s, Array.from({ length: n }, (_, i) => [`${tag}-${i}`, lines] as const));
}

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  other = await t.supplier();
  await submit('/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda', legalName: 'Tienda SAS', legalId: '900' }] });
});
afterAll(() => t.close());

const op = (id: number, name: string, body: unknown = {}, method: 'PUT' | 'POST' = 'PUT') => as(t, s, method, `/order/${id}/${name}`, body);

describe('order lifecycle', () => {
  it('confirms, delivers partially, returns partially then fully', async () => {
    const [id] = await pendingOrders(1, 'life');
    const confirmed = await op(id!, 'confirm', { deliveryDate: '2026-03-05' });
    expect(confirmed.json()).toMatchObject({ status: 'CONFIRMED', deliveryDate: '2026-03-05' });
    const delivered = await op(id!, 'deliver', { complete: false, products: [{ internalCode: 'P1', units: 12, quantity: 2 }] }, 'POST');
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(delivered.json().products.map((l: { deliveredQuantity: number }) => l.deliveredQuantity)).toEqual([2, 0]);
    const tooMany = await op(id!, 'return', { products: [{ internalCode: 'P1', units: 12, quantity: 3 }] });
    expect(tooMany.json()).toMatchObject({ status: 400, code: 'QUANTITY_EXCEEDED', errors: [{ pointer: '/products/0/quantity' }] });
    const partial = await op(id!, 'return', { products: [{ internalCode: 'P1', units: 12, quantity: 1 }], reason: 'broken box' });
    expect(partial.json()).toMatchObject({ status: 'DELIVERED' });
    expect(partial.json().products[0]).toMatchObject({ deliveredQuantity: 2, returnedQuantity: 1, unitPrice: 11000, total: 33000 });
    const full = await op(id!, 'return', { complete: true });
    expect(full.json().status).toBe('RETURNED');
    expect(full.json().history.map((h: { status: string; by: string }) => `${h.status}/${h.by}`)).toEqual([
      'PENDING/IMPORT', 'CONFIRMED/SUPPLIER', 'DELIVERED/SUPPLIER', 'DELIVERED/SUPPLIER', 'RETURNED/SUPPLIER',
    ]);
  });

  it('refuses every move the state forbids with 409 INVALID_ORDER_TRANSITION', async () => {
    const [a, b] = await pendingOrders(2, 'refuse');
    expect((await op(a!, 'deliver', { complete: true })).json()).toMatchObject({ status: 409, code: 'INVALID_ORDER_TRANSITION' });
    expect((await op(a!, 'return', { complete: true })).json().code).toBe('INVALID_ORDER_TRANSITION');
    await op(a!, 'confirm');
    expect((await op(a!, 'confirm')).json().code).toBe('INVALID_ORDER_TRANSITION');
    await op(a!, 'deliver', { complete: true });
    expect((await op(a!, 'cancel', { cancelCode: 'OUT_OF_STOCK' })).json().code).toBe('INVALID_ORDER_TRANSITION');
    const cancelled = await op(b!, 'cancel', { cancelCode: 'OUT_OF_STOCK', message: 'none left' });
    expect(cancelled.json()).toMatchObject({ status: 'CANCELLED', cancellation: { code: 'OUT_OF_STOCK', by: 'SUPPLIER', message: 'none left' } });
    expect((await op(b!, 'confirm')).json().code).toBe('INVALID_ORDER_TRANSITION');
  });

  it('checks cancel codes and order lines', async () => {
    const [id] = await pendingOrders(1, 'codes');
    expect((await op(id!, 'cancel', { cancelCode: 'NEW_ORDER' })).json()).toMatchObject({ status: 400, code: 'INVALID_CANCEL_CODE' });
    await op(id!, 'confirm');
    expect((await op(id!, 'deliver', { products: [{ internalCode: 'P9', units: 1, quantity: 1 }] })).json()).toMatchObject({ status: 400, code: 'UNKNOWN_ORDER_LINE' });
    const codes = (await as(t, s, 'GET', '/supplier/cancelcodes')).json();
    expect(codes).toEqual(expect.arrayContaining([{ code: 'NEW_ORDER', reason: 'I will place a new order', usage: 'STORE' }]));
    const replaced = await t.admin('PUT', `/admin/suppliers/${s.id}/cancel-codes`, [{ code: 'X', reason: 'Because', usage: 'SUPPLIER' }]);
    expect(replaced.statusCode).toBe(200);
    expect((await as(t, s, 'GET', '/supplier/cancelcodes')).json()).toEqual([{ code: 'X', reason: 'Because', usage: 'SUPPLIER' }]);
    expect((await op(id!, 'cancel', { cancelCode: 'X' })).json().status).toBe('CANCELLED');
  });

  it('applies POST /batch/order items one by one with the same codes', async () => {
    const [a, b, c] = await pendingOrders(3, 'batch');
    const { statuses, detail } = await submit('/batch/order', {
      confirm: [{ id: a, deliveryDate: '2026-04-01' }, { id: b }, { id: 999999 }],
      deliver: [{ id: a, complete: true }, { id: c, complete: true }],
      cancel: [{ id: b, cancelCode: 'NOPE' }],
    });
    expect(statuses[0]).toMatchObject({ total: 6, completed: 3, failed: 3 });
    // In lifecycle order: a is confirmed before it is delivered in the same request.
    expect(detail.map((d: { action: string; code: string; errorCode: string | null }) => `${d.action} ${d.code} ${d.errorCode}`)).toEqual([
      `confirm ${a} null`,
      `confirm ${b} null`,
      'confirm 999999 NOT_FOUND',
      `deliver ${a} null`,
      `deliver ${c} INVALID_ORDER_TRANSITION`,
      `cancel ${b} INVALID_CANCEL_CODE`,
    ]);
    expect((await as(t, s, 'GET', `/order/${a}`)).json()).toMatchObject({ status: 'DELIVERED', deliveryDate: '2026-04-01' });
  });

  it('imports history: no webhooks, re-import by externalId updates, unknown stores fail', async () => {
    const first = await submit('/order/bulk-import', { orders: [{ externalId: 'ERP-1', storeInternalCode: 'S1', createdAt: '2025-12-01', status: 'DELIVERED', products: [{ internalCode: 'P1', units: 1, quantity: 2, unitPrice: 1000 }], total: 1900 }] });
    expect(first.statuses[0]).toMatchObject({ completed: 1 });
    const again = await submit('/order/bulk-import', {
      orders: [
        { externalId: 'ERP-1', storeInternalCode: 'S1', createdAt: '2025-12-01', status: 'RETURNED', products: [{ internalCode: 'P1', units: 1, quantity: 2, unitPrice: 1000 }] },
        { externalId: 'ERP-2', storeInternalCode: 'NOPE', createdAt: '2025-12-01', status: 'DELIVERED', products: [{ internalCode: 'P1', units: 1, quantity: 1, unitPrice: 1 }] },
      ],
    });
    expect(again.detail.map((d: { errorCode: string | null }) => d.errorCode)).toEqual([null, 'UNKNOWN_STORE']);
    const erp1 = (await as(t, s, 'GET', '/order?take=50')).json().data.filter((o: { externalId: string }) => o.externalId === 'ERP-1');
    expect(erp1).toHaveLength(1);
    expect(erp1[0]).toMatchObject({ status: 'RETURNED', subtotal: 2000, total: 2000, createdAt: '2025-12-01T00:00:00.000Z' });
    const december = (await as(t, s, 'GET', '/order?from=2025-12-01&to=2025-12-31')).json();
    expect(december.data.map((o: { externalId: string }) => o.externalId)).toEqual(['ERP-1']);
    expect((await as(t, s, 'GET', '/order?status=RETURNED&storeInternalCode=S1')).json().total).toBeGreaterThanOrEqual(1);
  });

  it('allows exactly the moves of the state table, for the supplier and for the store', async () => {
    const codes = [{ code: 'OUT_OF_STOCK', reason: 'Out of stock', usage: 'SUPPLIER' }, { code: 'NEW_ORDER', reason: 'New order', usage: 'STORE' }];
    expect((await t.admin('PUT', `/admin/suppliers/${s.id}/cancel-codes`, codes)).statusCode).toBe(200);
    await as(t, s, 'POST', '/store/S1/add/user', { users: [{ phone: '+573005550000' }] });
    const token = (await t.admin('POST', '/admin/store-users/token', { phone: '+573005550000' })).json().access_token;
    const STATES = ['PENDING', 'CONFIRMED', 'DELIVERED', 'RETURNED', 'CANCELLED'] as const;
    const MOVES: [string, (id: number) => Promise<{ statusCode: number; json(): any }>, string[]][] = [
      ['confirm', (id) => op(id, 'confirm'), ['PENDING']],
      ['deliver', (id) => op(id, 'deliver', { complete: true }), ['CONFIRMED']],
      ['return', (id) => op(id, 'return', { complete: true }), ['DELIVERED']],
      ['supplier cancel', (id) => op(id, 'cancel', { cancelCode: 'OUT_OF_STOCK' }), ['PENDING', 'CONFIRMED']],
      ['store cancel', (id) => t.request({ method: 'POST', url: `/app/orders/${id}/cancel`, headers: { authorization: `Bearer ${token}` }, payload: { cancelCode: 'NEW_ORDER' } }), ['PENDING']],
    ];
    const orders = STATES.flatMap((status) => MOVES.map((_, m) => ({ externalId: `matrix-${status}-${m}`, storeInternalCode: 'S1', createdAt: '2026-03-01', status, products: [{ internalCode: 'P1', units: 1, quantity: 2, unitPrice: 10 }] })));
    await submit('/order/bulk-import', { orders });
    const ids = new Map(((await as(t, s, 'GET', '/order?take=50&storeInternalCode=S1')).json().data as { id: number; externalId: string }[]).map((o) => [o.externalId, o.id]));
    const seen: string[] = [];
    for (const status of STATES) {
      for (const [m, [name, move, allowed]] of MOVES.entries()) {
        const res = await move(ids.get(`matrix-${status}-${m}`)!);
        seen.push(`${status} ${name} ${res.statusCode === 200 ? 'ok' : res.json().code}`);
        expect(res.statusCode, `${name} from ${status}`).toBe(allowed.includes(status) ? 200 : 409);
      }
    }
    expect(seen.filter((x) => x.endsWith(' ok'))).toEqual([
      'PENDING confirm ok', 'PENDING supplier cancel ok', 'PENDING store cancel ok',
      'CONFIRMED deliver ok', 'CONFIRMED supplier cancel ok', 'DELIVERED return ok',
    ]);
  });

  it("hides another supplier's orders", async () => {
    const [id] = await pendingOrders(1, 'tenancy');
    expect((await as(t, other, 'GET', `/order/${id}`)).statusCode).toBe(404);
    expect((await as(t, other, 'PUT', `/order/${id}/confirm`, {})).statusCode).toBe(404);
    expect((await as(t, other, 'GET', '/order')).json().total).toBe(0);
    const { detail } = await submit('/batch/order', { confirm: [{ id }] }, other);
    expect(detail[0].errorCode).toBe('NOT_FOUND');
    expect((await as(t, s, 'GET', `/order/${id}`)).json().status).toBe('PENDING');
  });
});

describe('the order list by store', () => {
  it('finds a store by a part of its name or code, case-insensitive, and refuses an empty search naming the field', async () => {
    await submit('/batch/store', { upsert: [{ internalCode: 'ESQ-7', name: 'Minimercado La Esquina', legalName: 'La Esquina SAS', legalId: '901' }] });
    const imported = await submit('/order/bulk-import', {
      orders: [{ externalId: 'ESQ-ORDER-1', storeInternalCode: 'ESQ-7', createdAt: '2026-01-10', status: 'DELIVERED', products: [{ internalCode: 'P1', units: 1, quantity: 1, unitPrice: 1000 }] }],
    });
    expect(imported.detail.map((d: { errorCode: string | null }) => d.errorCode)).toEqual([null]);
    const byName = (await as(t, s, 'GET', '/order?store=la%20esquina&take=50')).json();
    expect(byName.data.map((o: { externalId: string }) => o.externalId)).toEqual(['ESQ-ORDER-1']);
    expect(byName.total).toBe(1);
    const byCode = (await as(t, s, 'GET', '/order?store=esq-&take=50')).json();
    expect(byCode.data.map((o: { buyer: { storeName: string } }) => o.buyer.storeName)).toEqual(['Minimercado La Esquina']);
    // The other stores' orders (S1's, "Tienda") do not match; a wildcard is a character.
    expect((await as(t, s, 'GET', '/order?store=%25&take=50')).json().total).toBe(0);
    expect((await as(t, s, 'GET', '/order?store=tienda&take=50')).json().data.every((o: { buyer: { storeInternalCode: string } }) => o.buyer.storeInternalCode === 'S1')).toBe(true);
    // Another supplier never sees them.
    expect((await as(t, other, 'GET', '/order?store=esquina')).json().total).toBe(0);
    const empty = await as(t, s, 'GET', '/order?store=');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/query/store']);
  });
});
