// Price list tenancy (another supplier's lists, products and batches answer as missing;
// codes are per supplier) and scopes (pricelist.read, .write, .bulkwrite).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let a: TestSupplier;
let b: TestSupplier;
let batchOfA: string;

async function run(s: TestSupplier, url: string, body: unknown) {
  const { ids } = await t.runBatch(s, url, body);
  return ids[0]!;
}
const detail = async (s: TestSupplier, id: string) => (await as(t, s, 'GET', `/batch/${id}/detail`)).json().detail;

/** One supplier with category C, brand B and product P (each supplier has its own). */
async function catalog(s: TestSupplier, productName: string) {
  expect((await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'C' })).statusCode).toBe(200);
  await run(s, '/batch/brand', [{ internalCode: 'B', name: 'B' }]);
  await run(s, '/batch/product', { upsert: [{ internalCode: 'P', name: productName, brandInternalCode: 'B', categoryInternalCode: 'C' }] });
}

beforeAll(async () => {
  t = await createTestApp();
  a = await t.supplier();
  b = await t.supplier();
  await catalog(a, 'A product');
  await run(a, '/batch/product', { upsert: [{ internalCode: 'P-A-ONLY', name: 'only A has it', brandInternalCode: 'B', categoryInternalCode: 'C' }] });
  expect((await as(t, b, 'POST', '/pricelist', { internalCode: 'PL-B' })).statusCode).toBe(200);
  expect((await as(t, a, 'POST', '/pricelist', { internalCode: 'PL-A', name: 'A list' })).statusCode).toBe(200);
  batchOfA = await run(a, '/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'PL-A', productInternalCode: 'P', units: 1, price: 10 }] } });
});
afterAll(() => t.close());

describe('tenancy', () => {
  it("answers another supplier's price list and batches as missing", async () => {
    for (const [method, url, body] of [
      ['GET', '/pricelist/PL-A', undefined],
      ['PUT', '/pricelist/PL-A/status', { enabled: false }],
      ['GET', `/batch/${batchOfA}/status`, undefined],
      ['GET', `/batch/${batchOfA}/detail`, undefined],
    ] as const) {
      const res = await as(t, b, method, url, body);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    expect((await as(t, a, 'GET', '/pricelist/PL-A')).json()).toMatchObject({ enabled: true, products: [{ productInternalCode: 'P', price: 10 }] });
  });

  it("fails batch items that name another supplier's list or product", async () => {
    const id = await run(b, '/batch/pricelist', {
      upsert: {
        products: [
          { priceListInternalCode: 'PL-A', productInternalCode: 'P', units: 1, price: 1 },
          { priceListInternalCode: 'PL-B', productInternalCode: 'P-A-ONLY', units: 1, price: 1 },
        ],
        stores: [{ priceListInternalCode: 'PL-A', storeInternalCode: 'S' }],
      },
      remove: { products: [{ priceListInternalCode: 'PL-A', productInternalCode: 'P' }] },
    });
    expect((await detail(b, id)).map((d: any) => [d.code, d.action, d.status, d.errorCode])).toEqual([
      ['PL-A/P', 'remove.products', 'failed', 'UNKNOWN_PRICE_LIST'],
      ['PL-A/P/1', 'upsert.products', 'failed', 'UNKNOWN_PRICE_LIST'],
      ['PL-B/P-A-ONLY/1', 'upsert.products', 'failed', 'UNKNOWN_PRODUCT'],
      ['PL-A/S', 'upsert.stores', 'failed', 'UNKNOWN_PRICE_LIST'],
    ]);
    expect((await as(t, a, 'GET', '/pricelist/PL-A')).json()).toMatchObject({ products: [{ productInternalCode: 'P', units: 1, price: 10 }], stores: [] });
  });

  it('lets both suppliers use the same list, product and store codes independently', async () => {
    await catalog(b, 'B product');
    expect((await as(t, a, 'POST', '/pricelist', { internalCode: 'SAME', name: 'A same' })).statusCode).toBe(200);
    const second = await as(t, b, 'POST', '/pricelist', { internalCode: 'SAME', name: 'B same' });
    expect(second.statusCode, second.body).toBe(200);
    const body = (price: number) => ({
      upsert: { products: [{ priceListInternalCode: 'SAME', productInternalCode: 'P', units: 6, price }], stores: [{ priceListInternalCode: 'SAME', storeInternalCode: 'S-1' }] },
    });
    await run(a, '/batch/pricelist', body(1.5));
    await run(b, '/batch/pricelist', body(2.25));
    // Moving a store between lists stays within the supplier.
    await run(b, '/batch/pricelist', { upsert: { stores: [{ priceListInternalCode: 'PL-B', storeInternalCode: 'S-1' }] } });

    expect((await as(t, a, 'GET', '/pricelist/SAME')).json()).toMatchObject({
      name: 'A same',
      products: [{ priceListInternalCode: 'SAME', productInternalCode: 'P', units: 6, price: 1.5 }],
      stores: [{ priceListInternalCode: 'SAME', storeInternalCode: 'S-1' }],
    });
    expect((await as(t, b, 'GET', '/pricelist/SAME')).json()).toMatchObject({
      name: 'B same',
      products: [{ priceListInternalCode: 'SAME', productInternalCode: 'P', units: 6, price: 2.25 }],
      stores: [],
    });
    expect((await as(t, b, 'GET', '/pricelist/PL-B')).json().stores).toEqual([{ priceListInternalCode: 'PL-B', storeInternalCode: 'S-1' }]);
    const off = await as(t, b, 'PUT', '/pricelist/SAME/status', { enabled: false });
    expect(off.json()).toEqual({ internalCode: 'SAME', name: 'B same', enabled: false });
    expect((await as(t, a, 'GET', '/pricelist/SAME')).json().enabled).toBe(true);
  });
});

describe('scopes', () => {
  it('pricelist.read reads only; pricelist.write and pricelist.bulkwrite are needed to write', async () => {
    const reader = await t.supplier(undefined, ['supplier/pricelist.read']);
    const forbidden = async (method: 'POST' | 'PUT', url: string, body: unknown, scope: string) => {
      const res = await as(t, reader, method, url, body);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE', detail: expect.stringContaining(scope) });
    };
    await forbidden('POST', '/pricelist', { internalCode: 'PL-R' }, 'supplier/pricelist.write');
    await forbidden('PUT', '/pricelist/PL-R/status', { enabled: false }, 'supplier/pricelist.write');
    await forbidden('POST', '/batch/pricelist', { upsert: { stores: [{ priceListInternalCode: 'PL-R', storeInternalCode: 'S' }] } }, 'supplier/pricelist.bulkwrite');
    const missing = await as(t, reader, 'GET', '/pricelist/PL-R');
    expect(missing.statusCode).toBe(404);
  });

  it('a bulkwrite-only credential submits but cannot read the list', async () => {
    const bulk = await t.supplier(undefined, ['supplier/pricelist.bulkwrite', 'supplier/batch.read']);
    const res = await as(t, bulk, 'POST', '/batch/pricelist', { upsert: { stores: [{ priceListInternalCode: 'NONE', storeInternalCode: 'S' }] } });
    expect(res.statusCode).toBe(202);
    const [status] = await t.waitForBatches(bulk, res.json().batchId);
    expect(status).toMatchObject({ status: 'failed', total: 1, failed: 1 });
    expect((await as(t, bulk, 'GET', '/pricelist/NONE')).statusCode).toBe(403);
    expect((await as(t, bulk, 'POST', '/pricelist', { internalCode: 'NONE' })).statusCode).toBe(403);
  });
});
