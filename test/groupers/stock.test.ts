// Stock groupers (warehouses): create, rename, status, GET with stores, and
// POST /batch/grouper/stock. A store is in at most one stock grouper: adding it moves it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { appWithSupplier, ISO } from '../helpers/fixtures.ts';
import { grouperHelpers, link, notYet } from './helpers.ts';

let t: TestApp;
let s: TestSupplier;
beforeAll(async () => {
  ({ t, s } = await appWithSupplier());
});
afterAll(() => t.close());

const { newGrouper, run, links, storesOf, createStores } = grouperHelpers({ kind: 'stock', prefix: 'W', name: 'Warehouse', oneBatch: false }, () => ({ t, s }));
const stockGrouperOf = async (store: string) => (await as(t, s, 'GET', `/store/${store}`)).json().stockGrouperCode;

describe('stock groupers', () => {
  it('creates, answers 409 ALREADY_EXISTS for a taken code, renames and changes status', async () => {
    const res = await as(t, s, 'POST', '/grouper/stock', { internalCode: 'BOG-01', name: 'Bogotá norte' });
    expect(res.statusCode).toBe(200);
    const created = res.json();
    expect(created).toEqual({ internalCode: 'BOG-01', name: 'Bogotá norte', enabled: true, stores: [], createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) });
    expect((await as(t, s, 'GET', '/grouper/BOG-01/stock')).json()).toEqual(created);

    const dup = await as(t, s, 'POST', '/grouper/stock', { internalCode: 'BOG-01', name: 'Other' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ status: 409, code: 'ALREADY_EXISTS', errors: [{ pointer: '/internalCode' }] });

    await links({ add: { stores: [link('BOG-01', 'S-BOG')] } });
    const renamed = await as(t, s, 'PUT', '/grouper/BOG-01/stock', { name: 'Bogotá norte (CEDI)' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ internalCode: 'BOG-01', name: 'Bogotá norte (CEDI)', enabled: true, stores: [link('BOG-01', 'S-BOG')], createdAt: created.createdAt });
    const off = await as(t, s, 'PUT', '/grouper/BOG-01/status/stock', { enabled: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ name: 'Bogotá norte (CEDI)', enabled: false, stores: [link('BOG-01', 'S-BOG')] });
    expect((await as(t, s, 'GET', '/grouper/BOG-01/stock')).json()).toEqual(off.json());
    expect((await as(t, s, 'PUT', '/grouper/BOG-01/status/stock', { enabled: true })).json().enabled).toBe(true);
  });

  it('answers 404 for an unknown stock grouper (and for a promotion grouper code)', async () => {
    expect((await as(t, s, 'POST', '/grouper/promotion', { internalCode: 'SEG-ONLY', name: 'Segment' })).statusCode).toBe(200);
    for (const code of ['NOPE', 'SEG-ONLY']) {
      for (const [method, url, body] of [
        ['GET', `/grouper/${code}/stock`, undefined],
        ['PUT', `/grouper/${code}/stock`, { name: 'x' }],
        ['PUT', `/grouper/${code}/status/stock`, { enabled: false }],
      ] as const) {
        const res = await as(t, s, method, url, body);
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      }
    }
    expect((await as(t, s, 'GET', '/grouper/SEG-ONLY/promotion')).json()).toMatchObject({ name: 'Segment', enabled: true });
  });

  it('validates bodies (400)', async () => {
    const res = await as(t, s, 'POST', '/grouper/stock', { internalCode: 'W-BAD\n', name: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errors: [{ pointer: '/internalCode', code: 'INVALID_FORMAT' }] });
    const status = await as(t, s, 'PUT', '/grouper/BOG-01/status/stock', {});
    expect(status.statusCode).toBe(400);
    expect(status.json()).toMatchObject({ errors: [{ pointer: '/enabled', code: 'REQUIRED' }] });
  });
});

