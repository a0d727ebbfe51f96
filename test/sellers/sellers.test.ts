// Sellers (src/modules/sellers/README.md): the supplier loads them (PUT, GET, batch); a
// seller signs in with the same codes as a store user and sees the stores they serve,
// marked; their order carries placedBy and channel SELLER in the store's, the supplier's
// and the order.created webhook's answers; a store that confirms its sellers' orders gets
// a proposal first. Orders placed with an Idempotency-Key are placed once per key.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let a: TestSupplier;
let b: TestSupplier;
const ana = { phone: '+573001110001', name: 'Ana' };
const carlos = { phone: '+573001110002', email: 'carlos@alpha.test' };
const stores: Record<string, number> = {};
const tokens: Record<string, string> = {};
const lines = [{ productInternalCode: 'P1', units: 1, quantity: 2 }];

async function batch(s: TestSupplier, url: string, body: unknown) {
  const { statuses } = await t.runBatch(s, url, body);
  for (const st of statuses) expect(st.failed, JSON.stringify(st)).toBe(0);
  return statuses;
}

async function signIn(phone: string) {
  await t.request({ method: 'POST', url: '/app/auth/code', payload: { phone } });
  const res = await t.request({ method: 'POST', url: '/app/auth/token', payload: { phone, code: await t.notifier.waitForCode(phone) } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token as string;
}

const app = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.request({ method, url, payload: payload as never, headers: { authorization: `Bearer ${tokens[who]}`, ...headers } });

async function catalogOf(s: TestSupplier, storeCodes: string[]) {
  await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'Drinks' });
  await batch(s, '/batch/brand', [{ internalCode: 'B', name: 'Brand' }]);
  await batch(s, '/batch/product', { upsert: [{ internalCode: 'P1', name: 'Cola', brandInternalCode: 'B', categoryInternalCode: 'C' }] });
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  await batch(s, '/batch/store', { upsert: storeCodes.map((code) => ({ internalCode: code, name: `Tienda ${code}`, priceListCode: 'PL' })) });
  await batch(s, '/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'PL', productInternalCode: 'P1', units: 1, price: 1000 }] } });
}

beforeAll(async () => {
  t = await createTestApp();
  a = await t.supplier();
  b = await t.supplier();
  await catalogOf(a, ['S1', 'S2']);
  await catalogOf(b, ['B1']);
  await as(t, a, 'POST', '/store/S1/add/user', { users: [ana] });
  for (const [s, code] of [[a, 'S1'], [a, 'S2'], [b, 'B1']] as const) {
    stores[code] = (await sql<{ id: number }>`select id from stores where supplier_id = ${s.id} and internal_code = ${code}`.execute(t.deps.db)).rows[0]!.id;
  }
  tokens.ana = await signIn(ana.phone);
});
afterAll(() => t.close());

describe('the supplier loads its sellers', () => {
  it('creates, reads, lists and replaces a seller; a seller without a phone or an email is refused naming the field', async () => {
    const none = await as(t, a, 'PUT', '/seller/V0', { name: 'Nobody', storeInternalCodes: ['S1'] });
    expect(none.json(), none.body).toMatchObject({ status: 400, code: 'REQUIRED', errors: [{ pointer: '/phone', code: 'REQUIRED' }] });
    const badPhone = await as(t, a, 'PUT', '/seller/V0', { name: 'Nobody', phone: '3001' });
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.body).toContain('/phone');

    const put = await as(t, a, 'PUT', '/seller/V1', { name: 'Carlos', phone: carlos.phone, email: 'Carlos@Alpha.test', storeInternalCodes: ['S1', 'LATER'] });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ internalCode: 'V1', name: 'Carlos', phone: carlos.phone, email: carlos.email, storeInternalCodes: ['LATER', 'S1'] });
    expect((await as(t, a, 'GET', '/seller/V1')).json()).toEqual(put.json());
    expect((await as(t, b, 'GET', '/seller/V1')).statusCode).toBe(404);
    // The ERP's batch: a second seller; then V1 replaced whole (LATER no longer served).
    await batch(a, '/batch/seller', { upsert: [{ internalCode: 'V2', name: 'Diana', email: 'diana@alpha.test', storeInternalCodes: ['S2'] }] });
    expect((await as(t, a, 'PUT', '/seller/V1', { name: 'Carlos', phone: carlos.phone, email: carlos.email, storeInternalCodes: ['S1'] })).json().storeInternalCodes).toEqual(['S1']);
    const list = (await as(t, a, 'GET', '/seller')).json();
    expect(list).toMatchObject({ total: 2, data: [{ internalCode: 'V1' }, { internalCode: 'V2' }] });
    expect((await as(t, a, 'GET', '/seller?storeInternalCode=S2')).json().data.map((s: { internalCode: string }) => s.internalCode)).toEqual(['V2']);
    expect((await as(t, b, 'GET', '/seller')).json().total).toBe(0);
    const removed = await batch(a, '/batch/seller', { remove: { internalCodes: ['V2', 'GONE'] } });
    expect(removed[0]).toMatchObject({ completed: 2 });
    expect((await as(t, a, 'GET', '/seller/V2')).statusCode).toBe(404);
  });
});

