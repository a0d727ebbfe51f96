// Grouper tenancy (another supplier's groupers answer as missing, its batches cannot touch
// them, the same codes are independent per supplier) and scopes (grouper.read, .write,
// .bulkwrite).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let a: TestSupplier;
let b: TestSupplier;
const link = (g: string, st: string) => ({ groupInternalCode: g, storeInternalCode: st });

async function run(s: TestSupplier, url: string, body: unknown) {
  const { ids, statuses: [status] } = await t.runBatch(s, url, body);
  const detail = (await as(t, s, 'GET', `/batch/${ids[0]}/detail`)).json().detail;
  return { id: ids[0]!, status, detail };
}

/** Another credential of the same supplier, holding only `scopes`. */
async function credential(s: TestSupplier, scopes: string[]): Promise<TestSupplier> {
  const issued = await t.credential(s, scopes);
  expect(issued.scope).toBe(scopes.join(' '));
  return issued;
}
function forbidden(res: { statusCode: number; json(): any }, scope: string) {
  expect(res.statusCode).toBe(403);
  expect(res.json()).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE', detail: expect.stringContaining(scope) });
}

let linkBatch: string;
beforeAll(async () => {
  t = await createTestApp();
  a = await t.supplier();
  b = await t.supplier();
  expect((await as(t, a, 'POST', '/grouper/promotion', { internalCode: 'SEG-A', name: 'A segment' })).statusCode).toBe(200);
  expect((await as(t, a, 'POST', '/grouper/stock', { internalCode: 'W-A', name: 'A warehouse' })).statusCode).toBe(200);
  await run(a, '/batch/store', { upsert: [{ internalCode: 'S-1', name: 'A store' }] });
  linkBatch = (await run(a, '/batch/grouper/promotion', { add: { stores: [link('SEG-A', 'S-1')] } })).id;
  await run(a, '/batch/grouper/stock', { add: { stores: [link('W-A', 'S-1')] } });
});
afterAll(() => t.close());

