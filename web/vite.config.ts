// The shop's build (src/main/web-build.ts runs it; `npm run dev` serves it with hot reload,
// sending the API's paths to the service at SURTIDO_API, default http://127.0.0.1:3000).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const api = process.env.SURTIDO_API ?? 'http://127.0.0.1:3000';

export default defineConfig(({ command }) => ({
  root: path.join(here, 'shop'),
  base: '/shop/',
  plugins: [react()],
  // A build is always the production one, whatever NODE_ENV the building process has (tests run with `test`).
  ...(command === 'build' ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
  resolve: {
    // The project's own typed client, through its browser entry (no Node built-ins).
    alias: { 'surtido/client': path.join(here, '../src/client/browser.ts') },
  },
  build: {
    outDir: path.join(here, '../.web-build/dev/shop'),
    target: 'es2022',
    assetsInlineLimit: 0,
    // Read by the first-load budget test (test/web/budget.test.ts).
    manifest: true,
    reportCompressedSize: false,
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(['/app', '/images', '/dev'].map((p) => [p, { target: api, changeOrigin: true }])),
  },
}));
