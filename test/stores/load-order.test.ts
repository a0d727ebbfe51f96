// The recommended load order (README, "For integrators"), end to end, with a few hundred entities
// of each kind, including links that name stores before the stores exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { appWithSupplier } from '../helpers/fixtures.ts';

let t: TestApp;
let s: TestSupplier;
beforeAll(async () => {
  ({ t, s } = await appWithSupplier());
});
afterAll(() => t.close());

const N = 300;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

async function batch(url: string, body: unknown) {
  const { ids, statuses } = await t.runBatch(s, url, body);
  return { statuses, ids };
}

describe('the recommended load order', () => {
  it('loads groupers, catalog, stock, price lists, stores, users, prices and links', async () => {
    // (2) stock groupers, (3) promotion groupers
    for (const w of ['W-1', 'W-2']) expect((await as(t, s, 'POST', '/grouper/stock', { internalCode: w, name: `Warehouse ${w}` })).statusCode).toBe(200);
    for (const g of ['SEG-A', 'SEG-B', 'SEG-C']) expect((await as(t, s, 'POST', '/grouper/promotion', { internalCode: g, name: g })).statusCode).toBe(200);
    // (4) brands, (5) categories then subcategories, (6) products
    await batch('/batch/brand', { upsert: range(10).map((i) => ({ internalCode: `B${i}`, name: `Brand ${i}` })) });
    await as(t, s, 'PUT', '/category', { internalCode: 'C1', name: 'Drinks' });
    await as(t, s, 'PUT', '/subcategory', { internalCode: 'C1-1', name: 'Sodas', parentCategoryInternalCode: 'C1' });
    const products = await batch('/batch/product', {
      upsert: range(N).map((i) => ({ internalCode: `P${i}`, name: `Product ${i}`, brandInternalCode: `B${i % 10}`, categoryInternalCode: i % 2 ? 'C1' : 'C1-1' })),
    });
    expect(products.statuses[0]).toMatchObject({ completed: N, failed: 0 });
    // (7) stock: stores into stock groupers (they do not exist yet), then availability
    const links = await batch('/batch/grouper/stock', { add: { stores: range(N).map((i) => ({ groupInternalCode: i % 2 ? 'W-1' : 'W-2', storeInternalCode: `S${i}` })) } });
    expect(links.statuses[0]).toMatchObject({ completed: N, failed: 0 });
    const detail = (await as(t, s, 'GET', `/batch/${links.ids[0]}/detail?take=1`)).json().detail[0];
    expect(detail).toMatchObject({ code: 'W-2/S0', status: 'completed', message: 'store S0 is not known yet; the link takes effect when it is created' });
    const stock = await batch('/batch/stock/grouper', { upsert: range(50).map((i) => ({ grouperCode: 'W-1', productInternalCode: `P${i}`, available: false })) });
    expect(stock.statuses[0]).toMatchObject({ completed: 50 });
    // (8) price lists
    for (const pl of ['PL-1', 'PL-2']) expect((await as(t, s, 'POST', '/pricelist', { internalCode: pl })).statusCode).toBe(200);
    // (9) stores, with price list, stock grouper and promotion groupers
    const stores = await batch('/batch/store', {
      upsert: range(N).map((i) => ({
        internalCode: `S${i}`,
        name: `Store ${i}`,
        ...(i < 10 ? { priceListCode: 'PL-1' } : {}),
        promotionGrouperCodes: i % 3 === 0 ? ['SEG-A', 'SEG-B'] : ['SEG-C'],
        settings: i === 0 ? { dropSize: 150000 } : {},
        addresses: [{ street: `Calle ${i}`, city: 'Bogotá', default: true }],
      })),
    });
    expect(stores.statuses[0]).toMatchObject({ completed: N, failed: 0 });
    // (10) users to stores: the same person in two stores
    const ana = { phone: '+573001234567', email: 'ana@example.com', name: 'Ana' };
    expect((await as(t, s, 'POST', '/store/S0/add/user', { users: [ana] })).json()).toEqual({ users: [ana] });
    expect((await as(t, s, 'POST', '/store/S1/add/user', { users: [{ email: 'ANA@example.com' }] })).json()).toEqual({
      users: [{ phone: null, email: 'ana@example.com', name: null }],
    });
    // (11) prices and stores into price lists
    const prices = await batch('/batch/pricelist', {
      upsert: {
        products: range(N).map((i) => ({ priceListInternalCode: 'PL-2', productInternalCode: `P${i}`, units: 1, price: 1000 + i })),
        stores: range(N - 10).map((i) => ({ priceListInternalCode: 'PL-2', storeInternalCode: `S${i + 10}` })),
      },
    });
    expect(prices.statuses[0]).toMatchObject({ completed: 2 * N - 10, failed: 0 });

    const s0 = (await as(t, s, 'GET', '/store/S0')).json();
    expect(s0).toMatchObject({
      internalCode: 'S0',
      name: 'Store 0',
      priceListCode: 'PL-1',
      stockGrouperCode: 'W-2',
      promotionGrouperCodes: ['SEG-A', 'SEG-B'],
      settings: { dropSize: 150000 },
      addresses: [{ street: 'Calle 0', city: 'Bogotá', default: true }],
      users: [ana],
    });
    expect((await as(t, s, 'GET', '/store/S11')).json()).toMatchObject({ priceListCode: 'PL-2', stockGrouperCode: 'W-1', promotionGrouperCodes: ['SEG-C'], settings: { dropSize: null } });
    const w1 = (await as(t, s, 'GET', '/grouper/W-1/stock')).json();
    expect(w1.stores).toHaveLength(N / 2);
    const segA = (await as(t, s, 'GET', '/grouper/SEG-A/promotion')).json();
    expect(segA.stores).toHaveLength(N / 3);
    const pl2 = (await as(t, s, 'GET', '/pricelist/PL-2')).json();
    expect(pl2.products).toHaveLength(N);
    expect(pl2.stores).toHaveLength(N - 10);
  });

  it('fails only the items whose references are unknown, with the named codes', async () => {
    const res = await batch('/batch/store', {
      upsert: [
        { internalCode: 'X1', name: 'X1', priceListCode: 'NOPE' },
        { internalCode: 'X2', name: 'X2', stockGrouperCode: 'NOPE' },
        { internalCode: 'X3', name: 'X3', promotionGrouperCodes: ['SEG-A', 'NOPE'] },
        { internalCode: 'X4', name: 'X4' },
      ],
    });
    expect(res.statuses[0]).toMatchObject({ completed: 1, failed: 3 });
    const detail = (await as(t, s, 'GET', `/batch/${res.ids[0]}/detail`)).json().detail;
    expect(detail.map((d: { errorCode: string | null }) => d.errorCode)).toEqual(['UNKNOWN_PRICE_LIST', 'UNKNOWN_STOCK_GROUPER', 'UNKNOWN_GROUPER', null]);
    expect((await as(t, s, 'GET', '/store/X1')).statusCode).toBe(404);
    const grouper = await batch('/batch/grouper/promotion', { add: { stores: [{ groupInternalCode: 'NOPE', storeInternalCode: 'X4' }] } });
    expect((await as(t, s, 'GET', `/batch/${grouper.ids[0]}/detail`)).json().detail[0].errorCode).toBe('UNKNOWN_GROUPER');
    const stock = await batch('/batch/stock/grouper', { upsert: [{ grouperCode: 'NOPE', productInternalCode: 'P1', available: true }, { grouperCode: 'W-1', productInternalCode: 'NOPE', available: true }] });
    expect((await as(t, s, 'GET', `/batch/${stock.ids[0]}/detail`)).json().detail.map((d: { errorCode: string }) => d.errorCode)).toEqual(['UNKNOWN_STOCK_GROUPER', 'UNKNOWN_PRODUCT']);
  });
});
