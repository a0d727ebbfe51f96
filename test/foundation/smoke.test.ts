import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { appWithSupplier } from '../helpers/fixtures.ts';

let t: TestApp;
let s: TestSupplier;
beforeAll(async () => {
  ({ t, s } = await appWithSupplier());
});
afterAll(() => t.close());

describe('smoke', () => {
  it('creates a price list and loads prices through a batch', async () => {
    expect((await as(t, s, 'PUT', '/category', { internalCode: 'C1', name: 'Drinks' })).statusCode).toBe(200);
    const brand = await as(t, s, 'POST', '/batch/brand', [{ internalCode: 'B1', name: 'Cola Co' }]);
    expect(brand.statusCode, brand.body).toBe(202);
    await t.waitForBatches(s, brand.json().batchId);
    const product = await as(t, s, 'POST', '/batch/product', { upsert: [{ internalCode: 'P1', name: 'Cola', brandInternalCode: 'B1', categoryInternalCode: 'C1' }] });
    expect(product.statusCode, product.body).toBe(202);
    const [ps] = await t.waitForBatches(s, product.json().batchId);
    expect(ps.completed).toBe(1);
    expect((await as(t, s, 'POST', '/pricelist', { internalCode: 'PL1', name: 'Main' })).statusCode).toBe(200);
    const batch = await as(t, s, 'POST', '/batch/pricelist', {
      upsert: { products: [{ priceListInternalCode: 'PL1', productInternalCode: 'P1', units: 12, price: 10.5 }, { priceListInternalCode: 'PL1', productInternalCode: 'NOPE', units: 1, price: 1 }], stores: [{ priceListInternalCode: 'PL1', storeInternalCode: 'S1' }] },
    });
    expect(batch.statusCode, batch.body).toBe(202);
    const [status] = await t.waitForBatches(s, batch.json().batchId);
    expect(status).toMatchObject({ status: 'processed', total: 3, processed: 3, completed: 2, failed: 1 });
    const list = await as(t, s, 'GET', '/pricelist/PL1');
    expect(list.json().products).toEqual([{ priceListInternalCode: 'PL1', productInternalCode: 'P1', units: 12, price: 10.5 }]);
    const detail = await as(t, s, 'GET', `/batch/${batch.json().batchId[0]}/detail`);
    expect(detail.json().detail[1]).toMatchObject({ code: 'PL1/NOPE/1', status: 'failed', errorCode: 'UNKNOWN_PRODUCT' });
  });
});
