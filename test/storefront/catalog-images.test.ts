// The store catalog answers the service's optimised versions of each product's image
// (`imageUrls`, the same as the supplier's GET /product answers), read per page so an
// image the worker makes ready shows at once, even while the catalogue itself is cached.
// It never answers a supplier's own image URL: a buyer's browser loads only what the
// service stored, so a pending, refused or failed image is no image (the shop's placeholder).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { makeImage, serve, startImageServer, untilSettled, type ImageServer } from '../images/helpers.ts';

let t: TestApp;
let s: TestSupplier;
let server: ImageServer;
let token: string;
let storeId: number;

async function batch(url: string, body: unknown) {
  const res = await as(t, s, 'POST', url, body);
  expect(res.statusCode, res.body).toBe(202);
  for (const st of await t.waitForBatches(s, res.json().batchId)) expect(st.failed, JSON.stringify(st)).toBe(0);
}
const catalog = async () => {
  const res = await t.request({ method: 'GET', url: `/app/stores/${storeId}/catalog`, headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode, res.body).toBe(200);
  return new Map<string, any>(res.json().data.map((p: { internalCode: string }) => [p.internalCode, p]));
};
const supplierView = async (code: string) => (await as(t, s, 'GET', `/product/${code}`)).json();

beforeAll(async () => {
  server = await startImageServer();
  server.route('/cola.png', serve(await makeImage(640, 640, 'png'), 'image/png'));
  t = await createTestApp({ images: { concurrency: 2 } });
  s = await t.supplier();
  await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'Drinks' });
  await batch('/batch/brand', [{ internalCode: 'B', name: 'Brand' }]);
  await batch('/batch/product', {
    upsert: [
      { internalCode: 'COLA', name: 'Cola', brandInternalCode: 'B', categoryInternalCode: 'C', image: server.url('/cola.png'), images: [server.url('/cola.png')] },
      { internalCode: 'PLAIN', name: 'Plain', brandInternalCode: 'B', categoryInternalCode: 'C' },
    ],
  });
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  await batch('/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda', priceListCode: 'PL' }] });
  await batch('/batch/pricelist', { upsert: { products: ['COLA', 'PLAIN'].map((code) => ({ priceListInternalCode: 'PL', productInternalCode: code, units: 1, price: 1000 })), stores: [] } });
  await as(t, s, 'POST', '/store/S1/add/user', { users: [{ email: 'ana@example.com', name: 'Ana' }] });
  token = (await t.admin('POST', '/admin/store-users/token', { email: 'ana@example.com' })).json().access_token;
  storeId = (await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token}` } })).json().stores[0].id;
});
afterAll(async () => {
  await t.close();
  await server.close();
});

describe('images in the store catalog', () => {
  it("answer the service's versions once the worker made them, the same URLs as the supplier's GET", async () => {
    const ready = await untilSettled(() => supplierView('COLA'), (p) => p.imageStatus);
    expect(ready.imageStatus).toBe('ready');
    const cola = (await catalog()).get('COLA');
    expect(cola.imageUrls).toEqual(ready.imageUrls);
    // The other images: the service's versions too, in the supplier's order.
    expect(cola.images).toEqual([ready.imageUrls]);
    expect(Object.keys(cola.imageUrls).sort()).toEqual(['1024', '160', '480', 'original']);
    expect(cola.imageUrls['480']).toMatch(/^http.*\/images\/[0-9a-f]{64}\/480\.webp$/);
    // A product without an image has none.
    expect((await catalog()).get('PLAIN')).toMatchObject({ imageUrls: null, images: [] });
  });

  it('show an image made ready after the catalogue was cached, and none while it is pending', async () => {
    server.route('/later.png', async (_req, res) => {
      await released;
      res.writeHead(200, { 'content-type': 'image/png' }).end(await makeImage(320, 320, 'png'));
    });
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await batch('/batch/product', { upsert: [{ internalCode: 'PLAIN', name: 'Plain', brandInternalCode: 'B', categoryInternalCode: 'C', image: server.url('/later.png') }] });
    // Read (and cached) while the download is held: no versions yet.
    expect((await catalog()).get('PLAIN')).toMatchObject({ imageUrls: null, images: [] });
    release();
    const ready = await untilSettled(() => supplierView('PLAIN'), (p) => p.imageStatus);
    expect(ready.imageStatus).toBe('ready');
    expect((await catalog()).get('PLAIN').imageUrls).toEqual(ready.imageUrls);
  });

  it("never answer a supplier's image URL: pending, refused and failed images are none, stored ones are the service's", async () => {
    server.route('/held.png', () => new Promise(() => {}));
    server.route('/second.png', serve(await makeImage(200, 200, 'png'), 'image/png'));
    await batch('/batch/product', {
      upsert: [
        // A 404 fails at once (a refused address fails the same way); a download that never answers stays pending.
        { internalCode: 'GONE', name: 'Gone', brandInternalCode: 'B', categoryInternalCode: 'C', image: server.url('/missing.png'), images: [server.url('/missing.png'), server.url('/second.png')] },
        { internalCode: 'HELD', name: 'Held', brandInternalCode: 'B', categoryInternalCode: 'C', image: server.url('/held.png'), images: [server.url('/held.png')] },
      ],
    });
    await batch('/batch/pricelist', { upsert: { products: ['GONE', 'HELD'].map((code) => ({ priceListInternalCode: 'PL', productInternalCode: code, units: 1, price: 1000 })), stores: [] } });
    const gone = await untilSettled(() => supplierView('GONE'), (p) => [p.imageStatus, ...p.imagesDetail.map((d: { imageStatus: string }) => d.imageStatus)]);
    expect(gone.imageStatus).toBe('failed');
    const res = await t.request({ method: 'GET', url: `/app/stores/${storeId}/catalog`, headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode, res.body).toBe(200);
    // No address of the supplier's image host anywhere in the answer.
    expect(res.body).not.toContain(server.origin);
    const byCode = new Map<string, any>(res.json().data.map((p: { internalCode: string }) => [p.internalCode, p]));
    expect(byCode.get('GONE')).toMatchObject({ imageUrls: null, images: [gone.imagesDetail[1].imageUrls] });
    expect(byCode.get('HELD')).toMatchObject({ imageUrls: null, images: [] });
    for (const p of byCode.values()) expect(p).not.toHaveProperty('image');
  });
});
