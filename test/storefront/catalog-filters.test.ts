// GET /app/stores/{id}/catalog/filters: the shop's category and brand choices, with names,
// exactly those of the products the store can buy (every one of them, not a page's), and
// only for the person's own stores. And the store's promotions name their products.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;
let other: TestSupplier;
const tokens: Record<string, string> = {};
const storeIds: Record<string, number> = {};

async function batch(supplier: TestSupplier, url: string, body: unknown) {
  const res = await as(t, supplier, 'POST', url, body);
  expect(res.statusCode, res.body).toBe(202);
  for (const st of await t.waitForBatches(supplier, res.json().batchId)) expect(st.failed, JSON.stringify(st)).toBe(0);
}
const ok = async (supplier: TestSupplier, method: 'PUT' | 'POST', url: string, body: unknown) => {
  const res = await as(t, supplier, method, url, body);
  expect(res.statusCode, res.body).toBeLessThan(300);
};
const app = (who: string, url: string) => t.request({ method: 'GET', url, headers: { authorization: `Bearer ${tokens[who]}` } });

async function signIn(supplier: TestSupplier, store: string, who: string, email: string) {
  await ok(supplier, 'POST', `/store/${store}/add/user`, { users: [{ email, name: who }] });
  tokens[who] = (await t.admin('POST', '/admin/store-users/token', { email })).json().access_token;
  storeIds[who] = (await app(who, '/app/me')).json().stores.find((x: { internalCode: string }) => x.internalCode === store).id;
}

const product = (internalCode: string, categoryInternalCode: string, brandInternalCode: string, extra: object = {}) => ({ internalCode, name: `Product ${internalCode}`, categoryInternalCode, brandInternalCode, ...extra });

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  other = await t.supplier();
  // Level-1 categories and a subcategory; names sort differently from codes.
  await ok(s, 'PUT', '/category', { internalCode: 'C-DRINKS', name: 'Bebidas' });
  await ok(s, 'PUT', '/subcategory', { internalCode: 'C-SODA', name: 'Gaseosas', parentCategoryInternalCode: 'C-DRINKS' });
  await ok(s, 'PUT', '/subcategory', { internalCode: 'C-WATER', name: 'Aguas', parentCategoryInternalCode: 'C-DRINKS' });
  await ok(s, 'PUT', '/category', { internalCode: 'C-CLEAN', name: 'Aseo' });
  await ok(s, 'PUT', '/category', { internalCode: 'C-SNACKS', name: 'Snacks' });
  await ok(s, 'PUT', '/category', { internalCode: 'C-EMPTY', name: 'Sin productos' });
  await batch(s, '/batch/brand', [
    { internalCode: 'B-ZETA', name: 'Andina' },
    { internalCode: 'B-ALFA', name: 'Zafiro' },
    { internalCode: 'B-OFF', name: 'Solo sin existencias' },
    { internalCode: 'B-UNPRICED', name: 'Sin precio' },
  ]);
  await batch(s, '/batch/product', {
    upsert: [
      product('COLA', 'C-SODA', 'B-ZETA'),
      product('AGUA', 'C-WATER', 'B-ZETA'),
      product('JABON', 'C-CLEAN', 'B-ALFA'),
      product('PAPAS', 'C-SNACKS', 'B-OFF'), // unavailable in the store's warehouse
      product('MANI', 'C-SNACKS', 'B-UNPRICED'), // not in the price list
      product('OLD', 'C-EMPTY', 'B-ALFA', { enabled: false }), // priced but disabled
    ],
  });
  await ok(s, 'POST', '/pricelist', { internalCode: 'PL' });
  await ok(s, 'POST', '/grouper/stock', { internalCode: 'WH', name: 'Warehouse' });
  await batch(s, '/batch/store', {
    upsert: [
      { internalCode: 'S1', name: 'Tienda', priceListCode: 'PL', stockGrouperCode: 'WH' },
      { internalCode: 'NOLIST', name: 'Sin lista' },
    ],
  });
  await batch(s, '/batch/pricelist', {
    upsert: { products: ['COLA', 'AGUA', 'JABON', 'PAPAS', 'OLD'].map((code) => ({ priceListInternalCode: 'PL', productInternalCode: code, units: 1, price: 1000 })), stores: [] },
  });
  await batch(s, '/batch/grouper/stock', { add: { stores: [{ groupInternalCode: 'WH', storeInternalCode: 'S1' }] } });
  await batch(s, '/batch/stock/grouper', { upsert: [{ grouperCode: 'WH', productInternalCode: 'PAPAS', available: false }] });
  await ok(s, 'PUT', '/promotion/discount/multiple', {
    internalCode: 'PROMO',
    name: 'Drinks',
    start: '2000-01-01',
    end: '2999-12-31',
    enabled: true,
    products: [{ internalCode: 'COLA' }, { internalCode: 'AGUA' }],
    discountTiersData: [{ min: 2, discountPercentage: 5 }],
  });
  await ok(s, 'PUT', '/promotion/bonus/crossed', {
    internalCode: 'GIFT',
    name: 'Free peanuts',
    start: '2000-01-01',
    end: '2999-12-31',
    enabled: true,
    products: [{ internalCode: 'JABON' }],
    bonusTierDataCash: { amountRequired: 5000, quantityGiven: 1, units: 1, productInternalCode: 'MANI' },
  });

  // Another supplier's store, with its own category and brand.
  await ok(other, 'PUT', '/category', { internalCode: 'C-OTHER', name: 'Otra' });
  await batch(other, '/batch/brand', [{ internalCode: 'B-OTHER', name: 'Otra marca' }]);
  await batch(other, '/batch/product', { upsert: [product('X', 'C-OTHER', 'B-OTHER')] });
  await ok(other, 'POST', '/pricelist', { internalCode: 'PL' });
  await batch(other, '/batch/store', { upsert: [{ internalCode: 'S2', name: 'Otra tienda', priceListCode: 'PL' }] });
  await batch(other, '/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'PL', productInternalCode: 'X', units: 1, price: 500 }], stores: [] } });

  await signIn(s, 'S1', 'ana', 'ana@example.com');
  await signIn(s, 'NOLIST', 'nora', 'nora@example.com');
  await signIn(other, 'S2', 'bob', 'bob@example.com');
});
afterAll(() => t.close());

