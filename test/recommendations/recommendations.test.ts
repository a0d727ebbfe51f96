// The supplier's recommendations through the real HTTP layer: written by PUT and by batch
// with the same rules, read back, and shown to a store by its code, its promotion
// groupers (enabled ones) or to everyone, within their dates; with the platform's cadence
// suggestion computed from a fixed history. Supplier B never sees A's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCOPES } from '../../src/modules/auth/scopes.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let now = new Date('2030-03-01T15:00:00.000Z');
let t: TestApp;
let s: TestSupplier;
let other: TestSupplier;
let s1: number;
const ana = { email: 'ana.recs@example.com', name: 'Ana' };

const fresh = async () => t.credential(s, [...DEFAULT_SCOPES]);
async function batch(url: string, body: unknown) {
  const { statuses } = await t.runBatch(await fresh(), url, body);
  for (const st of statuses) expect(st.failed, JSON.stringify(st)).toBe(0);
}
async function app(method: 'GET' | 'POST', url: string, payload?: unknown) {
  const token = (await t.admin('POST', '/admin/store-users/token', { email: ana.email })).json().access_token;
  return t.request({ method, url, payload: payload as never, headers: { authorization: `Bearer ${token}` } });
}
const rec = (over: Record<string, unknown> = {}) => ({
  name: 'Nuevo',
  reason: 'NEW',
  start: '2030-03-01',
  end: '2030-03-31',
  products: [{ productInternalCode: 'A', units: 1, quantity: 6 }],
  ...over,
});
const shown = async () => ((await app('GET', `/app/stores/${s1}/recommendations`)).json().data as { internalCode: string | null }[]).map((r) => r.internalCode);

beforeAll(async () => {
  t = await createTestApp({ clock: { now: () => now } });
  s = await t.supplier();
  other = await t.supplier();
  await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'Drinks' });
  for (const g of ['SEG', 'OFF']) await as(t, s, 'POST', '/grouper/promotion', { internalCode: g, name: g });
  await batch('/batch/brand', [{ internalCode: 'B', name: 'Brand' }]);
  await batch('/batch/product', { upsert: ['A', 'B', 'X'].map((code) => ({ internalCode: code, name: `Product ${code}`, brandInternalCode: 'B', categoryInternalCode: 'C' })) });
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  await batch('/batch/store', {
    upsert: [
      { internalCode: 'S1', name: 'Uno', priceListCode: 'PL', promotionGrouperCodes: ['SEG', 'OFF'], addresses: [{ street: 'Calle 1', city: 'Bogotá', default: true }] },
      { internalCode: 'S2', name: 'Dos', priceListCode: 'PL', addresses: [{ street: 'Calle 2', city: 'Bogotá', default: true }] },
    ],
  });
  await batch('/batch/pricelist', { upsert: { products: ['A', 'B'].map((p) => ({ priceListInternalCode: 'PL', productInternalCode: p, units: 1, price: 1000 })) } });
  expect((await as(t, s, 'POST', '/store/S1/add/user', { users: [ana] })).statusCode).toBe(200);
  s1 = (await app('GET', '/app/me')).json().stores[0].id;
});
afterAll(() => t.close());

