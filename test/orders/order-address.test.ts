// The delivery address of a store's order: the one the store sends (validated as a store
// address), or the store's default address when none is sent. Before, the address sent
// was stored as {} (the schema let no field through) and the default was not used then.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;
let token: string;
let storeId: number;
let noAddressStoreId: number;
const phone = '+573009998877';
const cart = [{ productInternalCode: 'P1', units: 1, quantity: 2 }];
const home = { street: 'Calle 1 # 2-3', city: 'Bogotá', default: false };
const warehouse = { street: 'Carrera 50 # 10-20', city: 'Medellín', state: 'Antioquia', country: 'CO', postalCode: '050021', latitude: 6.2, longitude: -75.5, default: true };

async function batch(url: string, body: unknown) {
  for (const st of (await t.runBatch(s, url, body)).statuses) expect(st.failed, JSON.stringify(st)).toBe(0);
}

const app = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.request({ method, url, payload: payload as never, headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'Drinks' });
  await batch('/batch/brand', [{ internalCode: 'B', name: 'Brand' }]);
  await batch('/batch/product', { upsert: [{ internalCode: 'P1', name: 'Product 1', brandInternalCode: 'B', categoryInternalCode: 'C', displayProducts: [{ units: 1, name: 'Unit' }] }] });
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  // The default address is the second one: "the first address" is not what is meant.
  await batch('/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda', priceListCode: 'PL', addresses: [home, warehouse] }, { internalCode: 'S2', name: 'Sin dirección', priceListCode: 'PL' }] });
  await batch('/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'PL', productInternalCode: 'P1', units: 1, price: 1000 }] } });
  expect((await as(t, s, 'POST', '/store/S1/add/user', { users: [{ phone, name: 'Ana' }] })).statusCode).toBe(200);
  expect((await as(t, s, 'POST', '/store/S2/add/user', { users: [{ phone, name: 'Ana' }] })).statusCode).toBe(200);
  const minted = await t.admin('POST', '/admin/store-users/token', { phone });
  expect(minted.statusCode, minted.body).toBe(200);
  token = minted.json().access_token;
  const stores: { id: number; internalCode: string }[] = (await app('GET', '/app/me')).json().stores;
  storeId = stores.find((st) => st.internalCode === 'S1')!.id;
  noAddressStoreId = stores.find((st) => st.internalCode === 'S2')!.id;
});
afterAll(() => t.close());

async function seenBothWays(orderId: number) {
  const supplierSide = await as(t, s, 'GET', `/order/${orderId}`);
  const storeSide = await app('GET', `/app/orders/${orderId}`);
  expect(supplierSide.statusCode, supplierSide.body).toBe(200);
  expect(storeSide.statusCode, storeSide.body).toBe(200);
  return [supplierSide.json().address, storeSide.json().address];
}

describe("an order's delivery address", () => {
  it('is the address the store sent, every field of it', async () => {
    const sent = { street: 'Avenida 68 # 1-1', city: 'Cali', state: 'Valle', country: 'CO', postalCode: '760001', latitude: 3.45, longitude: -76.53 };
    const placed = await app('POST', `/app/stores/${storeId}/orders`, { lines: cart, address: sent });
    expect(placed.statusCode, placed.body).toBe(200);
    expect(placed.json().address).toEqual(sent);
    expect(await seenBothWays(placed.json().id)).toEqual([sent, sent]);
  });

  it("is the store's default address when none is sent", async () => {
    const placed = await app('POST', `/app/stores/${storeId}/orders`, { lines: cart });
    expect(placed.statusCode, placed.body).toBe(200);
    expect(await seenBothWays(placed.json().id)).toEqual([warehouse, warehouse]);
  });

  it('is none for a store without addresses: null in every answer, and no address stored', async () => {
    const placed = await app('POST', `/app/stores/${noAddressStoreId}/orders`, { lines: cart });
    expect(placed.statusCode, placed.body).toBe(200);
    expect(placed.json().address).toBeNull();
    expect(await seenBothWays(placed.json().id)).toEqual([null, null]);
    // The row's JSON columns are read from the answer: its null address is SQL null, not JSON null.
    const stored = await sql<{ none: boolean }>`select address is null as none from orders where id = ${placed.json().id}`.execute(t.deps.db);
    expect(stored.rows).toEqual([{ none: true }]);
  });

  it('is validated as a store address: a 400 naming the field, no order placed', async () => {
    const before = (await as(t, s, 'GET', '/order')).json().total;
    const missing = await app('POST', `/app/stores/${storeId}/orders`, { lines: cart, address: { city: 'Cali' } });
    expect(missing.statusCode, missing.body).toBe(400);
    expect(missing.json().errors).toEqual([expect.objectContaining({ pointer: '/address/street', code: 'REQUIRED' })]);
    const wrong = await app('POST', `/app/stores/${storeId}/orders`, { lines: cart, address: { street: 'x', city: 'y', latitude: 91 } });
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json().errors).toEqual([expect.objectContaining({ pointer: '/address/latitude', code: 'OUT_OF_RANGE' })]);
    expect((await as(t, s, 'GET', '/order')).json().total).toBe(before);
  });
});
