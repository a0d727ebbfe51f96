// The web apps' builds (src/main/web-build.ts runs them): the shop (this file's default,
// base /shop/) and the console (vite.console.config.ts, base /console/), each from its own
// folder with its own entry, so neither ever loads the other's code. `npm run dev` serves
// the shop with hot reload (`npx vite --config web/vite.console.config.ts` the console),
// sending the API's paths to the service at SURTIDO_API, default http://127.0.0.1:3000.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfigFnObject } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const api = process.env.SURTIDO_API ?? 'http://127.0.0.1:3000';

export type WebApp = 'shop' | 'console';

/** The API paths each app's dev server sends to the service. */
const PROXIED: Record<WebApp, string[]> = {
  shop: ['/app', '/images', '/dev'],
  console: ['/console/auth', '/console/me', '/console/session', '/order', '/supplier', '/webhook', '/member', '/credential', '/admin', '/dev'],
};

/**
 * The shop's early script (web/shop/early.ts) as a file of its own, loaded by the page
 * before the app, with `async`: every module script of an HTML page is bundled into its one
 * entry, which would make the early script wait for the whole app. Before it, the pages'
 * chunks by page (`/catalog`: web/shop/routes/catalog.tsx's chunk and those it imports
 * beyond the entry's) in a <meta> (data, not a script: the policy allows no inline one),
 * which the early script reads to ask for the opening page's too.
 */
function earlyScript(root: string, base: string): Plugin {
  const source = path.join(root, 'early.ts');
  const routes = path.join(root, 'routes') + path.sep;
  return {
    name: 'surtido-early-script',
    config: () => ({ build: { rollupOptions: { input: { index: path.join(root, 'index.html'), early: source } } } }),
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).flatMap((c) => (c.type === 'chunk' ? [c] : []));
        const early = chunks.find((c) => c.isEntry && c.facadeModuleId === source);
        // A page's chunk and the chunks it imports that the app's entry does not.
        const entry = chunks.find((c) => c.isEntry && c.facadeModuleId?.endsWith('index.html'));
        const loaded = new Set([entry?.fileName, ...(entry?.imports ?? [])]);
        const pages = Object.fromEntries(
          chunks.flatMap((c) =>
            c.facadeModuleId?.startsWith(routes)
              ? [[`/${path.basename(c.facadeModuleId, '.tsx')}`, [c.fileName, ...c.imports.filter((i) => !loaded.has(i))].map((f) => `${base}${f}`)]]
              : [],
          ),
        );
        return [
          { tag: 'meta', attrs: { name: 'surtido-pages', content: JSON.stringify(pages) }, injectTo: 'head-prepend' },
          { tag: 'script', attrs: { type: 'module', async: true, crossorigin: true, src: `${base}${early ? early.fileName : 'early.ts'}` }, injectTo: 'head-prepend' },
        ];
      },
    },
  };
}

export function webAppConfig(app: WebApp): UserConfigFnObject {
  return defineConfig(({ command }) => ({
    root: path.join(here, app),
    base: `/${app}/`,
    plugins: [react(), ...(app === 'shop' ? [earlyScript(path.join(here, app), `/${app}/`)] : [])],
    // A build is always the production one, whatever NODE_ENV the building process has (tests run with `test`).
    ...(command === 'build' ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
    resolve: {
      // The project's own typed clients, through their browser entries (no Node built-ins):
      // the shop's is typed by the /app paths only, the console's by what a console session may call.
      alias: {
        'surtido/client': path.join(here, '../src/client/browser.ts'),
        'surtido/console-client': path.join(here, '../src/client/console.ts'),
      },
    },
    build: {
      outDir: path.join(here, `../.web-build/dev/${app}`),
      target: 'es2022',
      assetsInlineLimit: 0,
      // Read by the first-load budget test (test/web/budget.test.ts).
      manifest: true,
      // The libraries in one chunk: a page's first load is the entry, the libraries and the
      // stylesheet, not eight files (four of them under 2 KB), each a round trip on a phone's
      // network and a slot among the six a browser opens (issue 34; docs/benchmarks.md).
      rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'vendor', test: /node_modules/ }] } } },
      reportCompressedSize: false,
    },
    server: {
      port: app === 'shop' ? 5173 : 5174,
      proxy: Object.fromEntries(PROXIED[app].map((p) => [p, { target: api, changeOrigin: true }])),
    },
  }));
}

export default webAppConfig('shop');