describe('the supplier API', () => {
  it('creates and replaces a recommendation by PUT, and reads it back', async () => {
    const put = await as(t, s, 'PUT', '/recommendation/R-STORE', rec({ storeInternalCodes: ['S1', 'S1'], reason: 'MUST_STOCK' }));
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ internalCode: 'R-STORE', reason: 'MUST_STOCK', start: '2030-03-01', end: '2030-03-31', storeInternalCodes: ['S1'], promotionGrouperCodes: [], active: true });
    const again = await as(t, s, 'PUT', '/recommendation/R-STORE', rec({ name: 'Imprescindibles', storeInternalCodes: ['S1', 'LATER'], reason: 'MUST_STOCK' }));
    expect(again.json()).toMatchObject({ name: 'Imprescindibles', storeInternalCodes: ['LATER', 'S1'] });
    expect((await as(t, s, 'GET', '/recommendation/R-STORE')).json()).toEqual(again.json());
  });

  it('refuses broken rules with RFC 9457 problems pointing at the field, writing nothing', async () => {
    const cases: [unknown, string, string][] = [
      [rec({ start: '2030-03-10', end: '2030-03-01' }), 'INVALID_DATE_RANGE', '/end'],
      [rec({ reason: 'BECAUSE' }), 'INVALID_VALUE', '/reason'],
      [rec({ promotionGrouperCodes: ['NOPE'] }), 'UNKNOWN_GROUPER', '/promotionGrouperCodes/0'],
      [rec({ products: [{ productInternalCode: 'A', units: 1, quantity: 1 }, { productInternalCode: 'NOPE', units: 1, quantity: 1 }] }), 'UNKNOWN_PRODUCT', '/products/1/productInternalCode'],
      [rec({ products: [{ productInternalCode: 'A', units: 1, quantity: 1 }, { productInternalCode: 'A', units: 1, quantity: 2 }] }), 'DUPLICATE_PRODUCT', '/products/1/productInternalCode'],
      [rec({ products: [] }), 'INVALID_LENGTH', '/products'],
    ];
    for (const [body, code, pointer] of cases) {
      const res = await as(t, s, 'PUT', '/recommendation/R-BAD', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code, errors: [{ pointer, code }] });
    }
    expect((await as(t, s, 'GET', '/recommendation/R-BAD')).statusCode).toBe(404);
  });

  it('writes by batch with the same rules (an item failing alone), removes first, and lists by start then code', async () => {
    await as(t, s, 'PUT', '/recommendation/R-GONE', rec());
    const { statuses, ids } = await t.runBatch(await fresh(), '/batch/recommendation', {
      remove: { internalCodes: ['R-GONE', 'R-NEVER'] },
      upsert: [
        { internalCode: 'R-SEG', ...rec({ reason: 'PROMOTION', promotionGrouperCodes: ['SEG'] }) },
        { internalCode: 'R-ALL', ...rec({ reason: 'USUALLY_BOUGHT_TOGETHER', start: '2030-02-15', products: [{ productInternalCode: 'A', units: 1, quantity: 2 }, { productInternalCode: 'B', units: 1, quantity: 2 }] }) },
        { internalCode: 'R-OFF', ...rec({ promotionGrouperCodes: ['OFF'] }) },
        { internalCode: 'R-S2', ...rec({ storeInternalCodes: ['S2'] }) },
        { internalCode: 'R-PAST', ...rec({ start: '2030-01-01', end: '2030-02-28' }) },
        { internalCode: 'R-FUTURE', ...rec({ start: '2030-04-01', end: '2030-04-30' }) },
        { internalCode: 'R-BROKEN', ...rec({ products: [{ productInternalCode: 'NOPE', units: 1, quantity: 1 }] }) },
      ],
    });
    expect(statuses[0]).toMatchObject({ completed: 8, failed: 1 });
    const detail = (await as(t, await fresh(), 'GET', `/batch/${ids[0]}/detail`)).json().detail;
    expect(detail.find((d: { batchItem: string }) => d.batchItem.includes('R-BROKEN'))).toMatchObject({ status: 'failed', errorCode: 'UNKNOWN_PRODUCT' });
    expect(detail.find((d: { batchItem: string }) => d.batchItem === '"R-NEVER"')).toMatchObject({ status: 'completed', message: 'recommendation R-NEVER does not exist; nothing to remove' });
    const list = (await as(t, await fresh(), 'GET', '/recommendation')).json();
    expect(list.data.map((r: { internalCode: string }) => r.internalCode)).toEqual(['R-PAST', 'R-ALL', 'R-OFF', 'R-S2', 'R-SEG', 'R-STORE', 'R-FUTURE']);
    expect(list.total).toBe(7);
    const active = (await as(t, await fresh(), 'GET', '/recommendation?active=true&reason=NEW')).json();
    expect(active.data.map((r: { internalCode: string }) => r.internalCode)).toEqual(['R-OFF', 'R-S2']);
  });

  it("keeps each supplier's recommendations its own", async () => {
    expect((await as(t, other, 'GET', '/recommendation/R-STORE')).statusCode).toBe(404);
    expect((await as(t, other, 'GET', '/recommendation')).json().total).toBe(0);
    // B's PUT with A's code is B's own recommendation; A's stays as it was.
    const before = (await as(t, await fresh(), 'GET', '/recommendation/R-STORE')).json();
    await as(t, other, 'PUT', '/recommendation/R-STORE', { ...rec(), products: [] });
    expect((await as(t, await fresh(), 'GET', '/recommendation/R-STORE')).json()).toEqual(before);
  });
});