describe('POST /batch/grouper/stock', () => {
  it('adds stores, keeping links to stores not known yet', async () => {
    const w = await newGrouper();
    await createStores('S-ST-1');
    const { status, detail } = await links({ add: { stores: [link(w, 'S-ST-1'), link(w, 'S-ST-2')] } });
    expect(status).toMatchObject({ endpoint: '/batch/grouper/stock', status: 'processed', total: 2, completed: 2, failed: 0 });
    expect(detail.map((d: any) => [d.code, d.action, d.status, d.message])).toEqual([
      [`${w}/S-ST-1`, 'add.stores', 'completed', null],
      [`${w}/S-ST-2`, 'add.stores', 'completed', notYet('S-ST-2')],
    ]);
    expect((await as(t, s, 'GET', `/grouper/${w}/stock`)).json().stores).toEqual([link(w, 'S-ST-1'), link(w, 'S-ST-2')]);
    expect(await stockGrouperOf('S-ST-1')).toBe(w);
    // The waiting link takes effect when the store is created.
    await createStores('S-ST-2');
    expect(await stockGrouperOf('S-ST-2')).toBe(w);
  });

  it('adding a store to another stock grouper moves it there', async () => {
    const a = await newGrouper();
    const b = await newGrouper();
    await createStores('S-MOVE');
    await links({ add: { stores: [link(a, 'S-MOVE'), link(a, 'S-STAY')] } });
    const moved = await links({ add: { stores: [link(b, 'S-MOVE')] } });
    expect(moved.status).toMatchObject({ completed: 1, failed: 0 });
    expect(await storesOf(a)).toEqual(['S-STAY']);
    expect(await storesOf(b)).toEqual(['S-MOVE']);
    expect(await stockGrouperOf('S-MOVE')).toBe(b);
    // Adding it to the grouper it is in already changes nothing.
    await links({ add: { stores: [link(b, 'S-MOVE')] } });
    expect(await storesOf(b)).toEqual(['S-MOVE']);
  });

  it('within one request the last grouper named for a store wins', async () => {
    const a = await newGrouper();
    const b = await newGrouper();
    const c = await newGrouper();
    const { status } = await links({ add: { stores: [link(a, 'S-LAST'), link(b, 'S-LAST'), link(c, 'S-OTHER'), link(a, 'S-OTHER'), link('W-NOPE', 'S-OTHER')] } });
    expect(status).toMatchObject({ total: 5, completed: 4, failed: 1 });
    expect(await storesOf(a)).toEqual(['S-OTHER']);
    expect(await storesOf(b)).toEqual(['S-LAST']);
    expect(await storesOf(c)).toEqual([]);
  });

  it('the last grouper wins across chunks and batches of one request too', async () => {
    const a = await newGrouper();
    const b = await newGrouper();
    // 5,001 items: two batches; the store is named first in the first and last in the second.
    const filler = Array.from({ length: 4_999 }, (_, i) => link(a, `S-FILL-${i}`));
    const { statuses } = await links({ add: { stores: [link(b, 'S-FAR'), ...filler, link(a, 'S-FAR')] } });
    expect(statuses.map((x: any) => [x.status, x.total, x.failed])).toEqual([
      ['processed', 5000, 0],
      ['processed', 1, 0],
    ]);
    expect(await storesOf(b)).toEqual([]);
    expect(await storesOf(a)).toHaveLength(5_000);
    expect((await as(t, s, 'GET', '/store/S-FAR')).statusCode).toBe(404); // the store itself does not exist yet
    await createStores('S-FAR');
    expect(await stockGrouperOf('S-FAR')).toBe(a);
  });

  it('removes stores: only from the grouper named; absent links are harmless', async () => {
    const a = await newGrouper();
    const b = await newGrouper();
    await createStores('S-RM');
    await links({ add: { stores: [link(a, 'S-RM')] } });
    // Removing it from a grouper it is not in leaves it where it is.
    const wrong = await links({ remove: { stores: [link(b, 'S-RM')] } });
    expect(wrong.status).toMatchObject({ completed: 1, failed: 0 });
    expect(await stockGrouperOf('S-RM')).toBe(a);
    const { detail } = await links({ remove: { stores: [link(a, 'S-RM'), link(a, 'S-RM')] } });
    expect(detail.map((d: any) => [d.action, d.status])).toEqual([
      ['remove.stores', 'completed'],
      ['remove.stores', 'completed'],
    ]);
    expect(await storesOf(a)).toEqual([]);
    expect(await stockGrouperOf('S-RM')).toBe(null);
  });

  it('applies removes before adds: remove from one and add to another in one request', async () => {
    const a = await newGrouper();
    const b = await newGrouper();
    await createStores('S-SWAP');
    await links({ add: { stores: [link(a, 'S-SWAP')] } });
    await links({ add: { stores: [link(b, 'S-SWAP')] }, remove: { stores: [link(a, 'S-SWAP'), link(b, 'S-SWAP')] } });
    expect(await stockGrouperOf('S-SWAP')).toBe(b);
    expect(await storesOf(a)).toEqual([]);
  });

  it('fails an unknown stock grouper per item with UNKNOWN_STOCK_GROUPER (a promotion grouper code too)', async () => {
    const w = await newGrouper();
    expect((await as(t, s, 'POST', '/grouper/promotion', { internalCode: `SEG-${w}`, name: 'Segment' })).statusCode).toBe(200);
    const { status, detail } = await links({
      add: { stores: [link('W-NOPE', 'S-X'), link(`SEG-${w}`, 'S-X'), link(w, 'S-X')] },
      remove: { stores: [link('W-NOPE', 'S-X')] },
    });
    expect(status).toMatchObject({ status: 'processed', total: 4, completed: 1, failed: 3 });
    expect(detail.map((d: any) => [d.code, d.action, d.status, d.errorCode])).toEqual([
      ['W-NOPE/S-X', 'remove.stores', 'failed', 'UNKNOWN_STOCK_GROUPER'],
      ['W-NOPE/S-X', 'add.stores', 'failed', 'UNKNOWN_STOCK_GROUPER'],
      [`SEG-${w}/S-X`, 'add.stores', 'failed', 'UNKNOWN_STOCK_GROUPER'],
      [`${w}/S-X`, 'add.stores', 'completed', null],
    ]);
    expect(await storesOf(w)).toEqual(['S-X']);
    expect((await as(t, s, 'GET', `/grouper/SEG-${w}/promotion`)).json().stores).toEqual([]);
  });

  it('stock and promotion memberships of a store are independent', async () => {
    const w = await newGrouper();
    const seg = `SEG-IND-${w}`;
    expect((await as(t, s, 'POST', '/grouper/promotion', { internalCode: seg, name: 'Segment' })).statusCode).toBe(200);
    await createStores('S-IND');
    await run('/batch/grouper/promotion', { add: { stores: [link(seg, 'S-IND')] } });
    await links({ add: { stores: [link(w, 'S-IND')] } });
    expect((await as(t, s, 'GET', '/store/S-IND')).json()).toMatchObject({ stockGrouperCode: w, promotionGrouperCodes: [seg] });
    await links({ remove: { stores: [link(w, 'S-IND')] } });
    expect((await as(t, s, 'GET', '/store/S-IND')).json()).toMatchObject({ stockGrouperCode: null, promotionGrouperCodes: [seg] });
  });

  it('refuses a bad structure with 402 and pointers', async () => {
    const w = await newGrouper();
    const res = await as(t, s, 'POST', '/batch/grouper/stock', { add: { stores: [link(w, 'S-1'), { storeInternalCode: 'S-2' }] }, remove: { stores: [link(w, ' S ')] } });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ status: 402, code: 'BATCH_VALIDATION_FAILED' });
    expect(res.json().errors.map((e: any) => [e.pointer, e.code]).sort()).toEqual([
      ['/add/stores/1/groupInternalCode', 'REQUIRED'],
      ['/remove/stores/0/storeInternalCode', 'INVALID_FORMAT'],
    ]);
    expect(await storesOf(w)).toEqual([]);
    const empty = await as(t, s, 'POST', '/batch/grouper/stock', {});
    expect(empty.statusCode).toBe(402);
    expect(empty.json().errors).toMatchObject([{ code: 'EMPTY_BATCH' }]);
  });
});
