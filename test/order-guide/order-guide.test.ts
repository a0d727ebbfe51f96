// "Lo de siempre" through the real HTTP layer, on a fixed history: orders placed by the
// store app on given days (the app's clock moved), one imported before the window and one
// cancelled. The guide's frequency and recency orders, its usual quantities, pins, hidden
// products, the par and its case multiple, and repeating a past order with one line no
// longer available and one repriced.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCOPES } from '../../src/modules/auth/scopes.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { priceEntries } from '../helpers/fixtures.ts';

let now = new Date('2030-01-05T15:00:00.000Z');
let t: TestApp;
let s: TestSupplier;
let storeId: number;
const ana = { email: 'ana.guide@example.com', name: 'Ana' };
const orderIds: number[] = [];

/** A batch sent with a credential logged in at the clock's present (a token from an earlier day would have expired). */
async function batch(url: string, body: unknown) {
  const { statuses } = await t.runBatch(await t.credential(s, [...DEFAULT_SCOPES]), url, body);
  for (const st of statuses) expect(st.failed, JSON.stringify(st)).toBe(0);
}

/** A store-user token issued at the clock's present (a token from an earlier day would have expired). */
async function app(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  const token = (await t.admin('POST', '/admin/store-users/token', { email: ana.email })).json().access_token;
  return t.request({ method, url, payload: payload as never, headers: { authorization: `Bearer ${token}` } });
}

async function placeOn(day: string, lines: { productInternalCode: string; units: number; quantity: number }[]) {
  now = new Date(`${day}T15:00:00.000Z`);
  const res = await app('POST', `/app/stores/${storeId}/orders`, { lines });
  expect(res.statusCode, res.body).toBe(200);
  orderIds.push(res.json().id);
  return res.json().id as number;
}

const codes = (res: { json(): { data: { productInternalCode: string }[] } }) => res.json().data.map((i) => i.productInternalCode);

beforeAll(async () => {
  t = await createTestApp({ clock: { now: () => now } });
  s = await t.supplier();
  await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'Drinks' });
  await as(t, s, 'POST', '/grouper/promotion', { internalCode: 'SEG', name: 'Segment' });
  await as(t, s, 'POST', '/grouper/stock', { internalCode: 'W', name: 'Warehouse' });
  await batch('/batch/brand', [{ internalCode: 'B', name: 'Brand' }]);
  await batch('/batch/product', {
    upsert: ['A', 'B', 'C', 'D'].map((code) => ({
      internalCode: code,
      name: `Product ${code}`,
      brandInternalCode: 'B',
      categoryInternalCode: 'C',
      displayProducts: [{ units: 1, name: 'Unit' }, { units: 12, name: 'Box' }],
    })),
  });
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  await batch('/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda', priceListCode: 'PL', stockGrouperCode: 'W', promotionGrouperCodes: ['SEG'], addresses: [{ street: 'Calle 1', city: 'Bogotá', default: true }] }] });
  await batch('/batch/pricelist', {
    upsert: {
      products: priceEntries('PL', [
        ['A', 1, 1000],
        ['A', 12, 11000],
        ['B', 1, 2000],
        ['C', 1, 500],
        ['D', 1, 300],
        ['D', 12, 3300],
      ]),
    },
  });
  expect((await as(t, s, 'POST', '/store/S1/add/user', { users: [ana] })).statusCode).toBe(200);
  storeId = (await app('GET', '/app/me')).json().stores[0].id;

  // Before the window (90 days back from 2030-02-01 is 2029-11-03): imported history of D.
  const imported = await t.runBatch(s, '/order/bulk-import', {
    orders: [{ storeInternalCode: 'S1', createdAt: '2029-09-01', status: 'DELIVERED', products: [{ internalCode: 'D', units: 1, quantity: 50, unitPrice: 300 }] }],
  });
  for (const st of imported.statuses) expect(st.failed, JSON.stringify(st)).toBe(0);
  // The fixed history: A every 7 days (in boxes), B on 01-05, 01-19 and 01-26, C twice.
  await placeOn('2030-01-05', [{ productInternalCode: 'A', units: 12, quantity: 2 }, { productInternalCode: 'B', units: 1, quantity: 10 }]);
  await placeOn('2030-01-12', [{ productInternalCode: 'A', units: 12, quantity: 1 }, { productInternalCode: 'C', units: 1, quantity: 5 }]);
  await placeOn('2030-01-19', [{ productInternalCode: 'A', units: 12, quantity: 3 }, { productInternalCode: 'B', units: 1, quantity: 10 }]);
  await placeOn('2030-01-26', [{ productInternalCode: 'B', units: 1, quantity: 20 }, { productInternalCode: 'C', units: 1, quantity: 5 }]);
  // A cancelled order of D in the window: not bought.
  const cancelled = await placeOn('2030-01-27', [{ productInternalCode: 'D', units: 1, quantity: 99 }]);
  expect((await app('POST', `/app/orders/${cancelled}/cancel`, { cancelCode: 'NEW_ORDER' })).statusCode).toBe(200);
  now = new Date('2030-02-01T15:00:00.000Z');
});
afterAll(() => t.close());

