// The first load's budget: every JavaScript and CSS file the sign-in page and the catalog
// page load (the entry, its static imports, the two pages' chunks and theirs), compressed
// as the API serves them (brotli), is at most 170 KB. Read from the build's manifest.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../src/main/web-build.ts';

const BUDGET = 170 * 1024;
interface Chunk {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

let shop: string;
let manifest: Record<string, Chunk>;

beforeAll(async () => {
  shop = path.join(await ensureWebBuild(), 'shop');
  manifest = JSON.parse(fs.readFileSync(path.join(shop, '.vite/manifest.json'), 'utf8'));
}, 240_000);

/** The files a chunk needs: itself, its CSS and its static imports, recursively. */
function filesOf(key: string, seen = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`no chunk ${key} in the build manifest`);
  seen.add(chunk.file);
  for (const css of chunk.css ?? []) seen.add(css);
  for (const imported of chunk.imports ?? []) if (!seen.has(manifest[imported]!.file)) filesOf(imported, seen);
  return seen;
}

function firstLoadFiles(): string[] {
  const files = new Set<string>();
  for (const key of ['index.html', 'routes/sign-in.tsx', 'routes/catalog.tsx']) for (const f of filesOf(key)) files.add(f);
  return [...files];
}

describe('the shop first-load budget', () => {
  it(`sign-in and catalog pages load at most ${BUDGET / 1024} KB of JS and CSS, compressed as served`, () => {
    const files = firstLoadFiles();
    expect(files.some((f) => f.endsWith('.css'))).toBe(true);
    expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThanOrEqual(3);
    const sizes = files.map((f) => ({ f, br: fs.statSync(path.join(shop, `${f}.br`)).size }));
    const total = sizes.reduce((s, x) => s + x.br, 0);
    console.log(`first load: ${(total / 1024).toFixed(1)} KB brotli in ${files.length} files`);
    expect(total).toBeLessThanOrEqual(BUDGET);
  });

  it('every served text file has its brotli and gzip twins', () => {
    for (const f of firstLoadFiles().concat('index.html', 'sw.js', 'manifest.webmanifest')) {
      expect(fs.existsSync(path.join(shop, `${f}.br`)), f).toBe(true);
      expect(fs.existsSync(path.join(shop, `${f}.gz`)), f).toBe(true);
    }
  });

  it('ships the PWA manifest and its icons', () => {
    const pwa = JSON.parse(fs.readFileSync(path.join(shop, 'manifest.webmanifest'), 'utf8'));
    expect(pwa).toMatchObject({ start_url: '/shop/', scope: '/shop/', display: 'standalone' });
    for (const icon of pwa.icons) expect(fs.existsSync(path.join(shop, icon.src.replace('/shop/', ''))), icon.src).toBe(true);
  });
});
