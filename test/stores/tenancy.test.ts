// Store and stock tenancy (another supplier's stores answer as missing, its batches cannot
// touch them or use this supplier's price lists, groupers and products; the same codes are
// independent per supplier) and scopes (store.read, .write, .bulkwrite; stock.bulkwrite).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let a: TestSupplier;
let b: TestSupplier;

async function run(s: TestSupplier, url: string, body: unknown) {
  const { ids, statuses: [status] } = await t.runBatch(s, url, body);
  const detail = (await as(t, s, 'GET', `/batch/${ids[0]}/detail`)).json().detail;
  return { id: ids[0]!, status, detail };
}

/** Another credential of the same supplier, holding only `scopes`. */
const credential = (s: TestSupplier, scopes: string[]): Promise<TestSupplier> => t.credential(s, scopes);
function forbidden(res: { statusCode: number; json(): any }, scope: string) {
  expect(res.statusCode).toBe(403);
  expect(res.json()).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE', detail: expect.stringContaining(scope) });
}

const ana = { phone: '+573001112233', email: 'ana.tenancy@example.com', name: 'Ana' };
let storeBatch: string;
let aStore: any;

beforeAll(async () => {
  t = await createTestApp();
  a = await t.supplier();
  b = await t.supplier();
  expect((await as(t, a, 'PUT', '/category', { internalCode: 'C', name: 'All' })).statusCode).toBe(200);
  await run(a, '/batch/brand', { upsert: [{ internalCode: 'B', name: 'Brand' }] });
  await run(a, '/batch/product', { upsert: [{ internalCode: 'P-A', name: 'A product', brandInternalCode: 'B', categoryInternalCode: 'C' }] });
  expect((await as(t, a, 'POST', '/pricelist', { internalCode: 'PL-A' })).statusCode).toBe(200);
  expect((await as(t, a, 'POST', '/grouper/stock', { internalCode: 'W-A', name: 'A warehouse' })).statusCode).toBe(200);
  expect((await as(t, a, 'POST', '/grouper/promotion', { internalCode: 'SEG-A', name: 'A segment' })).statusCode).toBe(200);
  storeBatch = (
    await run(a, '/batch/store', {
      upsert: [{ internalCode: 'S-1', name: 'A store', phone: '+573009990000', priceListCode: 'PL-A', stockGrouperCode: 'W-A', promotionGrouperCodes: ['SEG-A'], settings: { dropSize: 1000 } }],
    })
  ).id;
  expect((await as(t, a, 'POST', '/store/S-1/add/user', { users: [ana] })).statusCode).toBe(200);
  aStore = (await as(t, a, 'GET', '/store/S-1')).json();
});
afterAll(() => t.close());

