// A store user signs in with a code, browses, previews a cart, places the order; the
// supplier sees exactly the previewed lines, discounts and rewards, and moves it along.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { priceEntries } from '../helpers/fixtures.ts';

let now = new Date('2026-03-10T15:00:00.000Z');
let t: TestApp;
let s: TestSupplier;
let token: string;
let storeId: number;
const ana = { phone: '+573001234567', name: 'Ana' };

async function batch(url: string, body: unknown) {
  const { statuses } = await t.runBatch(s, url, body);
  for (const st of statuses) expect(st.failed, JSON.stringify(st)).toBe(0);
}

const app = (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.request({ method, url, payload: payload as never, headers: { authorization: `Bearer ${token}`, ...headers } });

beforeAll(async () => {
  t = await createTestApp({ clock: { now: () => now } });
  s = await t.supplier();
  await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'Drinks' });
  await as(t, s, 'POST', '/grouper/promotion', { internalCode: 'SEG', name: 'Segment' });
  await batch('/batch/brand', [{ internalCode: 'B', name: 'Brand' }]);
  await batch('/batch/product', {
    upsert: ['P1', 'P2', 'GIFT'].map((code) => ({ internalCode: code, name: `Product ${code}`, brandInternalCode: 'B', categoryInternalCode: 'C', displayProducts: [{ units: 1, name: 'Unit' }, { units: 12, name: 'Box' }] })),
  });
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  await batch('/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda', priceListCode: 'PL', promotionGrouperCodes: ['SEG'], addresses: [{ street: 'Calle 1', city: 'Bogotá', default: true }] }] });
  await batch('/batch/pricelist', {
    upsert: {
      products: priceEntries('PL', [
        ['P1', 12, 11000],
        ['P1', 1, 1000],
        ['P2', 1, 2500.5],
      ]),
    },
  });
  expect((await as(t, s, 'PUT', '/promotion/discount/simple', {
    internalCode: 'DISC', name: '10% on boxes', start: '2026-03-01', end: '2026-03-31', enabled: true, promotionGrouperCodes: ['SEG'],
    products: { internalCode: 'P1', boxRatio: 12 }, discountTiersData: [{ min: 2, discountPercentage: 10 }],
  })).statusCode).toBe(200);
  expect((await as(t, s, 'PUT', '/promotion/bonus/crossed', {
    internalCode: 'GIFTS', name: 'A gift every 5 units of P2', start: '2026-03-01', end: '2026-03-31', enabled: true,
    products: [{ internalCode: 'P2' }], bonusTierData: { quantityRequired: 5, quantityGiven: 1, units: 1, productInternalCode: 'GIFT' },
  })).statusCode).toBe(200);
  await as(t, s, 'POST', '/store/S1/add/user', { users: [ana] });

  await t.request({ method: 'POST', url: '/app/auth/code', payload: { phone: ana.phone } });
  const exchanged = await t.request({ method: 'POST', url: '/app/auth/token', payload: { phone: ana.phone, code: await t.notifier.waitForCode(ana.phone) } });
  token = exchanged.json().access_token;
  storeId = (await app('GET', '/app/me')).json().stores[0].id;
});
afterAll(() => t.close());

const cart = [
  { productInternalCode: 'P1', units: 12, quantity: 3 },
  { productInternalCode: 'P2', units: 1, quantity: 10 },
];

