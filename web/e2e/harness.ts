// The browser tests' world: the real service (test app on embedded PGlite, batch worker,
// image worker and webhook dispatcher) listening on a real port with the shop's real
// build, the demo catalog loaded through the supplier API with its pictures (drawn by a
// local image host and made into the service's versions by the image worker), a webhook
// receiver that verifies signatures, and Debian's Chromium driven by playwright-core at a
// phone's size, with the service's Content-Security-Policy on (watchPolicy).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { sql } from 'kysely';
import sharp from 'sharp';
import { demoImageSvg } from '../../src/http/demo-images.routes.ts';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { verifyWebhook, type WebhookEvent } from '../../src/client/index.ts';
import { DEMO_USER, demoImageColour, seedDemoCatalog } from '../../src/main/demo-catalog.ts';
import { ensureWebBuild } from '../../src/main/web-build.ts';
import { as, createTestApp, injectSend, type TestApp, type TestSupplier } from '../../test/helpers/app.ts';
import { freshDatabase, type TestDatabase } from '../../test/helpers/database.ts';
import { logIn } from '../../support/service.ts';
import type { Clock } from '../../src/lib/clock.ts';

// Debian's Chromium as its headless shell (package chromium-headless-shell, built from the
// same source as chromium: the same Blink and V8), which is what Playwright itself runs for
// headless tests. Without the full browser's window machinery, the browser process spent 24
// rather than 59 CPU-s over the browser files, and Chromium in all 137 rather than 180
// (docs/benchmarks.md, "The test suite's time"). The full browser serves where only it is
// installed; Lighthouse (bench/) measures the full browser.
export const CHROMIUM = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => fs.existsSync(file)) ?? '/usr/bin/chromium-headless-shell';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

export interface Shop {
  t: TestApp;
  supplier: TestSupplier;
  baseUrl: string;
  browser: Browser;
  webhooks: WebhookEvent[];
  /** A phone-sized browser context in that language (360x740 unless a viewport is given). */
  phone(locale: string, viewport?: { width: number; height: number }): Promise<BrowserContext>;
  close(): Promise<void>;
}

async function launchChromium(): Promise<Browser> {
  // No skip: a missing browser is a failure that names the fix.
  try {
    return await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  } catch (error) {
    throw new Error(`Chromium could not start from ${CHROMIUM} (install it: apt-get install -y chromium-headless-shell): ${error instanceof Error ? error.message : error}`);
  }
}

/**
 * The worker's Chromium: launched by the first browser file a Vitest worker runs and used by
 * the files after it (a worker runs its files one at a time, in one process), rather than a
 * launch per file, about 0.6 s of CPU each (docs/benchmarks.md, "The test suite's time").
 * Files share nothing in it: each opens its own contexts and closes them when it ends
 * (`closeContexts`); Chromium ends with the worker's process. One that crashed is replaced.
 */
let workerChromium: Promise<Browser> | undefined;
export async function sharedChromium(): Promise<Browser> {
  workerChromium ??= launchChromium().catch((error) => {
    workerChromium = undefined;
    throw error;
  });
  const browser = await workerChromium;
  if (browser.isConnected()) return browser;
  workerChromium = undefined;
  return sharedChromium();
}

/** Closes every context of the worker's Chromium: what a file opened, when the file ends. */
export async function closeContexts(browser: Browser) {
  await Promise.all(browser.contexts().map((context) => context.close()));
}

/** A port free now, so the service's PUBLIC_URL (its image addresses) can name it before it listens. */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

/** The suppliers' image host of the demo: each product's picture, drawn as `npm start`'s /dev/demo-images does. */
export async function startImageHost(): Promise<http.Server> {
  const host = http.createServer((req, res) => {
    const code = (req.url ?? '').replace(/^\//, '').replace(/\.png$/, '');
    const colour = demoImageColour(code);
    if (!colour) return void res.writeHead(404).end();
    sharp(Buffer.from(demoImageSvg(code, colour)))
      .png()
      .toBuffer()
      .then((png) => res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png), () => res.writeHead(500).end());
  });
  await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
  return host;
}

