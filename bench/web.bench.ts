// `npm run bench:web`: the shop's catalog page on a cheap phone over a slow mobile
// network. Starts the service (`serve`, embedded PGlite in a temporary folder, so it gets
// the demo catalog, store and user), signs in through the real code in its log, then
// loads the catalog in Debian's Chromium with 4x CPU throttling and a slow-4G profile
// (CDP Emulation.setCPUThrottlingRate and Network.emulateNetworkConditions), cold and
// warm (service worker and HTTP cache), and prints the time to first render (first
// contentful paint) and to an interactive catalog (product cards shown, "Add" usable).
// Then Lighthouse 12 (bench/lighthouse.ts), three cold runs a page, on the sign-in page and
// the signed-in catalog, cart (with lines in it) and orders (with orders placed), and a
// table of the medians against the targets of issue 34: performance >= 90, LCP <= 2.5 s,
// TBT <= 200 ms, CLS <= 0.05. A missed target makes the exit code 1.
// BENCH_WEB_REPORTS=<folder> keeps each run's Lighthouse JSON report there (its
// opportunities and diagnostics); BENCH_WEB_PAGES=catalog,cart runs only those pages.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { lighthouseTable, runLighthouse, verdicts, type LighthousePage } from './lighthouse.ts';
import { freePort } from '../support/net.ts';
import { waitFor } from '../support/wait.ts';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// Slow 4G as Chrome's DevTools defines it: 150 ms RTT, ~1.6 Mbit/s down, ~750 kbit/s up.
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-bench-web-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let log = '';
const service = spawn(process.execPath, ['--max-semi-space-size=32', '--import', 'tsx', 'src/main/cli.ts', 'serve'], {
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, NODE_ENV: 'development', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
service.stdout.on('data', (d) => (log += d));
service.stderr.on('data', (d) => (log += d));

const until = <T>(what: string, fn: () => T | undefined | Promise<T | undefined>) => waitFor(() => `${what}\n${log}`, fn, 300_000, 200);

try {
  await until('the demo catalog', () => (log.includes('sign in with') ? true : undefined));
  const phone = /sign in with\s+(\+\d+)/.exec(log)![1]!;
  // A new code ends every earlier one: read only what the log says after this request.
  const mark = log.length;
  await fetch(`${base}/app/auth/code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone }) });
  const code = await until('the sign-in code', () => new RegExp(`message for \\${phone} \\(phone\\): \\D*(\\d{6})`).exec(log.slice(mark))?.[1]);
  const token = await (await fetch(`${base}/app/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone, code }) })).json();
  const auth = { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' };
  const me = await (await fetch(`${base}/app/me`, { headers: auth })).json();
  const storeId = Number(me.stores[0].id);

  // The catalog as a buyer sees it: the first page's pictures stored by the image worker.
  const catalog = await until('the demo pictures', async () => {
    const answer = await (await fetch(`${base}/app/stores/${storeId}/catalog?take=8`, { headers: auth })).json();
    return answer.data.length > 0 && answer.data.every((p: { imageUrls: unknown }) => p.imageUrls) ? answer.data : undefined;
  });
  // A cart of five lines and two orders placed, so the cart and orders pages have something to show.
  const lines = catalog.slice(0, 5).map((p: { internalCode: string; sizes: { units: number }[] }) => ({ productInternalCode: p.internalCode, units: p.sizes[0]!.units, quantity: 2 }));
  // Ten of each line in an order: above the demo store's minimum order.
  for (const placed of [lines, lines.slice(1)]) {
    const body = JSON.stringify({ lines: placed.map((l: object) => ({ ...l, quantity: 10 })) });
    const answer = await fetch(`${base}/app/stores/${storeId}/orders`, { method: 'POST', headers: auth, body });
    if (!answer.ok) throw new Error(`placing an order: ${answer.status} ${await answer.text()}`);
  }

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'es-CO', baseURL: base });
  // Signed in already, as a returning buyer is.
  await context.addInitScript(
    ([t, s]) => {
      localStorage.setItem('surtido.shop.token', t);
      localStorage.setItem('surtido.shop.expiresAt', String(Date.now() + 3_600_000));
      localStorage.setItem('surtido.shop.storeId', s);
    },
    [token.access_token, String(me.stores[0].id)],
  );
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);

  const rows: string[] = [];
  for (const visit of ['cold', 'warm', 'warm']) {
    const start = Date.now();
    await page.goto('/shop/catalog', { waitUntil: 'commit' });
    await page.locator('[data-product] button').first().waitFor({ state: 'visible', timeout: 120_000 });
    const interactive = Date.now() - start;
    const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN);
    const bytes = await page.evaluate(() => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => /\.(js|css)$/.test(r.name)).reduce((s, r) => s + r.transferSize, 0));
    rows.push(`${visit.padEnd(6)} first render ${Math.round(fcp)} ms   interactive catalog ${interactive} ms   JS+CSS transferred ${(bytes / 1024).toFixed(1)} KB`);
  }
  console.log('Catalog page, 360x740 phone, 4x CPU throttling, slow 4G (150 ms RTT, 1.6 Mbit/s):');
  for (const row of rows) console.log(`  ${row}`);
  await browser.close();

  const session = {
    'surtido.shop.language': 'es',
    'surtido.shop.token': token.access_token,
    'surtido.shop.expiresAt': String(Date.now() + 3_600_000),
    'surtido.shop.storeId': String(storeId),
  };
  const cart = { ...session, [`surtido.shop.cart.${storeId}`]: JSON.stringify(lines) };
  const store = `/app/stores/${storeId}`;
  const pages: LighthousePage[] = [
    { name: 'sign-in', path: '/shop/sign-in', storage: { 'surtido.shop.language': 'es' }, asks: /\/app\/auth\/settings/ },
    { name: 'catalog', path: '/shop/catalog', storage: session, asks: new RegExp(`${store}/catalog\\?`) },
    { name: 'cart', path: '/shop/cart', storage: cart, asks: new RegExp(`${store}/cart$`) },
    { name: 'orders', path: '/shop/orders', storage: session, asks: new RegExp(`${store}/orders\\?`) },
  ];
  const only = process.env.BENCH_WEB_PAGES?.split(',');
  const reportDir = process.env.BENCH_WEB_REPORTS;
  if (reportDir) fs.mkdirSync(reportDir, { recursive: true });
  const results = await runLighthouse(
    base,
    pages.filter((p) => !only || only.includes(p.name)),
    { reportDir },
  );
  console.log('\nLighthouse 12.2.3, mobile (simulated slow 4G, 4x CPU), median of three cold runs (Debian\'s Chromium):');
  console.log(lighthouseTable(results));
  if (results.some((r) => Object.values(verdicts(r.median)).includes(false))) process.exitCode = 1;
} finally {
  service.kill('SIGTERM');
  await new Promise((r) => service.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
