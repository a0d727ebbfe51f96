// The image worker's claims: concurrent workers never process one image twice (SKIP
// LOCKED; real contention on PostgreSQL), an expired lease is taken over, a live one is
// left alone, and stopping mid-download gives the image back without counting the try.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageWorker } from '../../src/modules/images/images.worker.ts';
import { createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { batch, getJson, makeImage, serve, startImageServer, untilSettled, type ImageServer } from './helpers.ts';

const quiet = { info() {}, warn() {}, error: (obj: object, msg: string) => console.error(msg, obj) };

let t: TestApp;
let s: TestSupplier;
let server: ImageServer;
let png: Buffer;

beforeAll(async () => {
  png = await makeImage(240, 160, 'png');
  server = await startImageServer();
  t = await createTestApp({ images: { concurrency: 4 } });
  s = await t.supplier();
  await batch(t, s, '/batch/brand', [{ internalCode: 'B', name: 'Brand' }]);
  await t.request({ method: 'PUT', url: '/category', headers: s.headers, payload: { internalCode: 'C', name: 'Category' } });
});
afterAll(async () => {
  await t.close();
  await server.close();
});

const rowOf = (url: string) =>
  t.deps.db.selectFrom('images').select(['status', 'attempts', 'lease_owner', 'error']).where('url', '=', url).executeTakeFirstOrThrow();

describe('the image worker', () => {
  it('processes each image once with two workers competing for them', async () => {
    const second = createImageWorker(t.deps.db, t.config, quiet, { concurrency: 4 });
    second.start();
    try {
      const paths = Array.from({ length: 24 }, (_, i) => `/many-${i}.png`);
      for (const p of paths) server.route(p, serve(png, 'image/png'));
      await batch(
        t,
        s,
        '/batch/product',
        paths.map((p, i) => ({ internalCode: `P-${i}`, name: `P ${i}`, brandInternalCode: 'B', categoryInternalCode: 'C', image: server.url(p), images: [server.url(p)] })),
      );
      await untilSettled(
        () => sql<{ status: string }>`select status from images where url like ${`${server.origin}/many-%`}`.execute(t.deps.db),
        (r) => r.rows.map((x) => x.status),
      );
      expect(paths.map((p) => server.hits(p))).toEqual(paths.map(() => 1));
      const rows = await sql<{ n: number }>`select count(*)::int as n from images where url like ${`${server.origin}/many-%`} and status = 'ready' and attempts = 1`.execute(t.deps.db);
      expect(rows.rows[0]?.n).toBe(paths.length);
    } finally {
      await second.close();
    }
  });

  it("takes over an expired lease and leaves a live one alone", async () => {
    server.route('/expired.png', serve(png, 'image/png'));
    server.route('/held.png', serve(png, 'image/png'));
    await t.deps.db.transaction().execute(async (trx) => {
      await sql`insert into images (supplier_id, url, attempts, lease_owner, lease_expires_at) values
        (${s.id}, ${server.url('/expired.png')}, 1, 'crashed-worker', now() - interval '1 second'),
        (${s.id}, ${server.url('/held.png')}, 1, 'busy-worker', now() + interval '1 hour')`.execute(trx);
    });
    await untilSettled(() => rowOf(server.url('/expired.png')), (r) => r.status);
    expect(await rowOf(server.url('/expired.png'))).toEqual({ status: 'ready', attempts: 2, lease_owner: null, error: null });
    expect(await rowOf(server.url('/held.png'))).toEqual({ status: 'pending', attempts: 1, lease_owner: 'busy-worker', error: null });
    expect(server.hits('/held.png')).toBe(0);
  });

  it('fails an image whose earlier attempts all died with their process', async () => {
    server.route('/poison.png', serve(png, 'image/png'));
    await sql`insert into images (supplier_id, url, attempts) values (${s.id}, ${server.url('/poison.png')}, 5)`.execute(t.deps.db);
    await untilSettled(() => rowOf(server.url('/poison.png')), (r) => r.status);
    expect(await rowOf(server.url('/poison.png'))).toMatchObject({ status: 'failed', error: 'gave up after 5 attempts that did not finish' });
    expect(server.hits('/poison.png')).toBe(0);
  });

  it('gives the image back when stopped mid-download, and a new worker finishes it', async () => {
    const url = server.url('/stuck.png');
    let answer: (() => void) | undefined;
    server.route('/stuck.png', (req, res) => {
      answer = () => serve(png, 'image/png')(req, res);
    });
    await batch(t, s, '/batch/brand', [{ internalCode: 'B-STUCK', name: 'Stuck', image: url }]);
    await untilSettled(async () => server.hits('/stuck.png'), (n) => (n === 0 ? 'pending' : 'started'));
    await t.images!.stop();
    expect(await rowOf(url)).toEqual({ status: 'pending', attempts: 0, lease_owner: null, error: null });
    answer?.();

    server.route('/stuck.png', serve(png, 'image/png'));
    t.images!.start();
    const brand = await untilSettled(() => getJson(t, s, '/brand/B-STUCK'), (b) => b.imageStatus);
    expect(brand).toMatchObject({ imageStatus: 'ready' });
    expect(await rowOf(url)).toMatchObject({ attempts: 1 });
  });
});
