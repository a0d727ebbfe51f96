// The shop's serving (src/http/shop.routes.ts) over a build folder made here: compressed
// answers, long caching for hashed files only, the SPA fallback, and / redirecting browsers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { shopRoutes } from '../../src/http/shop.routes.ts';

let t: TestApp;
let dir: string;
const js = 'console.log("hello shop");'.repeat(50);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-build-'));
  fs.mkdirSync(path.join(dir, 'shop/assets'), { recursive: true });
  const write = (rel: string, body: string) => {
    fs.writeFileSync(path.join(dir, 'shop', rel), body);
    fs.writeFileSync(path.join(dir, 'shop', `${rel}.br`), zlib.brotliCompressSync(body));
    fs.writeFileSync(path.join(dir, 'shop', `${rel}.gz`), zlib.gzipSync(body));
  };
  write('index.html', '<!doctype html><title>Surtido</title><div id="root"></div>');
  write('assets/index-AbC123.js', js);
  fs.writeFileSync(path.join(dir, 'shop/icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  t = await createTestApp({ worker: false });
  // A second registration over the fixture build, under its own prefix.
  await t.app.close();
  const Fastify = (await import('fastify')).default;
  const app = Fastify();
  await app.register(shopRoutes(t.deps, dir));
  t.app = app as never;
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('serving the shop', () => {
  it('answers hashed assets compressed as the browser accepts, cached for a year', async () => {
    const br = await get('/shop/assets/index-AbC123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(js);
    const gz = await get('/shop/assets/index-AbC123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(js);
    const plain = await get('/shop/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(js);
    expect(plain.headers['content-type']).toMatch(/^text\/javascript/);
  });

  it("answers index.html for the app's own pages (reload works), revalidated on each load", async () => {
    for (const url of ['/shop/', '/shop/catalog', '/shop/orders/12']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
    expect((await get('/shop/icon-192.png')).headers['content-type']).toBe('image/png');
  });

  it('answers 404 for a missing file, never the page', async () => {
    expect((await get('/shop/assets/gone-XyZ.js')).statusCode).toBe(404);
    expect((await get('/shop/nothing.png')).statusCode).toBe(404);
  });

  it('sends a browser from / to the shop; an API client gets JSON', async () => {
    const browser = await get('/', { accept: 'text/html,application/xhtml+xml' });
    expect(browser.statusCode).toBe(302);
    expect(browser.headers.location).toBe('/shop/');
    const client = await get('/', { accept: 'application/json' });
    expect(client.json()).toMatchObject({ shop: '/shop/' });
    expect((await get('/shop')).headers.location).toBe('/shop/');
  });

  it('answers 503 with a problem when there is no build', async () => {
    const Fastify = (await import('fastify')).default;
    const app = Fastify();
    await app.register(shopRoutes(t.deps, path.join(dir, 'missing')));
    const res = await app.inject({ method: 'GET', url: '/shop/catalog' });
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('SERVICE_UNAVAILABLE');
    await app.close();
  });
});
