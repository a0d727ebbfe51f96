// Promotion groupers (commercial segments): create, rename, status, GET with stores, and
// POST /batch/grouper/promotion. A store may be in any number of promotion groupers.
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

const { newGrouper, links, storesOf, createStores } = grouperHelpers({ kind: 'promotion', prefix: 'SEG', name: 'Segment', oneBatch: true }, () => ({ t, s }));
const storeGroupers = async (code: string) => (await as(t, s, 'GET', `/store/${code}`)).json().promotionGrouperCodes;

describe('POST /grouper/promotion', () => {
  it('creates a grouper and answers it as GET does', async () => {
    const res = await as(t, s, 'POST', '/grouper/promotion', { internalCode: 'SEG-CREATE', name: 'Tiendas de barrio', extra: 'ignored' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ internalCode: 'SEG-CREATE', name: 'Tiendas de barrio', enabled: true, stores: [], createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) });
    const got = await as(t, s, 'GET', '/grouper/SEG-CREATE/promotion');
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(body);
  });

  it('refuses an existing code with 409 ALREADY_EXISTS and keeps the first grouper', async () => {
    const code = await newGrouper('First');
    const res = await as(t, s, 'POST', '/grouper/promotion', { internalCode: code, name: 'Second' });
    expect(res.statusCode).toBe(409);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ status: 409, code: 'ALREADY_EXISTS', errors: [{ pointer: '/internalCode', code: 'ALREADY_EXISTS' }] });
    expect((await as(t, s, 'GET', `/grouper/${code}/promotion`)).json().name).toBe('First');
  });

  it('codes are case-sensitive', async () => {
    expect((await as(t, s, 'POST', '/grouper/promotion', { internalCode: 'seg-case', name: 'lower' })).statusCode).toBe(200);
    expect((await as(t, s, 'POST', '/grouper/promotion', { internalCode: 'SEG-CASE', name: 'upper' })).statusCode).toBe(200);
    expect((await as(t, s, 'GET', '/grouper/seg-case/promotion')).json().name).toBe('lower');
    expect((await as(t, s, 'GET', '/grouper/SEG-CASE/promotion')).json().name).toBe('upper');
  });

  it('validates the body with pointers (400)', async () => {
    const missing = await as(t, s, 'POST', '/grouper/promotion', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ pointer: '/internalCode', code: 'REQUIRED' }), expect.objectContaining({ pointer: '/name', code: 'REQUIRED' })]),
    );
    const spaces = await as(t, s, 'POST', '/grouper/promotion', { internalCode: ' SEG ', name: 'x' });
    expect(spaces.statusCode).toBe(400);
    expect(spaces.json().errors).toMatchObject([{ pointer: '/internalCode', code: 'INVALID_FORMAT' }]);
    const long = await as(t, s, 'POST', '/grouper/promotion', { internalCode: 'X'.repeat(101), name: 'N'.repeat(256) });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors.map((e: any) => e.pointer).sort()).toEqual(['/internalCode', '/name']);
    const wrongType = await as(t, s, 'POST', '/grouper/promotion', { internalCode: 7, name: 'x' });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().errors).toMatchObject([{ pointer: '/internalCode', code: 'INVALID_TYPE' }]);
    expect((await as(t, s, 'GET', '/grouper/7/promotion')).statusCode).toBe(404);
  });
});

