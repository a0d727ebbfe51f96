// Images of brands, categories, subcategories and products: downloaded in the background
// from a real local HTTP server, converted to WebP versions at 160/480/1024 (never
// enlarged), served on content-addressed paths with year-long cache headers, and
// fetched once per supplier and URL however many entities use it.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { batch, fetchStored, getJson, makeImage, serve, startImageServer, untilSettled, type ImageServer } from './helpers.ts';

const PUBLIC_URL = 'https://media.surtido.test';
const IMMUTABLE = 'public, max-age=31536000, immutable';

let t: TestApp;
let s: TestSupplier;
let server: ImageServer;
let big: Buffer;
let small: Buffer;

beforeAll(async () => {
  [big, small] = await Promise.all([makeImage(2000, 1200, 'png'), makeImage(300, 200, 'jpeg')]);
  server = await startImageServer();
  server.route('/big.png', serve(big, 'image/png'));
  server.route('/small.jpg', serve(small, 'image/jpeg; charset=binary'));
  server.route('/shared.png', serve(small, 'image/png'));
  server.route('/other.jpg', serve(small, 'image/jpeg'));
  t = await createTestApp({ images: true, env: { PUBLIC_URL } });
  s = await t.supplier();
});
afterAll(async () => {
  await t.close();
  await server.close();
});

const settledBrand = (code: string, who = s) => untilSettled(() => getJson(t, who, `/brand/${code}`), (b) => b.imageStatus);

/** Checks every stored file of an image: formats, sizes, content addressing, cache headers. */
async function expectStored(imageUrls: Record<string, string>, original: Buffer, widths: Record<'160' | '480' | '1024', [number, number]>) {
  const hash = createHash('sha256').update(original).digest('hex');
  expect(Object.keys(imageUrls).sort()).toEqual(['1024', '160', '480', 'original']);
  for (const url of Object.values(imageUrls)) expect(url.startsWith(`${PUBLIC_URL}/images/${hash}/`), url).toBe(true);

  const { res, body } = await fetchStored(t, imageUrls.original!);
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe(IMMUTABLE);
  expect(body.equals(original)).toBe(true);

  for (const [width, [w, h]] of Object.entries(widths)) {
    const { res: v, body: bytes } = await fetchStored(t, imageUrls[width]!);
    expect(v.statusCode, width).toBe(200);
    expect(v.headers['content-type']).toBe('image/webp');
    expect(v.headers['cache-control']).toBe(IMMUTABLE);
    expect(Number(v.headers['content-length'])).toBe(bytes.length);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height], width).toEqual(['webp', w, h]);
  }
}

