// The shop and the console are built together but load apart: each index.html loads only
// its own folder's files, and neither app's JavaScript carries the other's code (its
// words, its client's routes), so a phone never downloads the console nor the reverse.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../src/main/web-build.ts';

let build: string;
const js = (app: string) =>
  fs
    .readdirSync(path.join(build, app, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => fs.readFileSync(path.join(build, app, 'assets', f), 'utf8'))
    .join('\n');

beforeAll(async () => {
  build = await ensureWebBuild();
}, 240_000);

describe('the shop and the console, apart', () => {
  it("each index.html loads only its own app's files", () => {
    for (const [app, other] of [['shop', 'console'], ['console', 'shop']] as const) {
      const html = fs.readFileSync(path.join(build, app, 'index.html'), 'utf8');
      const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((r) => r.includes('/assets/'));
      expect(refs.length, app).toBeGreaterThan(0);
      for (const ref of refs) expect(ref, app).toMatch(new RegExp(`^/${app}/assets/`));
      expect(html).not.toContain(`/${other}/assets/`);
    }
  });

  it("neither app's JavaScript carries the other's code", () => {
    const shop = js('shop');
    const consoleJs = js('console');
    // The console's words and calls are not in the shop...
    for (const s of ['Credenciales de la API', '/webhook/deliveries', '/console/auth/code']) expect(shop, s).not.toContain(s);
    // ...nor the shop's in the console.
    for (const s of ['Hacer el pedido', 'Tu carrito está vacío.', '/app/auth/code']) expect(consoleJs, s).not.toContain(s);
    expect(consoleJs).toContain('/console/auth/code');
    expect(shop).toContain('/app/auth/code');
  });
});