describe('PUT /grouper/{code}/promotion and /status/promotion', () => {
  it('renames, keeping stores, enabled and createdAt; updatedAt moves', async () => {
    const code = await newGrouper('Old name');
    await links({ add: { stores: [link(code, 'S-RENAME')] } });
    const before = (await as(t, s, 'GET', `/grouper/${code}/promotion`)).json();
    await new Promise((r) => setTimeout(r, 5));
    const res = await as(t, s, 'PUT', `/grouper/${code}/promotion`, { name: 'New name' });
    expect(res.statusCode).toBe(200);
    const after = res.json();
    expect(after).toEqual({ ...before, name: 'New name', updatedAt: expect.stringMatching(ISO) });
    expect(after.stores).toEqual([link(code, 'S-RENAME')]);
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect((await as(t, s, 'GET', `/grouper/${code}/promotion`)).json()).toEqual(after);
  });

  it('disables and enables; the name and stores are kept', async () => {
    const code = await newGrouper('Segment A');
    await links({ add: { stores: [link(code, 'S-STATUS')] } });
    const off = await as(t, s, 'PUT', `/grouper/${code}/status/promotion`, { enabled: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ internalCode: code, name: 'Segment A', enabled: false, stores: [link(code, 'S-STATUS')] });
    expect((await as(t, s, 'GET', `/grouper/${code}/promotion`)).json().enabled).toBe(false);
    // Idempotent, and a disabled grouper still takes store links.
    expect((await as(t, s, 'PUT', `/grouper/${code}/status/promotion`, { enabled: false })).json().enabled).toBe(false);
    const { status } = await links({ add: { stores: [link(code, 'S-STATUS-2')] } });
    expect(status).toMatchObject({ completed: 1, failed: 0 });
    const on = await as(t, s, 'PUT', `/grouper/${code}/status/promotion`, { enabled: true });
    expect(on.json()).toMatchObject({ enabled: true, stores: [link(code, 'S-STATUS'), link(code, 'S-STATUS-2')] });
  });

  it('validates the bodies (400)', async () => {
    const code = await newGrouper();
    const rename = await as(t, s, 'PUT', `/grouper/${code}/promotion`, {});
    expect(rename.statusCode).toBe(400);
    expect(rename.json()).toMatchObject({ errors: [{ pointer: '/name', code: 'REQUIRED' }] });
    const empty = await as(t, s, 'PUT', `/grouper/${code}/promotion`, { name: '' });
    expect(empty.json()).toMatchObject({ errors: [{ pointer: '/name', code: 'INVALID_LENGTH' }] });
    const status = await as(t, s, 'PUT', `/grouper/${code}/status/promotion`, { enabled: 'false' });
    expect(status.statusCode).toBe(400);
    expect(status.json()).toMatchObject({ errors: [{ pointer: '/enabled', code: 'INVALID_TYPE' }] });
    expect((await as(t, s, 'GET', `/grouper/${code}/promotion`)).json()).toMatchObject({ name: 'Segment', enabled: true });
  });

  it('answers 404 for an unknown grouper on GET, PUT and status, creating nothing', async () => {
    for (const [method, url, body] of [
      ['GET', '/grouper/NOPE/promotion', undefined],
      ['PUT', '/grouper/NOPE/promotion', { name: 'x' }],
      ['PUT', '/grouper/NOPE/status/promotion', { enabled: false }],
    ] as const) {
      const res = await as(t, s, method, url, body);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ status: 404, code: 'NOT_FOUND', errors: [{ pointer: '/params/code' }] });
    }
    expect((await as(t, s, 'GET', '/grouper/NOPE/promotion')).statusCode).toBe(404);
  });

  it('a stock grouper is not a promotion grouper: each kind has its own codes', async () => {
    expect((await as(t, s, 'POST', '/grouper/stock', { internalCode: 'ONLY-STOCK', name: 'Warehouse' })).statusCode).toBe(200);
    expect((await as(t, s, 'GET', '/grouper/ONLY-STOCK/promotion')).statusCode).toBe(404);
    expect((await as(t, s, 'PUT', '/grouper/ONLY-STOCK/promotion', { name: 'x' })).statusCode).toBe(404);
    // The same code may name one of each kind.
    expect((await as(t, s, 'POST', '/grouper/promotion', { internalCode: 'ONLY-STOCK', name: 'Segment' })).statusCode).toBe(200);
    expect((await as(t, s, 'GET', '/grouper/ONLY-STOCK/promotion')).json().name).toBe('Segment');
    expect((await as(t, s, 'GET', '/grouper/ONLY-STOCK/stock')).json().name).toBe('Warehouse');
  });
});

