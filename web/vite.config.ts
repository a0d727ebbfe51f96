// The web apps' builds (src/main/web-build.ts runs them): the shop (this file's default,
// base /shop/) and the console (vite.console.config.ts, base /console/), each from its own
// folder with its own entry, so neither ever loads the other's code. `npm run dev` serves
// the shop with hot reload (`npx vite --config web/vite.console.config.ts` the console),
// sending the API's paths to the service at SURTIDO_API, default http://127.0.0.1:3000.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfigFnObject } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const api = process.env.SURTIDO_API ?? 'http://127.0.0.1:3000';

export type WebApp = 'shop' | 'console';

/** The API paths each app's dev server sends to the service. */
const PROXIED: Record<WebApp, string[]> = {
  shop: ['/app', '/images', '/dev'],
  console: ['/console/auth', '/console/me', '/console/session', '/order', '/supplier', '/webhook', '/member', '/credential', '/admin', '/dev'],
};

export function webAppConfig(app: WebApp): UserConfigFnObject {
  return defineConfig(({ command }) => ({
    root: path.join(here, app),
    base: `/${app}/`,
    plugins: [react()],
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
      reportCompressedSize: false,
    },
    server: {
      port: app === 'shop' ? 5173 : 5174,
      proxy: Object.fromEntries(PROXIED[app].map((p) => [p, { target: api, changeOrigin: true }])),
    },
  }));
}

export default webAppConfig('shop');
