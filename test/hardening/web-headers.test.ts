// The web apps' security headers (src/http/web.routes.ts): every answer under /shop/ and
// /console/ (pages, assets, the SPA's fallback, a missing file) carries a
// Content-Security-Policy that allows scripts, styles and connections from the service
// only, images from the service (and its PUBLIC_URL), no framing at all, and
// `X-Content-Type-Options: nosniff`. The real build holds no inline script or style, so the
// policy needs no 'unsafe-inline' and no hashes; the browser tests (web/e2e) run with it on.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../src/main/web-build.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-headers-'));
  for (const app of ['shop', 'console']) {
    fs.mkdirSync(path.join(dir, app, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(dir, app, 'index.html'), `<!doctype html><title>${app}</title><div id="root"></div>`);
    fs.writeFileSync(path.join(dir, app, 'assets/index-AbC123.js'), 'console.log(1);');
  }
  // Images are addressed from PUBLIC_URL, which a deployment may give another origin.
  t = await createTestApp({ worker: false, webBuildDir: dir, env: { PUBLIC_URL: 'https://shop.example.com' } });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The policy's directives by name. */
function directives(header: unknown): Map<string, string[]> {
  expect(typeof header, 'a Content-Security-Policy header').toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('the web apps answer with', () => {
  const paths = ['/shop/', '/shop/index.html', '/shop/assets/index-AbC123.js', '/shop/catalog/1', '/shop/assets/gone-000.js', '/console/', '/console/orders', '/console/assets/index-AbC123.js', '/console/nothing.txt'];

  it('a Content-Security-Policy: self only for scripts, styles and connections, no framing, no inline code', async () => {
    for (const url of paths) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([200, 404], url).toContain(res.statusCode);
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('default-src'), url).toEqual(["'self'"]);
      expect(csp.get('script-src'), url).toEqual(["'self'"]);
      expect(csp.get('style-src'), url).toEqual(["'self'"]);
      expect(csp.get('connect-src'), url).toEqual(["'self'"]);
      expect(csp.get('img-src'), url).toEqual(["'self'", 'https://shop.example.com']);
      expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(csp.get('object-src'), url).toEqual(["'none'"]);
      expect(csp.get('base-uri'), url).toEqual(["'self'"]);
      expect(String(res.headers['content-security-policy']), url).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    }
  });

  it('X-Content-Type-Options: nosniff, on pages, assets and missing files alike', async () => {
    for (const url of paths) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('the same headers when the apps are not built yet (503)', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'web-headers-empty-'));
    const bare = await createTestApp({ worker: false, webBuildDir: empty });
    try {
      const res = await bare.app.inject({ method: 'GET', url: '/shop/' });
      expect(res.statusCode).toBe(503);
      expect(directives(res.headers['content-security-policy']).get('frame-ancestors')).toEqual(["'none'"]);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    } finally {
      await bare.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('the real build', () => {
  it('has no inline script, style or event handler in its pages, so the policy needs no exception', { timeout: 300_000 }, async () => {
    const build = await ensureWebBuild();
    for (const app of ['shop', 'console']) {
      const html = fs.readFileSync(path.join(build, app, 'index.html'), 'utf8');
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
      expect(scripts.length, app).toBeGreaterThan(0);
      for (const [, attributes, body] of scripts) {
        expect(attributes, app).toMatch(/\bsrc="\/[^"]+"/);
        expect(body!.trim(), app).toBe('');
      }
      expect(html, app).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=|javascript:/i);
      // Every stylesheet, script and icon it names is the service's own.
      for (const [, url] of html.matchAll(/\b(?:src|href)="([^"]+)"/g)) expect(url, app).toMatch(/^\/(shop|console)\//);
    }
  });
});