describe("the store's recommendations", () => {
  it('shows those for its code, its groupers and everyone, within their dates, priced for it', async () => {
    expect(await shown()).toEqual(['R-ALL', 'R-OFF', 'R-SEG', 'R-STORE']);
    const all = (await app('GET', `/app/stores/${s1}/recommendations`)).json().data[0];
    expect(all).toMatchObject({ source: 'SUPPLIER', internalCode: 'R-ALL', reason: 'USUALLY_BOUGHT_TOGETHER', start: '2030-02-15', end: '2030-03-31' });
    expect(all.products).toEqual([
      { productInternalCode: 'A', name: 'Product A', units: 1, quantity: 2, unitPrice: 1000, available: true, unavailableReason: null },
      { productInternalCode: 'B', name: 'Product B', units: 1, quantity: 2, unitPrice: 1000, available: true, unavailableReason: null },
    ]);
  });

  it('drops a disabled grouper\'s recommendations, and shows the future one on its first day', async () => {
    await as(t, await fresh(), 'PUT', '/grouper/OFF/status/promotion', { enabled: false });
    expect(await shown()).toEqual(['R-ALL', 'R-SEG', 'R-STORE']);
    now = new Date('2030-04-01T15:00:00.000Z');
    expect(await shown()).toEqual(['R-FUTURE']);
    now = new Date('2030-03-01T15:00:00.000Z');
  });

  it('adds the platform cadence suggestion for a product bought every N days and not for longer than N × 1.25', async () => {
    // X is not priced: it never reaches the history. A every 10 days (3 times), B only twice.
    await batch('/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'PL', productInternalCode: 'X', units: 1, price: 10 }] } });
    for (const [day, lines] of [
      ['2030-03-01', [['A', 4], ['B', 1]]],
      ['2030-03-11', [['A', 6]]],
      ['2030-03-21', [['A', 5], ['B', 1]]],
    ] as const) {
      now = new Date(`${day}T15:00:00.000Z`);
      const res = await app('POST', `/app/stores/${s1}/orders`, { lines: lines.map(([p, quantity]) => ({ productInternalCode: p, units: 1, quantity })) });
      expect(res.statusCode, res.body).toBe(200);
    }
    // 12 days after the last: 12 ≤ 10 × 1.25, not due yet.
    now = new Date('2030-04-02T15:00:00.000Z');
    expect(await shown()).not.toContain(null);
    // 13 days: due, with the median quantity.
    now = new Date('2030-04-03T15:00:00.000Z');
    const data = (await app('GET', `/app/stores/${s1}/recommendations`)).json().data;
    // The platform's suggestion has no code, name or dates of its own.
    const noCodeNameOrDates = { internalCode: null, name: null, start: null, end: null };
    expect(data.at(-1)).toEqual({
      source: 'PLATFORM',
      reason: 'CADENCE',
      ...noCodeNameOrDates,
      products: [
        {
          productInternalCode: 'A',
          name: 'Product A',
          units: 1,
          quantity: 5,
          unitPrice: 1000,
          available: true,
          unavailableReason: null,
          cadence: { everyDays: 10, daysSinceLast: 13, lastOrderedAt: '2030-03-21T15:00:00.000Z' },
        },
      ],
    });
  });
});