describe('tenancy', () => {
  it("answers another supplier's store, its users and its batches as missing (404)", async () => {
    for (const [method, url, body] of [
      ['GET', '/store/S-1', undefined],
      ['POST', '/store/S-1/add/user', { users: [{ phone: '+573004445566' }] }],
      ['POST', '/store/S-1/remove/user', { users: [ana] }],
      ['GET', `/batch/${storeBatch}/status`, undefined],
      ['GET', `/batch/${storeBatch}/detail`, undefined],
    ] as const) {
      const theirs = await as(t, b, method, url, body);
      expect(theirs.statusCode, url).toBe(404);
      expect(theirs.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
      expect(theirs.body).not.toContain('A store');
    }
    expect((await as(t, a, 'GET', '/store/S-1')).json()).toEqual(aStore);
  });

  it("another supplier cannot use this supplier's price lists, groupers or products", async () => {
    const stores = await run(b, '/batch/store', {
      upsert: [
        { internalCode: 'S-B1', name: 'x', priceListCode: 'PL-A' },
        { internalCode: 'S-B2', name: 'x', stockGrouperCode: 'W-A' },
        { internalCode: 'S-B3', name: 'x', promotionGrouperCodes: ['SEG-A'] },
      ],
    });
    expect(stores.detail.map((d: any) => d.errorCode)).toEqual(['UNKNOWN_PRICE_LIST', 'UNKNOWN_STOCK_GROUPER', 'UNKNOWN_GROUPER']);
    const stock = await run(b, '/batch/stock/grouper', { upsert: [{ grouperCode: 'W-A', productInternalCode: 'P-A', available: false }] });
    expect(stock.detail.map((d: any) => d.errorCode)).toEqual(['UNKNOWN_STOCK_GROUPER']);
    expect((await as(t, b, 'POST', '/grouper/stock', { internalCode: 'W-B', name: 'B warehouse' })).statusCode).toBe(200);
    const product = await run(b, '/batch/stock/grouper', { upsert: [{ grouperCode: 'W-B', productInternalCode: 'P-A', available: false }] });
    expect(product.detail.map((d: any) => d.errorCode)).toEqual(['UNKNOWN_PRODUCT']);
    const rules = await t.deps.db.selectFrom('stock_rules').select('supplier_id').execute();
    expect(rules).toEqual([]);
    expect((await as(t, a, 'GET', '/pricelist/PL-A')).json().stores).toEqual([{ priceListInternalCode: 'PL-A', storeInternalCode: 'S-1' }]);
  });

  it("the same store code is another store for each supplier; B's upsert leaves A's store as it was", async () => {
    expect((await as(t, b, 'POST', '/pricelist', { internalCode: 'PL-A' })).statusCode).toBe(200);
    expect((await as(t, b, 'POST', '/grouper/promotion', { internalCode: 'SEG-A', name: 'B segment' })).statusCode).toBe(200);
    const { status } = await run(b, '/batch/store', {
      upsert: [{ internalCode: 'S-1', name: 'B store', phone: null, priceListCode: 'PL-A', stockGrouperCode: 'W-B', promotionGrouperCodes: ['SEG-A'], settings: { dropSize: null } }],
    });
    expect(status).toMatchObject({ completed: 1, failed: 0 });
    expect((await as(t, b, 'POST', '/store/S-1/add/user', { users: [{ phone: '+573004445566' }] })).statusCode).toBe(200);
    const bStore = (await as(t, b, 'GET', '/store/S-1')).json();
    expect(bStore).toMatchObject({
      name: 'B store',
      phone: null,
      priceListCode: 'PL-A',
      stockGrouperCode: 'W-B',
      promotionGrouperCodes: ['SEG-A'],
      settings: { dropSize: null },
      users: [{ phone: '+573004445566', email: null, name: null }],
    });
    expect((await as(t, a, 'GET', '/store/S-1')).json()).toEqual(aStore);
    // Removing a person from B's S-1 leaves them in A's S-1.
    expect((await as(t, b, 'POST', '/store/S-1/add/user', { users: [{ email: ana.email }] })).statusCode).toBe(200);
    expect((await as(t, b, 'POST', '/store/S-1/remove/user', { users: [{ email: ana.email }] })).json().users).toHaveLength(1);
    expect((await as(t, a, 'GET', '/store/S-1')).json().users).toEqual([ana]);
    expect((await as(t, a, 'GET', '/pricelist/PL-A')).json().stores).toEqual([{ priceListInternalCode: 'PL-A', storeInternalCode: 'S-1' }]);
    expect((await as(t, b, 'GET', '/pricelist/PL-A')).json().stores).toEqual([{ priceListInternalCode: 'PL-A', storeInternalCode: 'S-1' }]);
    expect((await as(t, a, 'GET', '/grouper/SEG-A/promotion')).json().stores).toEqual([{ groupInternalCode: 'SEG-A', storeInternalCode: 'S-1' }]);
  });
});

describe('scopes', () => {
  it('store.read reads only', async () => {
    const reader = await credential(a, ['supplier/store.read']);
    expect((await as(t, reader, 'GET', '/store/S-1')).json()).toEqual(aStore);
    forbidden(await as(t, reader, 'POST', '/batch/store', { upsert: [{ internalCode: 'S-R', name: 'x' }] }), 'supplier/store.bulkwrite');
    forbidden(await as(t, reader, 'POST', '/store/S-1/add/user', { users: [{ phone: '+573007778899' }] }), 'supplier/store.write');
    forbidden(await as(t, reader, 'POST', '/store/S-1/remove/user', { users: [ana] }), 'supplier/store.write');
    expect((await as(t, a, 'GET', '/store/S-1')).json()).toEqual(aStore);
  });

  it('store.write manages users only; store.bulkwrite submits store batches only', async () => {
    const writer = await credential(a, ['supplier/store.write']);
    const added = await as(t, writer, 'POST', '/store/S-1/add/user', { users: [{ phone: '+573007778899' }] });
    expect(added.statusCode).toBe(200);
    expect(added.json().users).toHaveLength(2);
    expect((await as(t, writer, 'POST', '/store/S-1/remove/user', { users: [{ phone: '+573007778899' }] })).json().users).toEqual([ana]);
    forbidden(await as(t, writer, 'GET', '/store/S-1'), 'supplier/store.read');
    forbidden(await as(t, writer, 'POST', '/batch/store', { upsert: [{ internalCode: 'S-W', name: 'x' }] }), 'supplier/store.bulkwrite');

    const bulk = await credential(a, ['supplier/store.bulkwrite']);
    const res = await as(t, bulk, 'POST', '/batch/store', { upsert: [{ internalCode: 'S-BULK', name: 'bulk' }] });
    expect(res.statusCode).toBe(202);
    forbidden(await as(t, bulk, 'GET', '/store/S-BULK'), 'supplier/store.read');
    forbidden(await as(t, bulk, 'GET', `/batch/${res.json().batchId[0]}/status`), 'supplier/batch.read');
    forbidden(await as(t, bulk, 'POST', '/store/S-1/add/user', { users: [{ phone: '+573007778899' }] }), 'supplier/store.write');
    forbidden(await as(t, bulk, 'POST', '/batch/stock/grouper', { upsert: [{ grouperCode: 'W-A', productInternalCode: 'P-A', available: false }] }), 'supplier/stock.bulkwrite');
    await t.waitForBatches(a, res.json().batchId);
    expect((await as(t, a, 'GET', '/store/S-BULK')).json().name).toBe('bulk');
  });

  it('stock.bulkwrite submits availability only', async () => {
    const stock = await credential(a, ['supplier/stock.bulkwrite']);
    const res = await as(t, stock, 'POST', '/batch/stock/grouper', { upsert: [{ grouperCode: 'W-A', productInternalCode: 'P-A', available: false }] });
    expect(res.statusCode).toBe(202);
    forbidden(await as(t, stock, 'POST', '/batch/store', { upsert: [{ internalCode: 'S-X', name: 'x' }] }), 'supplier/store.bulkwrite');
    forbidden(await as(t, stock, 'GET', '/grouper/W-A/stock'), 'supplier/grouper.read');
    forbidden(await as(t, stock, 'GET', '/store/S-1'), 'supplier/store.read');
    const [status] = await t.waitForBatches(a, res.json().batchId);
    expect(status).toMatchObject({ status: 'processed', completed: 1, failed: 0 });
  });

  it('every endpoint here needs credentials (401)', async () => {
    for (const [method, url] of [
      ['GET', '/store/S-1'],
      ['POST', '/batch/store'],
      ['POST', '/store/S-1/add/user'],
      ['POST', '/store/S-1/remove/user'],
      ['POST', '/batch/stock/grouper'],
      ['GET', '/grouper/W-A/stock'],
      ['POST', '/grouper/promotion'],
      ['POST', '/batch/grouper/promotion'],
    ] as const) {
      const res = await t.request({ method, url, payload: method === 'POST' ? {} : undefined, headers: { 'x-api-key': a.apiKey } });
      expect(res.statusCode, url).toBe(401);
    }
  });
});
