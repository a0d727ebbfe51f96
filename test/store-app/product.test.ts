// GET /app/stores/{storeId}/products/{code}: one product of the store's catalogue, the shop's
// product page (issue 34). The same item as the catalogue answers (sizes, prices, images,
// the promotions taking part for the store), with the sizes priced in the store's list that
// its stock grouper marks out of stock; a product the catalogue does not list is a 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

const now = new Date('2026-03-10T15:00:00.000Z');
let t: TestApp;
let s: TestSupplier;
let token: string;
let storeId: number;
let otherStoreId: number;

async function batch(url: string, body: unknown) {
  const res = await as(t, s, 'POST', url, body);
  expect(res.statusCode, res.body).toBe(202);
  for (const st of await t.waitForBatches(s, res.json().batchId)) expect(st.failed, JSON.stringify(st)).toBe(0);
}
const app = (url: string, bearer = token) => t.request({ method: 'GET', url, headers: { authorization: `Bearer ${bearer}` } });

beforeAll(async () => {
  t = await createTestApp({ clock: { now: () => now } });
  s = await t.supplier();
  await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'Aseo' });
  await batch('/batch/brand', [{ internalCode: 'B', name: 'Brillo' }]);
  await batch('/batch/product', {
    upsert: [
      { internalCode: 'CLORO', name: 'Blanqueador 1 L', description: 'Para ropa blanca y pisos.', brandInternalCode: 'B', categoryInternalCode: 'C', displayProducts: [{ units: 1, name: 'Unidad' }, { units: 12, name: 'Caja x12' }] },
      { internalCode: 'JABON', name: 'Jabón', brandInternalCode: 'B', categoryInternalCode: 'C' },
      { internalCode: 'AGOTADO', name: 'Agotado', brandInternalCode: 'B', categoryInternalCode: 'C' },
      { internalCode: 'APAGADO', name: 'Apagado', brandInternalCode: 'B', categoryInternalCode: 'C', enabled: false },
    ],
  });
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  await as(t, s, 'POST', '/grouper/stock', { internalCode: 'BODEGA', name: 'Bodega' });
  await batch('/batch/store', {
    upsert: [
      { internalCode: 'S1', name: 'Tienda', priceListCode: 'PL', stockGrouperCode: 'BODEGA' },
      { internalCode: 'S2', name: 'Otra', priceListCode: 'PL' },
    ],
  });
  await batch('/batch/pricelist', {
    upsert: {
      products: [
        { priceListInternalCode: 'PL', productInternalCode: 'CLORO', units: 1, price: 3400 },
        { priceListInternalCode: 'PL', productInternalCode: 'CLORO', units: 12, price: 37500 },
        { priceListInternalCode: 'PL', productInternalCode: 'JABON', units: 1, price: 2200 },
        { priceListInternalCode: 'PL', productInternalCode: 'AGOTADO', units: 1, price: 1000 },
        { priceListInternalCode: 'PL', productInternalCode: 'APAGADO', units: 1, price: 1000 },
      ],
    },
  });
  await batch('/batch/stock/grouper', {
    upsert: [
      { grouperCode: 'BODEGA', productInternalCode: 'CLORO', units: 12, available: false },
      { grouperCode: 'BODEGA', productInternalCode: 'AGOTADO', available: false },
    ],
  });
  expect(
    (await as(t, s, 'PUT', '/promotion/discount/simple', { internalCode: 'DESC', name: 'Desde una', start: '2026-03-01', end: '2026-03-31', enabled: true, products: { internalCode: 'CLORO' }, discountTiersData: [{ min: 1, discountPercentage: 3 }] })).statusCode,
  ).toBe(200);
  await as(t, s, 'POST', '/store/S1/add/user', { users: [{ email: 'ana@example.com', name: 'Ana' }] });
  await as(t, s, 'POST', '/store/S2/add/user', { users: [{ email: 'bea@example.com', name: 'Bea' }] });
  token = (await t.admin('POST', '/admin/store-users/token', { email: 'ana@example.com' })).json().access_token;
  storeId = (await app('/app/me')).json().stores[0].id;
  const bea = (await t.admin('POST', '/admin/store-users/token', { email: 'bea@example.com' })).json().access_token;
  otherStoreId = (await app('/app/me', bea)).json().stores[0].id;
});
afterAll(() => t.close());

describe('one product of the store catalog', () => {
  it('is the catalog item, with its promotions and the sizes out of stock in the store warehouse', async () => {
    const res = await app(`/app/stores/${storeId}/products/CLORO`);
    expect(res.statusCode, res.body).toBe(200);
    const product = res.json();
    const listed = (await app(`/app/stores/${storeId}/catalog?search=CLORO`)).json().data[0];
    const { outOfStock, ...item } = product;
    expect(item).toEqual(listed);
    expect(product).toMatchObject({
      internalCode: 'CLORO',
      description: 'Para ropa blanca y pisos.',
      sizes: [{ units: 1, name: 'Unidad', price: 3400 }],
      promotions: [expect.objectContaining({ internalCode: 'DESC', discountTiersData: [expect.objectContaining({ min: 1, discountPercentage: 3 })] })],
    });
    expect(outOfStock).toEqual([{ units: 12 }]);
    // Every size in stock: none out.
    expect((await app(`/app/stores/${storeId}/products/JABON`)).json()).toMatchObject({ sizes: [{ units: 1, price: 2200 }], outOfStock: [], promotions: [] });
  });

  it('is a 404 naming /params/code for what the catalog does not list; another store is a 404 on /params/storeId', async () => {
    for (const code of ['NOPE', 'AGOTADO', 'APAGADO', 'cloro']) {
      const res = await app(`/app/stores/${storeId}/products/${code}`);
      expect(res.statusCode, `${code}: ${res.body}`).toBe(404);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().errors[0].pointer).toBe('/params/code');
    }
    // Out of stock for S1's warehouse only: S2 has no stock grouper, so it buys it.
    expect((await t.request({ method: 'GET', url: `/app/stores/${otherStoreId}/products/AGOTADO`, headers: { authorization: `Bearer ${(await t.admin('POST', '/admin/store-users/token', { email: 'bea@example.com' })).json().access_token}` } })).statusCode).toBe(200);
    const other = await app(`/app/stores/${otherStoreId}/products/CLORO`);
    expect(other.statusCode).toBe(404);
    expect(other.json().errors[0].pointer).toBe('/params/storeId');
    expect((await t.request({ method: 'GET', url: `/app/stores/${storeId}/products/CLORO` })).statusCode).toBe(401);
  });
});