describe('a seller orders for the stores they serve', () => {
  beforeAll(async () => {
    tokens.carlos = await signIn(carlos.phone);
  });

  it('signs in with the same codes and sees only the stores they serve, marked as a seller', async () => {
    const me = (await app('carlos', 'GET', '/app/me')).json();
    expect(me.user.name).toBe('Carlos');
    expect(me.stores).toEqual([expect.objectContaining({ id: stores.S1, internalCode: 'S1', access: 'SELLER' })]);
    // A store user's stores answer as before: no access field.
    expect((await app('ana', 'GET', '/app/me')).json().stores).toEqual([expect.not.objectContaining({ access: expect.anything() })]);
  });

  it("places an order carrying placedBy and channel SELLER, seen so by the store, the supplier and the order.created webhook", async () => {
    const placed = await app('carlos', 'POST', `/app/stores/${stores.S1}/orders`, { lines });
    expect(placed.statusCode, placed.body).toBe(200);
    const order = placed.json();
    expect(order).toMatchObject({ status: 'PENDING', total: 2000, placedBy: { sellerInternalCode: 'V1', name: 'Carlos' }, channel: 'SELLER' });
    expect(order.buyer.user).toBeNull();
    expect((await as(t, a, 'GET', `/order/${order.id}`)).json()).toEqual(order);
    expect((await app('ana', 'GET', `/app/orders/${order.id}`)).json()).toEqual(order);
    expect((await app('carlos', 'GET', `/app/orders/${order.id}`)).json()).toEqual(order);
    const event = await sql<{ body: string }>`select body from webhook_events where type = 'order.created' and ordering_key = ${`order:${order.id}`}`.execute(t.deps.db);
    expect(JSON.parse(event.rows[0]!.body)).toMatchObject({ placedBy: { sellerInternalCode: 'V1', name: 'Carlos' }, channel: 'SELLER' });
    // The store user's own order answers as before: neither field.
    const own = (await app('ana', 'POST', `/app/stores/${stores.S1}/orders`, { lines })).json();
    expect(own).not.toHaveProperty('placedBy');
    expect(own).not.toHaveProperty('channel');
  });

  it('reaches no other store: not one of its supplier it does not serve, none of another supplier, and only buyer routes', async () => {
    const missing = (await app('carlos', 'GET', '/app/stores/2000000000/catalog')).json();
    for (const id of [stores.S2, stores.B1]) {
      for (const [method, url, body] of [
        ['GET', `/app/stores/${id}/catalog`],
        ['POST', `/app/stores/${id}/cart`, { lines }],
        ['POST', `/app/stores/${id}/orders`, { lines }],
        ['GET', `/app/stores/${id}/orders`],
      ] as const) {
        const res = await app('carlos', method, url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect({ ...res.json(), requestId: undefined, detail: undefined, errors: undefined }).toEqual({ ...missing, requestId: undefined, detail: undefined, errors: undefined });
      }
    }
    // At a store they serve, what only the store's users do: tickets, cancelling, its preferences and settings.
    const order = (await app('ana', 'POST', `/app/stores/${stores.S1}/orders`, { lines })).json();
    for (const [method, url, body] of [
      ['POST', `/app/stores/${stores.S1}/tickets`, { message: 'hola' }],
      ['GET', `/app/stores/${stores.S1}/tickets`],
      ['POST', `/app/orders/${order.id}/cancel`, { cancelCode: 'NEW_ORDER' }],
      ['PUT', `/app/stores/${stores.S1}/order-guide/P1`, { pinned: true }],
      ['PUT', `/app/stores/${stores.S1}/seller-settings`, { confirmSellerOrders: false }],
    ] as const) {
      expect((await app('carlos', method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    // The buyer's reads work.
    for (const url of [`/app/stores/${stores.S1}/catalog`, `/app/stores/${stores.S1}/promotions`, `/app/stores/${stores.S1}/order-guide`, `/app/stores/${stores.S1}/recommendations`, `/app/stores/${stores.S1}/delivery-options`]) {
      expect((await app('carlos', 'GET', url)).statusCode, url).toBe(200);
    }
  });

  it('loses the store at once when the supplier stops listing it', async () => {
    await as(t, a, 'PUT', '/seller/V1', { name: 'Carlos', phone: carlos.phone, storeInternalCodes: ['S2'] });
    expect((await app('carlos', 'GET', `/app/stores/${stores.S1}/catalog`)).statusCode).toBe(404);
    expect((await app('carlos', 'GET', `/app/stores/${stores.S2}/catalog`)).statusCode).toBe(200);
    expect((await app('carlos', 'GET', '/app/me')).json().stores.map((s: { id: number }) => s.id)).toEqual([stores.S2]);
    await as(t, a, 'PUT', '/seller/V1', { name: 'Carlos', phone: carlos.phone, email: carlos.email, storeInternalCodes: ['S1'] });
  });

  it('a person who is both the store user and its seller acts as the store user', async () => {
    await as(t, a, 'PUT', '/seller/V3', { name: 'Ana vendedora', phone: ana.phone, storeInternalCodes: ['S1', 'S2'] });
    const me = (await app('ana', 'GET', '/app/me')).json();
    expect(me.stores).toEqual([expect.not.objectContaining({ access: expect.anything() }), expect.objectContaining({ id: stores.S2, access: 'SELLER' })]);
    expect((await app('ana', 'POST', `/app/stores/${stores.S1}/orders`, { lines })).json()).not.toHaveProperty('channel');
    expect((await app('ana', 'POST', `/app/stores/${stores.S2}/orders`, { lines })).json()).toMatchObject({ channel: 'SELLER', placedBy: { sellerInternalCode: 'V3' } });
    await batch(a, '/batch/seller', { remove: { internalCodes: ['V3'] } });
  });
});

describe('a store that confirms its sellers orders itself', () => {
  it("keeps the seller's order as a proposal the supplier does not see until a store user accepts it", async () => {
    expect((await app('ana', 'GET', `/app/stores/${stores.S1}/seller-settings`)).json()).toEqual({ confirmSellerOrders: false });
    expect((await app('ana', 'PUT', `/app/stores/${stores.S1}/seller-settings`, { confirmSellerOrders: true })).json()).toEqual({ confirmSellerOrders: true });
    const before = (await as(t, a, 'GET', '/order')).json().total;
    const proposed = await app('carlos', 'POST', `/app/stores/${stores.S1}/orders`, { lines, notes: 'lo de siempre' });
    expect(proposed.statusCode, proposed.body).toBe(202);
    expect(proposed.json()).toMatchObject({ status: 'AWAITING_STORE', placedBy: { sellerInternalCode: 'V1', name: 'Carlos' }, order: { lines, notes: 'lo de siempre' }, orderId: null });
    expect((await as(t, a, 'GET', '/order')).json().total).toBe(before);
    const list = (await app('ana', 'GET', `/app/stores/${stores.S1}/seller-proposals`)).json().data;
    expect(list[0]).toEqual(proposed.json());
    // The seller may not accept their own proposal; the store user does.
    expect((await app('carlos', 'POST', `/app/stores/${stores.S1}/seller-proposals/${proposed.json().id}/accept`)).statusCode).toBe(404);
    const accepted = await app('ana', 'POST', `/app/stores/${stores.S1}/seller-proposals/${proposed.json().id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().order).toMatchObject({ channel: 'SELLER', placedBy: { sellerInternalCode: 'V1' }, notes: 'lo de siempre', buyer: { user: { name: 'Ana' } } });
    expect(accepted.json().proposal).toMatchObject({ status: 'ACCEPTED', orderId: accepted.json().order.id });
    expect((await as(t, a, 'GET', '/order')).json().total).toBe(before + 1);
    const again = await app('ana', 'POST', `/app/stores/${stores.S1}/seller-proposals/${proposed.json().id}/accept`);
    expect(again.json()).toMatchObject({ status: 409, code: 'PROPOSAL_DECIDED' });

    const other = (await app('carlos', 'POST', `/app/stores/${stores.S1}/orders`, { lines })).json();
    expect((await app('ana', 'POST', `/app/stores/${stores.S1}/seller-proposals/${other.id}/decline`)).json()).toMatchObject({ status: 'DECLINED', orderId: null });
    expect((await as(t, a, 'GET', '/order')).json().total).toBe(before + 1);
    await app('ana', 'PUT', `/app/stores/${stores.S1}/seller-settings`, { confirmSellerOrders: false });
  });
});

describe('orders with an Idempotency-Key', () => {
  it('places one order per key, answers a retry the same, and refuses the key with another body', async () => {
    const before = (await as(t, a, 'GET', '/order')).json().total;
    const key = { 'idempotency-key': 'phone-queue-7f1c' };
    const first = await app('ana', 'POST', `/app/stores/${stores.S1}/orders`, { lines, notes: 'offline' }, key);
    expect(first.statusCode, first.body).toBe(200);
    const retry = await app('ana', 'POST', `/app/stores/${stores.S1}/orders`, { lines, notes: 'offline' }, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.body).toBe(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect((await as(t, a, 'GET', '/order')).json().total).toBe(before + 1);
    const changed = await app('ana', 'POST', `/app/stores/${stores.S1}/orders`, { lines: [{ ...lines[0], quantity: 3 }], notes: 'offline' }, key);
    expect(changed.json()).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect((await as(t, a, 'GET', '/order')).json().total).toBe(before + 1);
  });
});

describe('channels', () => {
  it('answers ERP_IMPORT on an imported order', async () => {
    await batch(a, '/order/bulk-import', { orders: [{ externalId: 'ERP-1', storeInternalCode: 'S1', createdAt: '2026-01-01', status: 'DELIVERED', products: [{ internalCode: 'P1', units: 1, quantity: 1, unitPrice: 900 }] }] });
    const imported = (await as(t, a, 'GET', '/order?take=50')).json().data.find((o: { externalId: string | null }) => o.externalId === 'ERP-1');
    expect(imported).toMatchObject({ channel: 'ERP_IMPORT' });
    expect(imported).not.toHaveProperty('placedBy');
  });
});