describe('the store side', () => {
  it('shows the catalog the store can buy, with sizes, prices and promotions', async () => {
    const res = await app('GET', `/app/stores/${storeId}/catalog`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data.map((p: { internalCode: string }) => p.internalCode)).toEqual(['P1', 'P2']);
    expect(body.data[0]).toMatchObject({ sizes: [{ units: 1, name: 'Unit', price: 1000 }, { units: 12, name: 'Box', price: 11000 }], promotions: [{ internalCode: 'DISC' }] });
    expect((await app('GET', `/app/stores/${storeId}/catalog?search=p2`)).json().data.map((p: { internalCode: string }) => p.internalCode)).toEqual(['P2']);
    const promos = (await app('GET', `/app/stores/${storeId}/promotions`)).json().data;
    expect(promos.map((p: { internalCode: string }) => p.internalCode).sort()).toEqual(['DISC', 'GIFTS']);
  });

  it('places the previewed order, which the supplier sees exactly as previewed', async () => {
    const preview = await app('POST', `/app/stores/${storeId}/cart`, { lines: cart });
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json();
    expect(p).toMatchObject({ subtotal: 58005, discountTotal: 3300, total: 54705, minimumOrder: null });
    expect(p.rewards).toEqual([{ promoInternalCode: 'GIFTS', quantity: 2, products: [{ internalCode: 'GIFT', units: 1, name: 'Product GIFT' }] }]);

    const placed = await app('POST', `/app/stores/${storeId}/orders`, { lines: cart, notes: 'ring twice' }, { 'idempotency-key': 'order-1' });
    expect(placed.statusCode, placed.body).toBe(200);
    const order = placed.json();
    expect(order).toMatchObject({ status: 'PENDING', subtotal: p.subtotal, discountTotal: p.discountTotal, total: p.total, notes: 'ring twice', address: { street: 'Calle 1' } });
    expect(order.buyer).toEqual({ storeInternalCode: 'S1', storeName: 'Tienda', legalName: null, legalId: null, user: { name: 'Ana', phone: ana.phone, email: null } });
    expect(order.promotions).toEqual({ rewards: p.rewards, discounts: p.discounts });
    expect(order.products.map((l: Record<string, unknown>) => ({ ...l, name: undefined, deliveredQuantity: undefined, returnedQuantity: undefined }))).toEqual(
      p.lines.map((l: Record<string, unknown>) => ({ internalCode: l.productInternalCode, units: l.units, quantity: l.quantity, unitPrice: l.unitPrice, subtotal: l.subtotal, discount: l.discount, total: l.total, name: undefined, deliveredQuantity: undefined, returnedQuantity: undefined })),
    );
    const seen = await as(t, s, 'GET', `/order/${order.id}`);
    expect(seen.json()).toEqual(order);
    // The retry with the same key places nothing new.
    const retry = await app('POST', `/app/stores/${storeId}/orders`, { lines: cart, notes: 'ring twice' }, { 'idempotency-key': 'order-1' });
    expect(retry.json().id).toBe(order.id);
    expect((await as(t, s, 'GET', '/order')).json().total).toBe(1);
  });

  it('places one order for two concurrent submits with the same Idempotency-Key', async () => {
    const before = (await as(t, s, 'GET', '/order')).json().total;
    const submit = () => app('POST', `/app/stores/${storeId}/orders`, { lines: cart }, { 'idempotency-key': 'concurrent-1' });
    const answers = await Promise.all([submit(), submit()]);
    // The first to claim the key places the order; the other sees it in progress (409) or replays it (200).
    const placed = answers.filter((r) => r.statusCode === 200).map((r) => r.json().id);
    expect(placed.length).toBeGreaterThanOrEqual(1);
    expect(new Set(placed).size).toBe(1);
    for (const r of answers.filter((r) => r.statusCode !== 200)) expect(r.json()).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' });
    expect((await as(t, s, 'GET', '/order')).json().total).toBe(before + 1);
    // Once the first finished, a retry replays it.
    expect((await submit()).json().id).toBe(placed[0]);
  });

  it('refuses a cart with a failed line or below the minimum order', async () => {
    const bad = await app('POST', `/app/stores/${storeId}/orders`, { lines: [{ productInternalCode: 'GIFT', units: 1, quantity: 1 }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'NOT_PRICED', errors: [{ pointer: '/lines/0', code: 'NOT_PRICED' }] });
    await t.admin('PUT', `/admin/suppliers/${s.id}/settings`, { minimumOrder: 100000 });
    const small = await app('POST', `/app/stores/${storeId}/orders`, { lines: cart });
    expect(small.json()).toMatchObject({ status: 400, code: 'BELOW_MINIMUM_ORDER' });
    const preview = await app('POST', `/app/stores/${storeId}/cart`, { lines: cart });
    expect(preview.json().minimumOrder).toEqual({ amount: 100000, missing: 45295 });
    await t.admin('PUT', `/admin/suppliers/${s.id}/settings`, { minimumOrder: null });
  });

  it('lets the store cancel only while PENDING, with a store code', async () => {
    const order = (await app('POST', `/app/stores/${storeId}/orders`, { lines: cart })).json();
    expect((await app('POST', `/app/orders/${order.id}/cancel`, { cancelCode: 'OUT_OF_STOCK' })).json()).toMatchObject({ status: 400, code: 'INVALID_CANCEL_CODE' });
    const cancelled = await app('POST', `/app/orders/${order.id}/cancel`, { cancelCode: 'NEW_ORDER', message: 'changed my mind' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'CANCELLED', cancellation: { code: 'NEW_ORDER', reason: 'I will place a new order', by: 'STORE', message: 'changed my mind' } });
    expect((await app('POST', `/app/orders/${order.id}/cancel`, { cancelCode: 'NEW_ORDER' })).json()).toMatchObject({ status: 409, code: 'INVALID_ORDER_TRANSITION' });
    const mine = (await app('GET', `/app/stores/${storeId}/orders`)).json();
    expect(mine.data[0].id).toBe(order.id);
  });

  it('hides other stores and orders behind 404', async () => {
    expect((await app('GET', `/app/stores/${storeId + 1000}/catalog`)).statusCode).toBe(404);
    expect((await app('GET', '/app/orders/999999')).statusCode).toBe(404);
  });
});
