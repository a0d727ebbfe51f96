// The catalogue for a phone on a weak network (issue 32): ETag and 304, the changedSince
// cursor (only what changed, or everything marked full when a change cannot be told item by
// item), and the store app's answers compressed when the client asks, never otherwise.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let now = new Date('2026-03-10T15:00:00.000Z');
let t: TestApp;
let s: TestSupplier;
let token: string;
let storeId: number;
const phone = '+573002220001';
const CODES = Array.from({ length: 30 }, (_, i) => `P${String(i).padStart(2, '0')}`);

async function batch(url: string, body: unknown) {
  const { statuses } = await t.runBatch(s, url, body);
  for (const st of statuses) expect(st.failed, JSON.stringify(st)).toBe(0);
}
const price = (code: string, units: number, value: number) => ({ priceListInternalCode: 'PL', productInternalCode: code, units, price: value });
const catalog = (query = '', headers: Record<string, string> = {}) =>
  t.request({ method: 'GET', url: `/app/stores/${storeId}/catalog${query}`, headers: { authorization: `Bearer ${token}`, ...headers } });

beforeAll(async () => {
  t = await createTestApp({ clock: { now: () => now } });
  s = await t.supplier();
  await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'Drinks' });
  await batch('/batch/brand', [{ internalCode: 'B', name: 'Brand' }]);
  await batch('/batch/product', { upsert: CODES.map((code) => ({ internalCode: code, name: `Producto ${code}`, description: 'una descripción larga para que la página pese', brandInternalCode: 'B', categoryInternalCode: 'C' })) });
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  await batch('/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda', priceListCode: 'PL' }] });
  await batch('/batch/pricelist', { upsert: { products: CODES.map((code) => price(code, 1, 1000)) } });
  await as(t, s, 'POST', '/store/S1/add/user', { users: [{ phone }] });
  token = (await t.admin('POST', '/admin/store-users/token', { phone })).json().access_token;
  storeId = (await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token}` } })).json().stores[0].id;
});
afterAll(() => t.close());

describe('ETag and 304', () => {
  it('answers 304 with no body to If-None-Match naming the answer, and the whole answer once it changed', async () => {
    const first = await catalog();
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await catalog('', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    await batch('/batch/pricelist', { upsert: { products: [price('P03', 1, 1100)] } });
    const changed = await catalog('', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json().data.find((p: { internalCode: string }) => p.internalCode === 'P03').sizes[0].price).toBe(1100);
  });
});

describe('changedSince', () => {
  it('answers everything first, then only what changed, then nothing, with the next cursor each time', async () => {
    const first = (await catalog('?changedSince=0&take=50')).json();
    expect(first).toMatchObject({ full: true, total: 30 });
    expect(first.data).toHaveLength(30);
    const none = (await catalog(`?changedSince=${first.cursor}`)).json();
    expect(none).toMatchObject({ full: false, total: 0, data: [], cursor: first.cursor });

    now = new Date(now.getTime() + 1000);
    await batch('/batch/pricelist', { upsert: { products: [price('P07', 1, 1234)] } });
    await batch('/batch/product', { upsert: [{ internalCode: 'P11', name: 'Producto renombrado', brandInternalCode: 'B', categoryInternalCode: 'C' }] });
    const delta = (await catalog(`?changedSince=${first.cursor}`)).json();
    expect(delta).toMatchObject({ full: false, total: 2 });
    expect(delta.data.map((p: { internalCode: string }) => p.internalCode).sort()).toEqual(['P07', 'P11']);
    expect(delta.data.find((p: { internalCode: string }) => p.internalCode === 'P07').sizes[0].price).toBe(1234);
    expect((await catalog(`?changedSince=${delta.cursor}`)).json()).toMatchObject({ full: false, total: 0 });

    // A size that came (or a product that went) cannot be told item by item: everything, marked full.
    await batch('/batch/pricelist', { upsert: { products: [price('P01', 12, 11000)] } });
    const full = (await catalog(`?changedSince=${delta.cursor}&take=50`)).json();
    expect(full).toMatchObject({ full: true, total: 30 });
    await batch('/batch/product', { upsert: [{ internalCode: 'P02', name: 'Producto P02', brandInternalCode: 'B', categoryInternalCode: 'C', enabled: false }] });
    expect((await catalog(`?changedSince=${full.cursor}&take=50`)).json()).toMatchObject({ full: true, total: 29 });
  });

  it('refuses a malformed cursor naming the field, and answers as before without changedSince', async () => {
    const bad = await catalog('?changedSince=nonsense');
    expect(bad.json()).toMatchObject({ status: 400, code: 'INVALID_VALUE', errors: [{ pointer: '/query/changedSince' }] });
    const plain = (await catalog()).json();
    expect(plain).not.toHaveProperty('cursor');
    expect(plain).not.toHaveProperty('full');
  });
});

describe('compression', () => {
  it('compresses the store app answers with brotli or gzip when asked, and only then', async () => {
    const plain = await catalog('?take=50');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await catalog('?take=50', { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const gz = await catalog('?take=50', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
    // A small answer stays as it is; the supplier API is never compressed.
    expect((await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'br' } })).headers['content-encoding']).toBeUndefined();
    expect((await as(t, s, 'GET', '/product?take=50', undefined, { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
  });
});
