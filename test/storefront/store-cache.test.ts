// The store side reads from memory (store-cache.ts), and no read is ever older than a
// write this process answered: the next catalog or cart read sees a supplier's PUT or a
// processed batch at once. The cache is really used: a change made behind the service's
// back (triggers off, so no NOTIFY) is not seen until a write is heard.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

const now = new Date('2026-03-10T15:00:00.000Z');
let t: TestApp;
let s: TestSupplier;
let token: string;
let storeId: number;
const ana = { phone: '+573001234588', name: 'Ana' };

async function batch(url: string, body: unknown) {
  const res = await as(t, s, 'POST', url, body);
  expect(res.statusCode, res.body).toBe(202);
  for (const st of await t.waitForBatches(s, res.json().batchId)) expect(st.failed, JSON.stringify(st)).toBe(0);
}
const store = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.request({ method, url: `/app/stores/${storeId}${url}`, payload: payload as never, headers: { authorization: `Bearer ${token}` } });
const catalog = async () => {
  const res = await store('GET', '/catalog');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { internalCode: string; sizes: { units: number; price: number }[]; promotions: { internalCode: string }[] }[];
};
const cart = async () => {
  const res = await store('POST', '/cart', { lines: [{ productInternalCode: 'P1', units: 1, quantity: 4 }] });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const price = (code: string, p: number) => batch('/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'PL', productInternalCode: code, units: 1, price: p }] } });

beforeAll(async () => {
  t = await createTestApp({ clock: { now: () => now } });
  s = await t.supplier();
  await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'Drinks' });
  await batch('/batch/brand', [{ internalCode: 'B', name: 'Brand' }]);
  await batch('/batch/product', { upsert: ['P1', 'P2'].map((code) => ({ internalCode: code, name: `Product ${code}`, brandInternalCode: 'B', categoryInternalCode: 'C' })) });
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  await batch('/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda', priceListCode: 'PL' }] });
  await price('P1', 1000);
  await price('P2', 2000);
  await as(t, s, 'POST', '/store/S1/add/user', { users: [ana] });
  await t.request({ method: 'POST', url: '/app/auth/code', payload: { phone: ana.phone } });
  const exchanged = await t.request({ method: 'POST', url: '/app/auth/token', payload: { phone: ana.phone, code: await t.notifier.waitForCode(ana.phone) } });
  token = exchanged.json().access_token;
  storeId = (await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token}` } })).json().stores[0].id;
});
afterAll(() => t.close());

describe('the store cache, in one process', () => {
  it('is used: a change nobody announced is not seen while the cache holds', async () => {
    expect(t.deps.storeCache.isListening).toBe(true);
    expect((await catalog()).find((p) => p.internalCode === 'P2')!.sizes).toEqual([{ units: 1, name: null, price: 2000 }]);
    // Behind the service's back: triggers off, so no NOTIFY and no forget.
    await t.deps.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`update price_entries set price = 2222 where supplier_id = ${s.id}`.execute(trx);
    });
    expect((await catalog()).find((p) => p.internalCode === 'P2')!.sizes[0]!.price).toBe(2000);
    await price('P2', 2500); // an announced write: now the next read sees the database as it is
    const after = await catalog();
    expect(after.find((p) => p.internalCode === 'P2')!.sizes[0]!.price).toBe(2500);
    expect(after.find((p) => p.internalCode === 'P1')!.sizes[0]!.price).toBe(2222);
    await price('P1', 1000);
  });

  it('shows a promotion PUT by the supplier in the very next catalog and cart', async () => {
    expect((await catalog()).find((p) => p.internalCode === 'P1')!.promotions).toEqual([]);
    expect((await cart()).discounts).toEqual([]);
    const put = await as(t, s, 'PUT', '/promotion/discount/simple', {
      internalCode: 'NEW', name: 'From 3', start: '2026-03-01', end: '2026-03-31', enabled: true,
      products: { internalCode: 'P1' }, discountTiersData: [{ min: 3, discountPercentage: 10 }],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await catalog()).find((p) => p.internalCode === 'P1')!.promotions.map((p) => p.internalCode)).toEqual(['NEW']);
    const priced = await cart();
    expect(priced.total).toBe(3600);
    expect(priced.discounts.map((d: { promoInternalCode: string }) => d.promoInternalCode)).toEqual(['NEW']);

    expect((await as(t, s, 'PUT', '/promotion/NEW/status', { enabled: false })).statusCode).toBe(200);
    expect((await catalog()).find((p) => p.internalCode === 'P1')!.promotions).toEqual([]);
    expect((await cart()).total).toBe(4000);
  });

  it('shows a processed batch in the very next catalog and cart', async () => {
    await catalog();
    await price('P1', 1250);
    expect((await catalog()).find((p) => p.internalCode === 'P1')!.sizes[0]!.price).toBe(1250);
    expect((await cart()).total).toBe(5000);
    await as(t, s, 'POST', '/grouper/stock', { internalCode: 'W', name: 'Warehouse' });
    await batch('/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda', priceListCode: 'PL', stockGrouperCode: 'W' }] });
    await batch('/batch/stock/grouper', { upsert: [{ grouperCode: 'W', productInternalCode: 'P1', available: false }] });
    expect((await catalog()).map((p) => p.internalCode)).toEqual(['P2']);
    expect((await cart()).lines[0].error).toBe('UNAVAILABLE');
  });

  it('answers an emptied price list at once', async () => {
    expect((await as(t, s, 'PUT', '/pricelist/PL/status', { enabled: false })).statusCode).toBe(200);
    expect(await catalog()).toEqual([]);
    expect((await as(t, s, 'PUT', '/pricelist/PL/status', { enabled: true })).statusCode).toBe(200);
    expect((await catalog()).map((p) => p.internalCode)).toEqual(['P2']);
  });
});

describe('GET /promotion/{code} from the same cache', () => {
  const read = async (code: string) => {
    const res = await as(t, s, 'GET', `/promotion/${code}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { enabled: boolean; name: string; active: boolean };
  };

  it('is kept: a change nobody announced is not seen, an announced one is seen by the very next read', async () => {
    const put = await as(t, s, 'PUT', '/promotion/discount/simple', {
      internalCode: 'KEPT', name: 'Kept', start: '2026-03-01', end: '2026-03-31', enabled: true,
      products: { internalCode: 'P2' }, discountTiersData: [{ min: 2, discountPercentage: 5 }],
    });
    expect(put.statusCode, put.body).toBe(200);
    // The PUT's own NOTIFY reaches the listening connection a moment after the answer (on
    // PostgreSQL); a value read before it arrives is forgotten when it does.
    await new Promise((r) => setTimeout(r, 500));
    expect(await read('KEPT')).toMatchObject({ name: 'Kept', enabled: true, active: true });
    await t.deps.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`update promotions set name = 'Behind its back' where supplier_id = ${s.id} and internal_code = 'KEPT'`.execute(trx);
    });
    expect((await read('KEPT')).name).toBe('Kept');
    // The supplier's own write, answered by this process: the next read is the database's.
    expect((await as(t, s, 'PUT', '/promotion/KEPT/status', { enabled: false })).statusCode).toBe(200);
    expect(await read('KEPT')).toMatchObject({ name: 'Behind its back', enabled: false, active: false });
    // A write announced by NOTIFY (as another process's would be): seen once it is heard.
    await sql`update promotions set name = 'Renamed elsewhere' where supplier_id = ${s.id} and internal_code = 'KEPT'`.execute(t.deps.db);
    const started = Date.now();
    while ((await read('KEPT')).name !== 'Renamed elsewhere') {
      expect(Date.now() - started, 'the NOTIFY of a committed write is heard within a second').toBeLessThan(1000);
      await new Promise((r) => setTimeout(r, 20));
    }
  });

  it('never answers another supplier the promotion of the same code', async () => {
    const other = await t.supplier();
    expect((await as(t, other, 'GET', '/promotion/KEPT')).statusCode).toBe(404);
    await as(t, other, 'PUT', '/category', { internalCode: 'C', name: 'Drinks' });
    for (const [url, body] of [['/batch/brand', [{ internalCode: 'B', name: 'Brand' }]], ['/batch/product', { upsert: [{ internalCode: 'X', name: 'X', brandInternalCode: 'B', categoryInternalCode: 'C' }] }]] as const) {
      const res = await as(t, other, 'POST', url, body);
      expect(res.statusCode, res.body).toBe(202);
      for (const st of await t.waitForBatches(other, res.json().batchId)) expect(st.failed, JSON.stringify(st)).toBe(0);
    }
    const put = await as(t, other, 'PUT', '/promotion/discount/simple', {
      internalCode: 'KEPT', name: 'Theirs', start: '2026-03-01', end: '2026-03-31', enabled: true,
      products: { internalCode: 'X' }, discountTiersData: [{ min: 2, discountPercentage: 5 }],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await as(t, other, 'GET', '/promotion/KEPT')).json().name).toBe('Theirs');
    expect((await read('KEPT')).name).toBe('Renamed elsewhere');
  });
});