describe('the catalog filters of a store', () => {
  it('name every category and brand of the products the store can buy, and nothing else', async () => {
    const res = await app('ana', `/app/stores/${storeIds.ana}/catalog/filters`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      // By name, each level-1 category followed by its subcategories (by name).
      categories: [
        { code: 'C-CLEAN', name: 'Aseo', parentCode: null },
        { code: 'C-DRINKS', name: 'Bebidas', parentCode: null },
        { code: 'C-WATER', name: 'Aguas', parentCode: 'C-DRINKS' },
        { code: 'C-SODA', name: 'Gaseosas', parentCode: 'C-DRINKS' },
      ],
      brands: [
        { code: 'B-ZETA', name: 'Andina' },
        { code: 'B-ALFA', name: 'Zafiro' },
      ],
    });
    // Each choice finds products: the catalog's own filters agree.
    for (const { code } of res.json().categories) {
      expect((await app('ana', `/app/stores/${storeIds.ana}/catalog?category=${code}`)).json().total, code).toBeGreaterThan(0);
    }
    expect((await app('ana', `/app/stores/${storeIds.ana}/catalog?category=C-DRINKS`)).json().data.map((p: { internalCode: string }) => p.internalCode).sort()).toEqual(['AGUA', 'COLA']);
  });

  it('follow the catalogue: a product made available brings its category and brand', async () => {
    await batch(s, '/batch/stock/grouper', { upsert: [{ grouperCode: 'WH', productInternalCode: 'PAPAS', available: true }] });
    const body = (await app('ana', `/app/stores/${storeIds.ana}/catalog/filters`)).json();
    expect(body.categories.map((c: { code: string }) => c.code)).toContain('C-SNACKS');
    expect(body.brands).toContainEqual({ code: 'B-OFF', name: 'Solo sin existencias' });
    expect(body.brands.map((b: { code: string }) => b.code)).not.toContain('B-UNPRICED');
  });

  it('are empty for a store without a price list', async () => {
    const res = await app('nora', `/app/stores/${storeIds.nora}/catalog/filters`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ categories: [], brands: [] });
  });

  it("answer 404 for another person's store, as for one that does not exist, and 401 without a token", async () => {
    const theirs = await app('ana', `/app/stores/${storeIds.bob}/catalog/filters`);
    expect(theirs.statusCode).toBe(404);
    const missing = await app('ana', `/app/stores/999999/catalog/filters`);
    expect(missing.statusCode).toBe(404);
    expect(theirs.json().code).toBe(missing.json().code);
    // Bob sees his supplier's choices only.
    expect((await app('bob', `/app/stores/${storeIds.bob}/catalog/filters`)).json()).toEqual({
      categories: [{ code: 'C-OTHER', name: 'Otra', parentCode: null }],
      brands: [{ code: 'B-OTHER', name: 'Otra marca' }],
    });
    expect((await t.request({ method: 'GET', url: `/app/stores/${storeIds.ana}/catalog/filters` })).statusCode).toBe(401);
  });
});

describe("the store's promotions", () => {
  it('name each of their products, and a gift the store cannot buy', async () => {
    const res = await app('ana', `/app/stores/${storeIds.ana}/promotions`);
    expect(res.statusCode, res.body).toBe(200);
    const promo = res.json().data.find((p: { internalCode: string }) => p.internalCode === 'PROMO');
    expect(promo.products).toEqual([
      expect.objectContaining({ internalCode: 'COLA', name: 'Product COLA' }),
      expect.objectContaining({ internalCode: 'AGUA', name: 'Product AGUA' }),
    ]);
    // MANI has no price in the store's list: the catalog does not show it, the promotion names it.
    const gift = res.json().data.find((p: { internalCode: string }) => p.internalCode === 'GIFT');
    expect(gift.bonusTierDataCash).toEqual({ amountRequired: 5000, quantityGiven: 1, units: 1, productInternalCode: 'MANI', productName: 'Product MANI' });
    expect(gift.products).toEqual([expect.objectContaining({ internalCode: 'JABON', name: 'Product JABON' })]);
  });
});
