// The web apps' serving (src/http/web.routes.ts) over a build folder made here: compressed
// answers, long caching for hashed files only, the SPA fallback, / redirecting browsers,
// and the shop and the console each from its own folder, the console's API routes kept.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { webRoutes } from '../../src/http/web.routes.ts';

let t: TestApp;
let dir: string;
const js = 'console.log("hello shop");'.repeat(50);
const consoleJs = 'console.log("hello console");'.repeat(50);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-build-'));
  const write = (app: string, rel: string, body: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, app, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, app, rel), body);
    fs.writeFileSync(path.join(dir, app, `${rel}.br`), zlib.brotliCompressSync(body));
    fs.writeFileSync(path.join(dir, app, `${rel}.gz`), zlib.gzipSync(body));
  };
  write('shop', 'index.html', '<!doctype html><title>Surtido</title><div id="root"></div>');
  write('shop', 'assets/index-AbC123.js', js);
  fs.writeFileSync(path.join(dir, 'shop/icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  write('console', 'index.html', '<!doctype html><title>Surtido console</title><div id="console-root"></div>');
  write('console', 'assets/index-CoN456.js', consoleJs);
  // The real app: the console's pages beside its API routes.
  t = await createTestApp({ worker: false, webBuildDir: dir });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('serving the web apps', () => {
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

  it('serves the console under /console/ from its own folder, the same way', async () => {
    for (const url of ['/console/', '/console/orders', '/console/orders/12', '/console/admin/suppliers']) {
      const res = await get(url, { 'accept-encoding': 'br' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toContain('<div id="console-root">');
    }
    const asset = await get('/console/assets/index-CoN456.js', { 'accept-encoding': 'gzip' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.gunzipSync(asset.rawPayload).toString()).toBe(consoleJs);
    // Neither app answers the other's files.
    expect((await get('/shop/assets/index-CoN456.js')).statusCode).toBe(404);
    expect((await get('/console/assets/index-AbC123.js')).statusCode).toBe(404);
    expect((await get('/console')).headers.location).toBe('/console/');
  });

  it("keeps the console's API routes: the page wildcard does not shadow them", async () => {
    const me = await get('/console/me');
    expect(me.statusCode).toBe(401);
    expect(me.headers['content-type']).toMatch(/json/);
    const code = await t.app.inject({ method: 'POST', url: '/console/auth/code', payload: { email: 'nobody@example.com' } });
    expect(code.statusCode).toBe(202);
  });

  it('answers 404 for a missing file, never the page', async () => {
    expect((await get('/shop/assets/gone-XyZ.js')).statusCode).toBe(404);
    expect((await get('/shop/nothing.png')).statusCode).toBe(404);
    expect((await get('/console/assets/gone-XyZ.js')).statusCode).toBe(404);
  });

  it('sends a browser from / to the shop; an API client gets JSON', async () => {
    const browser = await get('/', { accept: 'text/html,application/xhtml+xml' });
    expect(browser.statusCode).toBe(302);
    expect(browser.headers.location).toBe('/shop/');
    const client = await get('/', { accept: 'application/json' });
    expect(client.json()).toMatchObject({ shop: '/shop/', console: '/console/' });
    expect((await get('/shop')).headers.location).toBe('/shop/');
  });

  it('answers 503 with a problem when there is no build', async () => {
    const Fastify = (await import('fastify')).default;
    const app = Fastify();
    await app.register(webRoutes(t.deps, path.join(dir, 'missing')));
    for (const url of ['/shop/catalog', '/console/orders']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('SERVICE_UNAVAILABLE');
    }
    await app.close();
  });
});