describe('tenancy', () => {
  it("answers another supplier's groupers and batches as missing (404), changing nothing", async () => {
    for (const [method, url, body] of [
      ['GET', '/grouper/SEG-A/promotion', undefined],
      ['PUT', '/grouper/SEG-A/promotion', { name: 'hijacked' }],
      ['PUT', '/grouper/SEG-A/status/promotion', { enabled: false }],
      ['GET', '/grouper/W-A/stock', undefined],
      ['PUT', '/grouper/W-A/stock', { name: 'hijacked' }],
      ['PUT', '/grouper/W-A/status/stock', { enabled: false }],
      ['GET', `/batch/${linkBatch}/status`, undefined],
      ['GET', `/batch/${linkBatch}/detail`, undefined],
    ] as const) {
      const theirs = await as(t, b, method, url, body);
      expect(theirs.statusCode, url).toBe(404);
      expect(theirs.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
      expect(theirs.body).not.toContain('A segment');
      expect(theirs.body).not.toContain('A warehouse');
    }
    expect((await as(t, a, 'GET', '/grouper/SEG-A/promotion')).json()).toMatchObject({ name: 'A segment', enabled: true, stores: [link('SEG-A', 'S-1')] });
    expect((await as(t, a, 'GET', '/grouper/W-A/stock')).json()).toMatchObject({ name: 'A warehouse', enabled: true, stores: [link('W-A', 'S-1')] });
  });

  it("another supplier's batches cannot add to or remove from the groupers", async () => {
    const promo = await run(b, '/batch/grouper/promotion', { remove: { stores: [link('SEG-A', 'S-1')] }, add: { stores: [link('SEG-A', 'S-B')] } });
    expect(promo.detail.map((d: any) => [d.action, d.errorCode])).toEqual([
      ['remove.stores', 'UNKNOWN_GROUPER'],
      ['add.stores', 'UNKNOWN_GROUPER'],
    ]);
    const stock = await run(b, '/batch/grouper/stock', { remove: { stores: [link('W-A', 'S-1')] }, add: { stores: [link('W-A', 'S-B')] } });
    expect(stock.detail.map((d: any) => [d.action, d.errorCode])).toEqual([
      ['remove.stores', 'UNKNOWN_STOCK_GROUPER'],
      ['add.stores', 'UNKNOWN_STOCK_GROUPER'],
    ]);
    expect((await as(t, a, 'GET', '/grouper/SEG-A/promotion')).json().stores).toEqual([link('SEG-A', 'S-1')]);
    expect((await as(t, a, 'GET', '/grouper/W-A/stock')).json().stores).toEqual([link('W-A', 'S-1')]);
  });

  it('lets both suppliers use the same grouper and store codes independently', async () => {
    expect((await as(t, b, 'POST', '/grouper/promotion', { internalCode: 'SEG-A', name: 'B segment' })).statusCode).toBe(200);
    expect((await as(t, b, 'POST', '/grouper/stock', { internalCode: 'W-A', name: 'B warehouse' })).statusCode).toBe(200);
    // B's S-1 does not exist yet, although A's does.
    const promo = await run(b, '/batch/grouper/promotion', { add: { stores: [link('SEG-A', 'S-1'), link('SEG-A', 'S-2')] } });
    expect(promo.detail.map((d: any) => d.message)).toEqual([
      'store S-1 is not known yet; the link takes effect when it is created',
      'store S-2 is not known yet; the link takes effect when it is created',
    ]);
    await run(b, '/batch/grouper/stock', { add: { stores: [link('W-A', 'S-2')] } });
    // B removing its S-1 from its SEG-A leaves A's link alone.
    await run(b, '/batch/grouper/promotion', { remove: { stores: [link('SEG-A', 'S-1')] } });
    expect((await as(t, b, 'PUT', '/grouper/SEG-A/status/promotion', { enabled: false })).statusCode).toBe(200);

    expect((await as(t, a, 'GET', '/grouper/SEG-A/promotion')).json()).toMatchObject({ name: 'A segment', enabled: true, stores: [link('SEG-A', 'S-1')] });
    expect((await as(t, b, 'GET', '/grouper/SEG-A/promotion')).json()).toMatchObject({ name: 'B segment', enabled: false, stores: [link('SEG-A', 'S-2')] });
    expect((await as(t, a, 'GET', '/grouper/W-A/stock')).json()).toMatchObject({ name: 'A warehouse', stores: [link('W-A', 'S-1')] });
    expect((await as(t, b, 'GET', '/grouper/W-A/stock')).json()).toMatchObject({ name: 'B warehouse', stores: [link('W-A', 'S-2')] });
    // A's store S-1 is in A's groupers only; B's stock grouper took nothing from A.
    expect((await as(t, a, 'GET', '/store/S-1')).json()).toMatchObject({ stockGrouperCode: 'W-A', promotionGrouperCodes: ['SEG-A'] });
    // A taken code is per supplier: B may not create its SEG-A twice, A still answers its own.
    expect((await as(t, b, 'POST', '/grouper/promotion', { internalCode: 'SEG-A', name: 'again' })).statusCode).toBe(409);
  });
});

describe('scopes', () => {
  it('grouper.read reads only', async () => {
    const reader = await credential(a, ['supplier/grouper.read']);
    expect((await as(t, reader, 'GET', '/grouper/SEG-A/promotion')).statusCode).toBe(200);
    expect((await as(t, reader, 'GET', '/grouper/W-A/stock')).statusCode).toBe(200);
    for (const kind of ['promotion', 'stock']) {
      forbidden(await as(t, reader, 'POST', `/grouper/${kind}`, { internalCode: 'G-R', name: 'x' }), 'supplier/grouper.write');
      forbidden(await as(t, reader, 'PUT', `/grouper/SEG-A/${kind}`, { name: 'x' }), 'supplier/grouper.write');
      forbidden(await as(t, reader, 'PUT', `/grouper/SEG-A/status/${kind}`, { enabled: false }), 'supplier/grouper.write');
      forbidden(await as(t, reader, 'POST', `/batch/grouper/${kind}`, { add: { stores: [link('SEG-A', 'S-9')] } }), 'supplier/grouper.bulkwrite');
    }
    expect((await as(t, a, 'GET', '/grouper/G-R/promotion')).statusCode).toBe(404);
    expect((await as(t, a, 'GET', '/grouper/SEG-A/promotion')).json()).toMatchObject({ name: 'A segment', enabled: true, stores: [link('SEG-A', 'S-1')] });
  });

  it('grouper.write creates, renames and changes status, but neither reads nor submits batches', async () => {
    const writer = await credential(a, ['supplier/grouper.write']);
    for (const kind of ['promotion', 'stock']) {
      expect((await as(t, writer, 'POST', `/grouper/${kind}`, { internalCode: 'G-W', name: 'w' })).statusCode).toBe(200);
      expect((await as(t, writer, 'PUT', `/grouper/G-W/${kind}`, { name: 'w2' })).statusCode).toBe(200);
      expect((await as(t, writer, 'PUT', `/grouper/G-W/status/${kind}`, { enabled: false })).statusCode).toBe(200);
      forbidden(await as(t, writer, 'GET', `/grouper/G-W/${kind}`), 'supplier/grouper.read');
      forbidden(await as(t, writer, 'POST', `/batch/grouper/${kind}`, { add: { stores: [link('G-W', 'S-9')] } }), 'supplier/grouper.bulkwrite');
      expect((await as(t, a, 'GET', `/grouper/G-W/${kind}`)).json()).toMatchObject({ name: 'w2', enabled: false, stores: [] });
    }
  });

  it('grouper.bulkwrite submits batches only; stock.bulkwrite does not cover the stock grouper batch', async () => {
    const bulk = await credential(a, ['supplier/grouper.bulkwrite']);
    const ids: string[] = [];
    for (const kind of ['promotion', 'stock']) {
      const res = await as(t, bulk, 'POST', `/batch/grouper/${kind}`, { add: { stores: [link(kind === 'stock' ? 'W-A' : 'SEG-A', 'S-BULK')] } });
      expect(res.statusCode).toBe(202);
      ids.push(...res.json().batchId);
      forbidden(await as(t, bulk, 'GET', `/grouper/SEG-A/${kind}`), 'supplier/grouper.read');
      forbidden(await as(t, bulk, 'POST', `/grouper/${kind}`, { internalCode: 'G-B', name: 'x' }), 'supplier/grouper.write');
    }
    forbidden(await as(t, bulk, 'GET', `/batch/${ids[0]}/status`), 'supplier/batch.read');
    forbidden(await as(t, bulk, 'POST', '/batch/stock/grouper', { upsert: [{ grouperCode: 'W-A', productInternalCode: 'P', available: false }] }), 'supplier/stock.bulkwrite');
    const stockOnly = await credential(a, ['supplier/stock.bulkwrite']);
    forbidden(await as(t, stockOnly, 'POST', '/batch/grouper/stock', { add: { stores: [link('W-A', 'S-9')] } }), 'supplier/grouper.bulkwrite');
    await t.waitForBatches(a, ids);
    expect((await as(t, a, 'GET', '/grouper/SEG-A/promotion')).json().stores.map((x: any) => x.storeInternalCode)).toEqual(['S-1', 'S-BULK']);
    expect((await as(t, a, 'GET', '/grouper/W-A/stock')).json().stores.map((x: any) => x.storeInternalCode)).toEqual(['S-1', 'S-BULK']);
  });
});