describe('POST /batch/grouper/promotion', () => {
  it('adds stores; a store may be in many promotion groupers', async () => {
    const a = await newGrouper();
    const b = await newGrouper();
    await createStores('S-MANY');
    const { status, detail } = await links({ add: { stores: [link(a, 'S-MANY'), link(b, 'S-MANY'), link(a, 'S-MANY-2')] } });
    expect(status).toMatchObject({ endpoint: '/batch/grouper/promotion', status: 'processed', total: 3, completed: 3, failed: 0 });
    expect(detail.map((d: any) => [d.code, d.action, d.status, d.errorCode, d.message])).toEqual([
      [`${a}/S-MANY`, 'add.stores', 'completed', null, null],
      [`${b}/S-MANY`, 'add.stores', 'completed', null, null],
      [`${a}/S-MANY-2`, 'add.stores', 'completed', null, notYet('S-MANY-2')],
    ]);
    expect(JSON.parse(detail[0].batchItem)).toEqual(link(a, 'S-MANY'));
    expect(await storesOf(a)).toEqual(['S-MANY', 'S-MANY-2']);
    expect(await storesOf(b)).toEqual(['S-MANY']);
    expect(await storeGroupers('S-MANY')).toEqual([a, b].sort());
    expect((await as(t, s, 'GET', `/grouper/${a}/promotion`)).json().stores).toEqual([link(a, 'S-MANY'), link(a, 'S-MANY-2')]);
  });

  it('lists stores by code in byte order', async () => {
    const g = await newGrouper();
    await links({ add: { stores: ['b-2', 'B-1', 'a', 'A-10', 'A-9'].map((st) => link(g, st)) } });
    expect(await storesOf(g)).toEqual(['A-10', 'A-9', 'B-1', 'a', 'b-2']);
  });

  it('adding twice and removing what is not there are harmless', async () => {
    const g = await newGrouper();
    await createStores('S-TWICE');
    await links({ add: { stores: [link(g, 'S-TWICE')] } });
    const again = await links({ add: { stores: [link(g, 'S-TWICE'), link(g, 'S-TWICE')] } });
    expect(again.status).toMatchObject({ status: 'processed', completed: 2, failed: 0 });
    expect(await storesOf(g)).toEqual(['S-TWICE']);
    const absent = await links({ remove: { stores: [link(g, 'S-NEVER'), link(g, 'S-TWICE')] } });
    expect(absent.status).toMatchObject({ status: 'processed', completed: 2, failed: 0 });
    expect(absent.detail.map((d: any) => [d.action, d.status, d.message])).toEqual([
      ['remove.stores', 'completed', null],
      ['remove.stores', 'completed', null],
    ]);
    expect(await storesOf(g)).toEqual([]);
    const gone = await links({ remove: { stores: [link(g, 'S-TWICE')] } });
    expect(gone.status).toMatchObject({ completed: 1, failed: 0 });
  });

  it('removes a store from one grouper and keeps it in the others', async () => {
    const a = await newGrouper();
    const b = await newGrouper();
    await createStores('S-REMOVE');
    await links({ add: { stores: [link(a, 'S-REMOVE'), link(b, 'S-REMOVE')] } });
    await links({ remove: { stores: [link(a, 'S-REMOVE')] } });
    expect(await storesOf(a)).toEqual([]);
    expect(await storesOf(b)).toEqual(['S-REMOVE']);
    expect(await storeGroupers('S-REMOVE')).toEqual([b]);
  });

  it('fails an unknown grouper per item with UNKNOWN_GROUPER and applies the others', async () => {
    const g = await newGrouper();
    const stock = `W-FOR-${g}`;
    expect((await as(t, s, 'POST', '/grouper/stock', { internalCode: stock, name: 'Warehouse' })).statusCode).toBe(200);
    const { status, detail } = await links({
      add: { stores: [link('SEG-NOPE', 'S-U1'), link(g, 'S-U1'), link(stock, 'S-U1')] },
      remove: { stores: [link('SEG-NOPE', 'S-U1')] },
    });
    expect(status).toMatchObject({ status: 'processed', total: 4, completed: 1, failed: 3 });
    expect(detail.map((d: any) => [d.code, d.action, d.status, d.errorCode])).toEqual([
      ['SEG-NOPE/S-U1', 'remove.stores', 'failed', 'UNKNOWN_GROUPER'],
      ['SEG-NOPE/S-U1', 'add.stores', 'failed', 'UNKNOWN_GROUPER'],
      [`${g}/S-U1`, 'add.stores', 'completed', null],
      [`${stock}/S-U1`, 'add.stores', 'failed', 'UNKNOWN_GROUPER'],
    ]);
    expect(detail[0].message).toContain('SEG-NOPE');
    expect(await storesOf(g)).toEqual(['S-U1']);
    expect((await as(t, s, 'GET', `/grouper/${stock}/stock`)).json().stores).toEqual([]);
  });

  it('a batch whose every item fails ends failed', async () => {
    const { status } = await links({ add: { stores: [link('SEG-NOPE', 'S-1'), link('SEG-NOPE-2', 'S-2')] } });
    expect(status).toMatchObject({ status: 'failed', total: 2, completed: 0, failed: 2 });
  });

  it('keeps a link to a store not known yet; it takes effect when the store is created', async () => {
    const g = await newGrouper();
    const { detail } = await links({ add: { stores: [link(g, 'S-LATER')] } });
    expect(detail[0]).toMatchObject({ status: 'completed', errorCode: null, message: notYet('S-LATER') });
    expect((await as(t, s, 'GET', '/store/S-LATER')).statusCode).toBe(404);
    expect(await storesOf(g)).toEqual(['S-LATER']);
    // The store arrives without promotionGrouperCodes: the waiting link holds.
    await createStores('S-LATER');
    expect(await storeGroupers('S-LATER')).toEqual([g]);
    // Once it exists, the same link completes without a message.
    const again = await links({ add: { stores: [link(g, 'S-LATER')] } });
    expect(again.detail[0]).toMatchObject({ status: 'completed', message: null });
  });

  it('applies every remove before every add of one request', async () => {
    const g = await newGrouper();
    await createStores('S-ORDER-1', 'S-ORDER-2');
    await links({ add: { stores: [link(g, 'S-ORDER-1')] } });
    // Written add-first, applied remove-first: S-ORDER-1 stays, S-ORDER-2 is added.
    const { detail } = await links({
      add: { stores: [link(g, 'S-ORDER-1'), link(g, 'S-ORDER-2')] },
      remove: { stores: [link(g, 'S-ORDER-1'), link(g, 'S-ORDER-2')] },
    });
    expect(detail.map((d: any) => [d.action, d.code])).toEqual([
      ['remove.stores', `${g}/S-ORDER-1`],
      ['remove.stores', `${g}/S-ORDER-2`],
      ['add.stores', `${g}/S-ORDER-1`],
      ['add.stores', `${g}/S-ORDER-2`],
    ]);
    expect(await storesOf(g)).toEqual(['S-ORDER-1', 'S-ORDER-2']);
  });

  it('applies batches in acceptance order', async () => {
    const g = await newGrouper();
    const submit = async (body: unknown) => (await as(t, s, 'POST', '/batch/grouper/promotion', body)).json().batchId as string[];
    const ids = [
      ...(await submit({ add: { stores: [link(g, 'S-SEQ-1'), link(g, 'S-SEQ-2')] } })),
      ...(await submit({ remove: { stores: [link(g, 'S-SEQ-1')] } })),
      ...(await submit({ add: { stores: [link(g, 'S-SEQ-3')] } })),
      ...(await submit({ remove: { stores: [link(g, 'S-SEQ-3')] } })),
    ];
    await t.waitForBatches(s, ids);
    expect(await storesOf(g)).toEqual(['S-SEQ-2']);
  });

  it('loads thousands of links across batches and chunks', async () => {
    const g = await newGrouper();
    const res = await as(t, s, 'POST', '/batch/grouper/promotion', {
      add: { stores: Array.from({ length: 12_000 }, (_, i) => link(g, `S-BULK-${String(i).padStart(5, '0')}`)) },
    });
    expect(res.statusCode).toBe(202);
    const ids: string[] = res.json().batchId;
    expect(ids).toHaveLength(3);
    const statuses = await t.waitForBatches(s, ids);
    expect(statuses.map((x) => [x.status, x.total, x.completed, x.failed])).toEqual([
      ['processed', 5000, 5000, 0],
      ['processed', 5000, 5000, 0],
      ['processed', 2000, 2000, 0],
    ]);
    const stores = await storesOf(g);
    expect(stores).toHaveLength(12_000);
    expect(stores[11_999]).toBe('S-BULK-11999');
  });

  it('refuses a bad structure with 402 and pointers, queuing nothing', async () => {
    const bad = async (body: unknown) => {
      const res = await as(t, s, 'POST', '/batch/grouper/promotion', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(402);
      expect(res.headers['content-type']).toContain('application/problem+json');
      return res.json();
    };
    const g = await newGrouper();
    expect((await bad({ add: { stores: [{ groupInternalCode: g }] } })).errors).toMatchObject([{ pointer: '/add/stores/0/storeInternalCode', code: 'REQUIRED' }]);
    const several = await bad({ add: { stores: [link(g, 'S-OK'), { groupInternalCode: '', storeInternalCode: 5 }] }, remove: { stores: 'x' } });
    expect(several.code).toBe('BATCH_VALIDATION_FAILED');
    expect(several.errors.map((e: any) => e.pointer).sort()).toEqual(['/add/stores/1/groupInternalCode', '/add/stores/1/storeInternalCode', '/remove/stores']);
    expect((await bad({ add: {} })).errors).toMatchObject([{ pointer: '/add/stores', code: 'REQUIRED' }]);
    expect((await bad({})).errors).toMatchObject([{ code: 'EMPTY_BATCH' }]);
    expect((await bad({ add: { stores: [] }, remove: { stores: [] } })).errors).toMatchObject([{ code: 'EMPTY_BATCH' }]);
    const malformed = await t.request({ method: 'POST', url: '/batch/grouper/promotion', headers: { ...s.headers, 'content-type': 'application/json' }, payload: '{"add":' });
    expect(malformed.statusCode).toBe(402);
    expect(malformed.json().code).toBe('MALFORMED_JSON');
    // Nothing of the refused requests was applied.
    expect(await storesOf(g)).toEqual([]);
  });
});