describe('the order guide', () => {
  it('lists what the store bought in the window, most ordered first, with last and usual quantities and today\'s price', async () => {
    const res = await app('GET', `/app/stores/${storeId}/order-guide`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ windowDays: 90, sort: 'frequency' });
    // A and B were ordered 3 times each (B latest), C twice; D only before the window and in a cancelled order.
    expect(codes(res)).toEqual(['B', 'A', 'C']);
    const [b, a, c] = body.data;
    expect(a).toMatchObject({ name: 'Product A', units: 12, timesOrdered: 3, lastOrderedAt: '2030-01-19T15:00:00.000Z', lastQuantity: 3, usualQuantity: 2, multiple: 1, unitPrice: 11000, available: true, unavailableReason: null });
    expect(b).toMatchObject({ units: 1, timesOrdered: 3, lastQuantity: 20, usualQuantity: 10, unitPrice: 2000, pinned: false, hidden: false, par: null });
    expect(c).toMatchObject({ units: 1, timesOrdered: 2, lastQuantity: 5, usualQuantity: 5, unitPrice: 500 });
  });

  it('sorts by recency on request: the latest order first, then the most ordered', async () => {
    const res = await app('GET', `/app/stores/${storeId}/order-guide?sort=recency`);
    expect(res.json().sort).toBe('recency');
    // B and C were both last ordered on 01-26; B more often.
    expect(codes(res)).toEqual(['B', 'C', 'A']);
  });

  it('looks back as far as the supplier set: 7 days keeps only the last week', async () => {
    const set = await t.admin('PUT', `/admin/suppliers/${s.id}/settings`, { minimumOrder: null, orderGuideDays: 7 });
    expect(set.json(), set.body).toEqual({ minimumOrder: null, orderGuideDays: 7 });
    expect(codes(await app('GET', `/app/stores/${storeId}/order-guide`))).toEqual(['B', 'C']);
    const refused = await t.admin('PUT', `/admin/suppliers/${s.id}/settings`, { minimumOrder: null, orderGuideDays: 3 });
    expect(refused.json()).toMatchObject({ status: 400, errors: [{ pointer: '/orderGuideDays' }] });
    // Left out: unchanged.
    expect((await t.admin('PUT', `/admin/suppliers/${s.id}/settings`, { minimumOrder: null })).json().orderGuideDays).toBe(7);
    await t.admin('PUT', `/admin/suppliers/${s.id}/settings`, { minimumOrder: null, orderGuideDays: 90 });
  });

  it('shows pinned products first, bought or not, and leaves hidden ones out unless asked', async () => {
    const pin = await app('PUT', `/app/stores/${storeId}/order-guide/D`, { pinned: true });
    expect(pin.json(), pin.body).toEqual({ productInternalCode: 'D', pinned: true, hidden: false, par: null });
    const hide = await app('PUT', `/app/stores/${storeId}/order-guide/C`, { hidden: true });
    expect(hide.json()).toEqual({ productInternalCode: 'C', pinned: false, hidden: true, par: null });
    const guide = await app('GET', `/app/stores/${storeId}/order-guide`);
    expect(codes(guide)).toEqual(['D', 'B', 'A']);
    // Never bought in the window: its smallest priced size, one package.
    expect(guide.json().data[0]).toMatchObject({ units: 1, timesOrdered: 0, lastOrderedAt: null, lastQuantity: null, usualQuantity: 1, unitPrice: 300, pinned: true });
    const all = await app('GET', `/app/stores/${storeId}/order-guide?includeHidden=true`);
    expect(codes(all)).toEqual(['D', 'B', 'A', 'C']);
    // An empty body changes nothing; a field left out stays.
    expect((await app('PUT', `/app/stores/${storeId}/order-guide/C`, {})).json()).toEqual({ productInternalCode: 'C', pinned: false, hidden: true, par: null });
    expect((await app('PUT', `/app/stores/${storeId}/order-guide/C`, { hidden: false })).json().hidden).toBe(false);
    expect((await app('PUT', `/app/stores/${storeId}/order-guide/D`, { pinned: false })).json().pinned).toBe(false);
    expect(codes(await app('GET', `/app/stores/${storeId}/order-guide`))).toEqual(['B', 'A', 'C']);
  });

  it('refuses a product the supplier does not have (404) and a bad par (400 naming it)', async () => {
    const missing = await app('PUT', `/app/stores/${storeId}/order-guide/NOPE`, { pinned: true });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND', errors: [{ pointer: '/params/productInternalCode' }] });
    const bad = await app('PUT', `/app/stores/${storeId}/order-guide/B`, { par: -1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({ pointer: '/par' });
  });

  it('fills what is missing to the par: max(par − onHand, 0)', async () => {
    expect((await app('PUT', `/app/stores/${storeId}/order-guide/B`, { par: 30 })).json().par).toBe(30);
    const res = await app('POST', `/app/stores/${storeId}/order-guide/fill`, {
      counts: [
        { productInternalCode: 'B', onHand: 12 },
        { productInternalCode: 'A', onHand: 1 },
        { productInternalCode: 'D', onHand: 0 },
      ],
    });
    expect(res.json(), res.body).toEqual({
      lines: [{ productInternalCode: 'B', units: 1, quantity: 18, par: 30, onHand: 12, available: true }],
      skipped: [
        { productInternalCode: 'A', reason: 'NO_PAR' },
        { productInternalCode: 'D', reason: 'NOT_IN_GUIDE' },
      ],
    });
    const over = await app('POST', `/app/stores/${storeId}/order-guide/fill`, { counts: [{ productInternalCode: 'B', onHand: 45 }] });
    expect(over.json().lines[0].quantity).toBe(0);
    const twice = await app('POST', `/app/stores/${storeId}/order-guide/fill`, { counts: [{ productInternalCode: 'B', onHand: 1 }, { productInternalCode: 'B', onHand: 2 }] });
    expect(twice.json()).toMatchObject({ status: 400, code: 'DUPLICATE_PRODUCT', errors: [{ pointer: '/counts/1/productInternalCode' }] });
  });

  it('reads the repeat of a past order: unavailable and repriced lines apart, nothing placed', async () => {
    // Since the first order: boxes of A are out in the store's warehouse, B costs more.
    await batch('/batch/stock/grouper', { upsert: [{ grouperCode: 'W', productInternalCode: 'A', units: 12, available: false }] });
    await batch('/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'PL', productInternalCode: 'B', units: 1, price: 2200 }] } });
    const before = await t.deps.db.selectFrom('orders').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const res = await app('POST', `/app/stores/${storeId}/orders/${orderIds[0]}/repeat`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      orderId: orderIds[0],
      lines: [{ productInternalCode: 'B', name: 'Product B', units: 1, quantity: 10, previousUnitPrice: 2000, unitPrice: 2200, priceChanged: true }],
      unavailable: [{ productInternalCode: 'A', name: 'Product A', units: 12, quantity: 2, previousUnitPrice: 11000, reason: 'UNAVAILABLE' }],
      repriced: [{ productInternalCode: 'B', name: 'Product B', units: 1, quantity: 10, previousUnitPrice: 2000, unitPrice: 2200 }],
    });
    const unchanged = await app('POST', `/app/stores/${storeId}/orders/${orderIds[1]}/repeat`);
    expect(unchanged.json().lines).toContainEqual({ productInternalCode: 'C', name: 'Product C', units: 1, quantity: 5, previousUnitPrice: 500, unitPrice: 500, priceChanged: false });
    const after = await t.deps.db.selectFrom('orders').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    // The guide says the same of A.
    const a = (await app('GET', `/app/stores/${storeId}/order-guide`)).json().data.find((i: { productInternalCode: string }) => i.productInternalCode === 'A');
    expect(a).toMatchObject({ available: false, unavailableReason: 'UNAVAILABLE', unitPrice: null });
    const missing = await app('POST', `/app/stores/${storeId}/orders/2000000000/repeat`);
    expect(missing.json()).toMatchObject({ status: 404, code: 'NOT_FOUND', errors: [{ pointer: '/params/orderId' }] });
  });

  it("rounds the usual quantity and the par's fill up to the product's case multiple once products have one (issue 31's column)", async () => {
    // Issue 31 adds products.multiple; until its migration lands, this test adds the column itself.
    await sql`alter table products add column if not exists multiple integer`.execute(t.deps.db);
    await sql`update products set multiple = 6 where supplier_id = ${s.id} and internal_code = 'B'`.execute(t.deps.db);
    const b = (await app('GET', `/app/stores/${storeId}/order-guide`)).json().data.find((i: { productInternalCode: string }) => i.productInternalCode === 'B');
    expect(b).toMatchObject({ multiple: 6, usualQuantity: 12 });
    const res = await app('POST', `/app/stores/${storeId}/order-guide/fill`, { counts: [{ productInternalCode: 'B', onHand: 13 }] });
    expect(res.json().lines[0]).toMatchObject({ quantity: 18, par: 30, onHand: 13 });
    // The multiple counts units (pricing's case rules): A's boxes of 12 in cases of 24 step by 2 boxes, not 24.
    await sql`update products set multiple = 24 where supplier_id = ${s.id} and internal_code = 'A'`.execute(t.deps.db);
    const a = (await app('GET', `/app/stores/${storeId}/order-guide`)).json().data.find((i: { productInternalCode: string }) => i.productInternalCode === 'A');
    expect(a).toMatchObject({ units: 12, multiple: 24, usualQuantity: 2 });
  });
});
