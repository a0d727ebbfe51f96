// What fails an image, and how: a 404, a non-image, an oversized file (by its
// Content-Length or while reading), bytes that are not an image, too many redirects —
// all permanent, with the reason kept; a 503 is retried later. None of them fails the
// entity that uses the image.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { batch, getJson, makeImage, redirect, serve, startImageServer, untilSettled, type ImageServer } from './helpers.ts';

const MAX_BYTES = 60_000;

let t: TestApp;
let s: TestSupplier;
let server: ImageServer;
let small: Buffer;
let large: Buffer;

beforeAll(async () => {
  [small, large] = await Promise.all([makeImage(120, 80, 'png'), makeImage(600, 400, 'png')]);
  expect(small.length).toBeLessThan(MAX_BYTES);
  expect(large.length).toBeGreaterThan(MAX_BYTES);
  server = await startImageServer();
  server.route('/ok.png', serve(small, 'image/png'));
  server.route('/page.html', serve(Buffer.from('<html>hello</html>'), 'text/html; charset=utf-8'));
  server.route('/untyped.png', (_req, res) => void res.writeHead(200).end(small));
  server.route('/large.png', serve(large, 'image/png'));
  server.route('/large-chunked.png', serve(large, 'image/png', { chunked: true }));
  server.route('/garbage.png', serve(Buffer.from('this is not a png at all'), 'image/png'));
  server.route('/gone.png', (_req, res) => void res.writeHead(410).end());
  for (let i = 1; i <= 6; i++) server.route(`/hop${i}`, redirect(i === 6 ? '/ok.png' : `/hop${i + 1}`, i % 2 ? 302 : 301));
  server.route('/relative', redirect('hop5', 307));
  t = await createTestApp({ images: true, env: { IMAGE_MAX_BYTES: String(MAX_BYTES) } });
  s = await t.supplier();
  await batch(t, s, '/batch/brand', [{ internalCode: 'B', name: 'Brand' }]);
  expect((await t.request({ method: 'PUT', url: '/category', headers: s.headers, payload: { internalCode: 'C', name: 'Category' } })).statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
  await server.close();
});

/** Saves a product using `path` as its image (the batch item completes) and returns its settled GET. */
async function productWith(code: string, path: string) {
  await batch(t, s, '/batch/product', [{ internalCode: code, name: code, brandInternalCode: 'B', categoryInternalCode: 'C', image: server.url(path) }]);
  return untilSettled(() => getJson(t, s, `/product/${code}`), (p) => p.imageStatus);
}

describe('image failures', () => {
  it.each([
    ['a 404', '/nowhere.png', /^the server answered 404$/],
    ['a 410', '/gone.png', /^the server answered 410$/],
    ['an HTML page', '/page.html', /^not an image: the content type is "text\/html"$/],
    ['an answer without a content type', '/untyped.png', /^not an image: the content type is missing$/],
    ['a file over IMAGE_MAX_BYTES by its Content-Length', '/large.png', new RegExp(`^too large: \\d+ bytes, the limit is ${MAX_BYTES}$`)],
    ['a file over IMAGE_MAX_BYTES found while reading', '/large-chunked.png', new RegExp(`^too large: more than ${MAX_BYTES} bytes$`)],
    ['bytes that are not an image', '/garbage.png', /^not a readable image: /],
    ['more than five redirects', '/hop1', /^more than 5 redirects$/],
  ])('%s fails the image for good, never the product', async (_what, path, reason) => {
    const code = `P${path.replace(/\W/g, '-')}`;
    const p = await productWith(code, path);
    expect(p).toMatchObject({ internalCode: code, image: server.url(path), imageStatus: 'failed', imageUrls: null });
    expect(p.imageError).toMatch(reason);
    const row = await t.deps.db.selectFrom('images').select(['status', 'error', 'attempts', 'lease_owner']).where('url', '=', server.url(path)).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'failed', error: p.imageError, attempts: 1, lease_owner: null });
  });

  it('follows up to five redirects, relative ones too', async () => {
    const p = await productWith('P-REDIRECTED', '/hop2');
    expect(p).toMatchObject({ imageStatus: 'ready', imageError: null });
    expect((await productWith('P-RELATIVE', '/relative')).imageUrls).toEqual(p.imageUrls);
  });

  it('retries a server error later, keeping the reason while pending', async () => {
    let up = false;
    server.route('/flaky.png', (req, res) => (up ? serve(small, 'image/png')(req, res) : void res.writeHead(503).end()));
    await batch(t, s, '/batch/product', [{ internalCode: 'P-FLAKY', name: 'Flaky', brandInternalCode: 'B', categoryInternalCode: 'C', image: server.url('/flaky.png') }]);
    const url = server.url('/flaky.png');
    const scheduled = await untilSettled(
      () => sql<{ attempts: number; error: string | null; wait: number }>`
        select attempts, error, extract(epoch from next_attempt_at - now())::float8 as wait from images where url = ${url}`.execute(t.deps.db),
      (r) => (r.rows[0]?.attempts === 1 && r.rows[0].error ? 'retrying' : 'pending'),
    );
    expect(scheduled.rows[0]).toMatchObject({ attempts: 1, error: 'the server answered 503' });
    expect(scheduled.rows[0]!.wait).toBeGreaterThan(20);
    expect(await getJson(t, s, '/product/P-FLAKY')).toMatchObject({ imageStatus: 'pending', imageUrls: null, imageError: 'the server answered 503' });

    // The next attempt is due (moved forward rather than waiting the 30 s), and the server is back.
    up = true;
    await sql`update images set next_attempt_at = now() where url = ${url}`.execute(t.deps.db);
    const p = await untilSettled(() => getJson(t, s, '/product/P-FLAKY'), (x) => x.imageStatus);
    expect(p).toMatchObject({ imageStatus: 'ready', imageError: null });
    expect(server.hits('/flaky.png')).toBe(2);
  });

  it('gives up on a transient failure after five attempts', async () => {
    server.route('/down.png', (_req, res) => void res.writeHead(502).end());
    await batch(t, s, '/batch/product', [{ internalCode: 'P-DOWN', name: 'Down', brandInternalCode: 'B', categoryInternalCode: 'C', image: server.url('/down.png') }]);
    const url = server.url('/down.png');
    for (let attempt = 1; attempt < 5; attempt++) {
      await untilSettled(async () => server.hits('/down.png'), (n) => (n < attempt ? 'pending' : 'done'));
      await untilSettled(
        () => t.deps.db.selectFrom('images').select(['lease_owner']).where('url', '=', url).executeTakeFirstOrThrow(),
        (r) => (r.lease_owner ? 'pending' : 'released'),
      );
      await sql`update images set next_attempt_at = now() where url = ${url}`.execute(t.deps.db);
    }
    const p = await untilSettled(() => getJson(t, s, '/product/P-DOWN'), (x) => x.imageStatus);
    expect(p).toMatchObject({ imageStatus: 'failed', imageError: 'gave up after 5 attempts: the server answered 502' });
    expect(server.hits('/down.png')).toBe(5);
  });
});