describe('image processing', () => {
  it('converts a category, a subcategory and a brand image; GET answers the versions next to image', async () => {
    expect((await as(t, s, 'PUT', '/category', { internalCode: 'C-1', name: 'Drinks', image: server.url('/big.png') })).statusCode).toBe(200);
    const sub = await as(t, s, 'PUT', '/subcategory', { internalCode: 'C-1-1', name: 'Colas', parentCategoryInternalCode: 'C-1', image: server.url('/small.jpg') });
    expect(sub.statusCode).toBe(200);
    expect(['pending', 'ready']).toContain(sub.json().imageStatus);
    await batch(t, s, '/batch/brand', [{ internalCode: 'B-1', name: 'Cola Co', image: server.url('/small.jpg') }, { internalCode: 'B-0', name: 'No image' }]);

    const category = await untilSettled(
      () => getJson(t, s, '/category/C-1'),
      (c) => [c.imageStatus, ...c.subcategories.map((x: any) => x.imageStatus)],
    );
    expect(category).toMatchObject({ image: server.url('/big.png'), imageStatus: 'ready', imageError: null });
    await expectStored(category.imageUrls, big, { '160': [160, 96], '480': [480, 288], '1024': [1024, 614] });
    expect(category.subcategories[0]).toMatchObject({ image: server.url('/small.jpg'), imageStatus: 'ready', imageError: null });
    // Never enlarged: the 300-pixel original stays 300 pixels wide in the larger versions.
    await expectStored(category.subcategories[0].imageUrls, small, { '160': [160, 107], '480': [300, 200], '1024': [300, 200] });

    const brand = await settledBrand('B-1');
    expect(brand).toMatchObject({ imageStatus: 'ready', imageUrls: category.subcategories[0].imageUrls });
    expect(await getJson(t, s, '/brand/B-0')).toMatchObject({ image: null, imageUrls: null, imageStatus: null, imageError: null });
    const list = await getJson(t, s, '/category');
    expect(list.data[0]).toMatchObject({ imageStatus: 'ready', imageUrls: category.imageUrls });
  });

  it("converts a product's image and each of its images, in order", async () => {
    await batch(t, s, '/batch/product', [
      {
        internalCode: 'P-1',
        name: 'Cola',
        brandInternalCode: 'B-1',
        categoryInternalCode: 'C-1-1',
        image: server.url('/small.jpg'),
        images: [server.url('/big.png'), server.url('/missing.png')],
      },
    ]);
    const p = await untilSettled(
      () => getJson(t, s, '/product/P-1'),
      (x) => [x.imageStatus, ...x.imagesDetail.map((d: any) => d.imageStatus)],
    );
    expect(p).toMatchObject({ image: server.url('/small.jpg'), imageStatus: 'ready', images: [server.url('/big.png'), server.url('/missing.png')] });
    expect(p.imagesDetail).toEqual([
      { url: server.url('/big.png'), imageUrls: expect.any(Object), imageStatus: 'ready', imageError: null },
      { url: server.url('/missing.png'), imageUrls: null, imageStatus: 'failed', imageError: 'the server answered 404' },
    ]);
    await expectStored(p.imagesDetail[0].imageUrls, big, { '160': [160, 96], '480': [480, 288], '1024': [1024, 614] });
  });

  it('fetches a URL once per supplier however many entities use it', async () => {
    const url = server.url('/shared.png');
    await batch(t, s, '/batch/brand', [{ internalCode: 'B-S', name: 'Shared', image: url }]);
    await batch(t, s, '/batch/product', [
      { internalCode: 'P-S1', name: 'One', brandInternalCode: 'B-S', categoryInternalCode: 'C-1', image: url, images: [url] },
      { internalCode: 'P-S2', name: 'Two', brandInternalCode: 'B-S', categoryInternalCode: 'C-1', image: url },
    ]);
    await as(t, s, 'PUT', '/category', { internalCode: 'C-S', name: 'Shared', image: url });
    const p2 = await untilSettled(() => getJson(t, s, '/product/P-S2'), (x) => x.imageStatus);
    const p1 = await untilSettled(() => getJson(t, s, '/product/P-S1'), (x) => x.imageStatus);
    expect(p1.imageUrls).toEqual(p2.imageUrls);
    expect(p1.imagesDetail[0].imageUrls).toEqual(p2.imageUrls);
    expect((await settledBrand('B-S')).imageUrls).toEqual(p2.imageUrls);
    // Saving the entities again registers nothing new and fetches nothing again.
    await batch(t, s, '/batch/product', [{ internalCode: 'P-S2', name: 'Two again', brandInternalCode: 'B-S', categoryInternalCode: 'C-1', image: url }]);
    await new Promise((r) => setTimeout(r, 200));
    expect(server.hits('/shared.png')).toBe(1);
    const rows = await t.deps.db.selectFrom('images').select(['supplier_id', 'status', 'attempts']).where('url', '=', url).execute();
    expect(rows).toEqual([{ supplier_id: s.id, status: 'ready', attempts: 1 }]);
  });

  it('gives another supplier using the same URL its own record (and the same content-addressed files)', async () => {
    const other = await t.supplier();
    const before = server.hits('/other.jpg');
    await batch(t, s, '/batch/brand', [{ internalCode: 'B-O', name: 'Mine', image: server.url('/other.jpg') }]);
    await batch(t, other, '/batch/brand', [{ internalCode: 'B-O', name: 'Theirs', image: server.url('/other.jpg') }]);
    const [mine, theirs] = await Promise.all([settledBrand('B-O'), settledBrand('B-O', other)]);
    expect(theirs.imageStatus).toBe('ready');
    expect(theirs.imageUrls).toEqual(mine.imageUrls);
    expect(server.hits('/other.jpg') - before).toBe(2);
    const rows = await t.deps.db.selectFrom('images').select('supplier_id').where('url', '=', server.url('/other.jpg')).orderBy('supplier_id').execute();
    expect(rows.map((r) => r.supplier_id)).toEqual([s.id, other.id]);
  });

  it('serves stored files publicly with an ETag; unknown files are 404 without the long cache', async () => {
    const brand = await settledBrand('B-1');
    const path = new URL(brand.imageUrls['480']).pathname;
    const first = await t.request({ method: 'GET', url: path });
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    const etag = String(first.headers.etag);
    const again = await t.request({ method: 'GET', url: path, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const head = await t.request({ method: 'HEAD', url: path });
    expect(head.statusCode).toBe(200);
    expect(head.headers['cache-control']).toBe(IMMUTABLE);

    const missing = await t.request({ method: 'GET', url: `/images/${'0'.repeat(64)}/480.webp` });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).not.toBe(IMMUTABLE);
    expect((await t.request({ method: 'GET', url: `/images/${'0'.repeat(64)}/../../etc/passwd` })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/images/not-a-hash/480.webp` })).statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: path.replace('480.webp', '640.webp') })).statusCode).toBe(400);
  });

  it('answers pending while the download runs, then ready', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.route('/slow.png', async (req, res) => {
      await released;
      serve(small, 'image/png')(req, res);
    });
    await batch(t, s, '/batch/brand', [{ internalCode: 'B-SLOW', name: 'Slow', image: server.url('/slow.png') }]);
    await untilSettled(async () => server.hits('/slow.png'), (n) => (n === 0 ? 'pending' : 'started'));
    expect(await getJson(t, s, '/brand/B-SLOW')).toMatchObject({ imageStatus: 'pending', imageUrls: null, imageError: null });
    const leased = await sql<{ lease_owner: string | null }>`select lease_owner from images where url = ${server.url('/slow.png')}`.execute(t.deps.db);
    expect(leased.rows[0]?.lease_owner).toBe(t.images!.id);
    release();
    expect(await settledBrand('B-SLOW')).toMatchObject({ imageStatus: 'ready' });
  });
});