/**
 * `clock`: the service's time (a test that needs a given weekday and hour moves it forward).
 *
 * The demo shop is set up through the API once per run (on PGlite; docs/benchmarks.md, "The
 * test suite's time"): the first file to start one seeds it as below and keeps it, its
 * database dumped, its pictures' data folder and its supplier's credentials, in the folder
 * the run provides (`shopSnapshot`); every other file waits for that and starts its own
 * service on a copy of it. A file with a clock of its own takes the kept shop only if it is
 * there already, else seeds its own (a kept shop must not carry one file's moved time).
 */
export async function startShop(options: { clock?: Clock } = {}): Promise<Shop> {
  await ensureWebBuild();
  const port = await freePort();
  const imageHost = await startImageHost();
  const keptIn = inject('shopSnapshot');
  const kept = !keptIn ? undefined : options.clock ? readKeptShop(keptIn) : claimed(keptIn) ? 'mine' : await waitForKeptShop(keptIn);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-shop-'));
  let t: TestApp;
  let supplier: TestSupplier;
  try {
    if (typeof kept === 'object') fs.cpSync(path.join(keptIn, 'data'), dataDir, { recursive: true });
    const database = await freshDatabase(typeof kept === 'object' ? { from: new Blob([fs.readFileSync(path.join(keptIn, 'database.tar'))]) } : {});
    t = await createTestApp({ database, dispatcher: true, images: { concurrency: 2 }, env: { PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir }, clock: options.clock });
    if (typeof kept === 'object') {
      supplier = { ...kept, ...(await logIn(injectSend(t.app), kept)) };
    } else {
      supplier = await seedShop(t, `http://127.0.0.1:${(imageHost.address() as AddressInfo).port}`);
      if (kept === 'mine') await keepShop(keptIn, database, dataDir, supplier);
    }
  } catch (error) {
    // The files waiting for this one's shop fail with its reason rather than time out.
    if (kept === 'mine') fs.writeFileSync(path.join(keptIn, 'failed'), String(error instanceof Error ? error.stack : error));
    throw error;
  }

  // The supplier's webhook receiver: keeps every verified call.
  const webhooks: WebhookEvent[] = [];
  let secret = '';
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      try {
        webhooks.push(verifyWebhook(secret, Buffer.concat(chunks), req.headers));
        res.writeHead(200).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hook = await t.admin('PUT', `/admin/suppliers/${supplier.id}/webhook`, { baseUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`, enabled: true });
  secret = hook.json().secret;

  await t.app.listen({ port, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${port}`;
  const browser = await sharedChromium();
  return {
    t,
    supplier,
    baseUrl,
    browser,
    webhooks,
    async phone(locale, viewport = PHONE.viewport) {
      // The service's Content-Security-Policy is on, as in a buyer's browser.
      return watchedContext(browser, { ...PHONE, viewport, locale, baseURL: baseUrl });
    },
    async close() {
      await closeContexts(browser);
      await new Promise((r) => receiver.close(r));
      await new Promise((r) => imageHost.close(r));
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The shop of one browser test file: started before its tests in the PGlite pass (then
 * `material`, what the file adds to it), closed after them. The object is filled in when the
 * shop has started, so the file keeps it in a constant and uses it from its tests.
 */
export function shopWorld(options: { clock?: Clock; material?: (shop: Shop) => Promise<void> } = {}): Shop {
  const shop = {} as Shop;
  beforeAll(async () => {
    if (process.env.DATABASE_URL) return;
    Object.assign(shop, await startShop({ clock: options.clock }));
    await options.material?.(shop);
  }, 300_000);
  afterAll(async () => {
    await shop.close?.();
  });
  return shop;
}

/** The demo catalog through the supplier API, its pictures drawn by `imageBase` and made into the service's versions. */
async function seedShop(t: TestApp, imageBase: string): Promise<TestSupplier> {
  const supplier = await t.supplier('DEMO');
  await seedDemoCatalog(
    (method, url, body) =>
      as(t, supplier, method, url, body).then((r) => {
        if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body}`);
        return r.json();
      }),
    async (ids) => {
      const statuses = await t.waitForBatches(supplier, ids);
      for (const s of statuses) if (s.failed > 0) throw new Error(`seed batch failed: ${JSON.stringify(s)}`);
    },
    { imageBase },
  );
  // Every picture made into the service's versions before a page shows it.
  for (const deadline = Date.now() + 120_000; ; ) {
    const { rows } = await sql<{ status: string; n: number }>`select status, count(*)::int as n from images group by status`.execute(t.deps.db);
    if (rows.some((r) => r.status === 'failed')) throw new Error(`demo images failed: ${JSON.stringify(rows)}`);
    if (rows.length > 0 && rows.every((r) => r.status === 'ready')) break;
    if (Date.now() > deadline) throw new Error(`demo images not ready: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return supplier;
}

/**
 * The kept shop's supplier: its id, code and credentials (each file logs in for its own
 * token). Its pictures name the keeper's image host, gone after that file: the copies have
 * them ready and never fetch them again.
 */
type KeptShop = Pick<TestSupplier, 'id' | 'code' | 'apiKey' | 'clientId' | 'clientSecret'>;

/** Whether this file is the one to keep the shop: the first to make the folder. */
function claimed(folder: string): boolean {
  try {
    fs.mkdirSync(folder);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** The kept shop once its keeper wrote it (`supplier.json` is written last), else undefined; a keeper's failure is thrown. */
function readKeptShop(folder: string): KeptShop | undefined {
  const failed = path.join(folder, 'failed');
  if (fs.existsSync(failed)) throw new Error(`the file that set up the demo shop failed: ${fs.readFileSync(failed, 'utf8')}`);
  const file = path.join(folder, 'supplier.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as KeptShop) : undefined;
}

async function waitForKeptShop(folder: string): Promise<KeptShop> {
  for (const deadline = Date.now() + 180_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const kept = readKeptShop(folder);
    if (kept) return kept;
  }
  throw new Error(`the demo shop was not kept in ${folder} within 180 s`);
}

async function keepShop(folder: string, database: TestDatabase, dataDir: string, supplier: TestSupplier) {
  await sql`checkpoint`.execute(database.db);
  fs.writeFileSync(path.join(folder, 'database.tar'), Buffer.from(await (await database.dump!()).arrayBuffer()));
  fs.cpSync(dataDir, path.join(folder, 'data'), { recursive: true });
  const { id, code, apiKey, clientId, clientSecret } = supplier;
  fs.writeFileSync(path.join(folder, 'supplier.json.part'), JSON.stringify({ id, code, apiKey, clientId, clientSecret } satisfies KeptShop));
  fs.renameSync(path.join(folder, 'supplier.json.part'), path.join(folder, 'supplier.json'));
}

/**
 * The sign-in code the service sent: today the test notifier's memory. The one place to
 * change when the development mailbox (GET /dev/mailbox) becomes the source.
 */
export async function signInCode(shop: Shop, to: string): Promise<string> {
  return shop.t.notifier.waitForCode(to);
}

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** What Chromium reported breaking the Content-Security-Policy in each watched context's pages. */
const policyViolations = new WeakMap<BrowserContext, string[]>();

/**
 * Keeps the Content-Security-Policy violations of the context's pages (Chromium reports
 * each as a console error): axeViolations lists them, so every accessibility check of a
 * page also checks that nothing the apps need was blocked.
 */
export function watchPolicy(context: BrowserContext): BrowserContext {
  const seen: string[] = [];
  policyViolations.set(context, seen);
  context.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) seen.push(m.text());
  });
  return context;
}

/**
 * Holds back every request of `page` to an address matching `url` (a page's code, as on a
 * slow network) until the answer is called: then they, and any after, go through.
 */
export async function holdBack(page: Page, url: RegExp): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * axe-core in the page: the serious and critical violations, and the Content-Security-Policy
 * violations of the page's context (watchPolicy); an empty list passes.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the browser's protocol, which the page's policy does not govern (a
  // <script> tag of it would be refused: the apps allow scripts from the service only).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return [
    ...result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ...(policyViolations.get(page.context()) ?? []).map((text) => `content-security-policy: ${text}`),
  ];
}

/**
 * The demo buyer's session put on the phone as signing in leaves it, without a code (a token
 * an operator mints; sign-in codes are 5 an hour per number and the sign-in tests need
 * theirs): on the sign-in page, its token, expiry, store and, when given, language put in
 * localStorage. Answers the token and the store's id.
 */
export async function putSession(shop: Shop, page: Page, language?: string): Promise<{ token: string; storeId: number }> {
  const { token, expiresAt, storeId } = await demoBuyerSession(shop);
  await page.goto('/shop/sign-in');
  await page.getByLabel(/Celular o correo/).waitFor();
  await page.evaluate(
    ([token, expiresAt, storeId, language]) => {
      localStorage.setItem('surtido.shop.token', token!);
      localStorage.setItem('surtido.shop.expiresAt', expiresAt!);
      localStorage.setItem('surtido.shop.storeId', storeId!);
      if (language) localStorage.setItem('surtido.shop.language', language);
    },
    [token, expiresAt, String(storeId), language ?? ''],
  );
  return { token, storeId };
}

/** A session of the demo buyer an operator mints (no sign-in code): its token, its end as the shop keeps it, and the buyer's store. */
export async function demoBuyerSession(shop: Shop): Promise<{ token: string; expiresAt: string; storeId: number }> {
  const minted = await shop.t.admin('POST', '/admin/store-users/token', { phone: DEMO_USER.phone });
  expect(minted.statusCode, minted.body).toBe(200);
  const { access_token: token, expires_in: expiresIn } = minted.json();
  const me = await shop.t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token}` } });
  return { token, expiresAt: String(Date.now() + expiresIn * 1000), storeId: me.json().stores[0].id };
}

/** On the shop's sign-in page, in Spanish: the contact, "Enviar código", the code the service sent, "Entrar". */
export async function enterWithCode(shop: Shop, page: Page, contact: string) {
  await page.getByLabel(/Celular o correo/).fill(contact);
  await page.getByRole('button', { name: /Enviar código/ }).click();
  await page.getByLabel(/Código de 6 dígitos/).fill(await signInCode(shop, contact));
  await page.getByRole('button', { name: /^Entrar$/ }).click();
}

/**
 * Types `text` in the shop catalog's search box and waits until the list shows its
 * answer: the URL carries the search (typing is debounced) and the list is not busy. A
 * tap before that may land on a row of the list being replaced.
 */
export async function searchCatalog(page: Page, text: string) {
  await page.getByRole('searchbox').fill(text);
  const wanted = text.trim();
  await page.waitForURL((url) => (url.searchParams.get('search') ?? '') === wanted);
  await expect.poll(() => page.locator('ul.cards[aria-busy="true"], .loading').count()).toBe(0);
}

/**
 * The page once its requests settle has no serious or critical axe violation (nor a
 * blocked resource); with E2E_SHOTS set, its full-page screenshot is kept there as
 * `<prefix><where>.png`.
 */
export async function expectAccessible(page: Page, where: string, prefix = '') {
  await page.waitForLoadState('networkidle');
  const violations = await axeViolations(page);
  expect(violations, `${where}: ${violations.join('; ')}`).toEqual([]);
  const shots = process.env.E2E_SHOTS;
  if (shots) await page.screenshot({ path: `${shots}/${prefix}${where.replace(/\W+/g, '-')}.png`, fullPage: true });
}

/**
 * A browser context whose Content-Security-Policy violations are watched (watchPolicy);
 * with E2E_TRACE set, its pages' errors are printed.
 */
export async function watchedContext(browser: Browser, options: Parameters<Browser['newContext']>[0]): Promise<BrowserContext> {
  const context = watchPolicy(await browser.newContext(options));
  if (process.env.E2E_TRACE) {
    context.on('page', (page) => {
      page.on('pageerror', (e) => console.log(`pageerror: ${e.message}`));
      page.on('console', (m) => m.type() === 'error' && console.log(`console: ${m.text()}`));
    });
  }
  return context;
}

export { DEMO_USER };
