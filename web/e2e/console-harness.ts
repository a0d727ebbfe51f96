// The console's browser tests' world: the real service (test app on embedded PGlite, batch
// worker, webhook dispatcher, message worker) listening on a real port with the web apps'
// real build, a platform operator (added as `npm run cli -- operator add` adds one), a
// webhook receiver that answers 500 until told to work (then verifies signatures), and
// Debian's Chromium at a desktop's size. No supplier: the operator creates it in the console.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createSurtidoClient, verifyWebhook, type WebhookEvent } from '../../src/client/index.ts';
import { seedDemoCatalog } from '../../src/main/demo-catalog.ts';
import { ensureWebBuild } from '../../src/main/web-build.ts';
import { addOperator } from '../../src/modules/console/console.service.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { createTestApp, type TestApp } from '../../test/helpers/app.ts';
import { axeViolations, closeContexts, freePort, sharedChromium, startImageHost, watchedContext } from './harness.ts';

export const OPERATOR = 'operaciones@surtido.test';
export const DESKTOP = { width: 1280, height: 860 };

export interface Receiver {
  url: string;
  /** Verified calls, in arrival order. */
  events: WebhookEvent[];
  /** Calls answered 500 while failing. */
  refused: number;
  /** The supplier's webhook secret, once the operator set the URL. */
  secret: string;
  failing: boolean;
}

export interface ConsoleWorld {
  t: TestApp;
  baseUrl: string;
  browser: Browser;
  receiver: Receiver;
  /** With `images`: where the demo's pictures are drawn (`<code>.png`; any other name answers 404). */
  imageBase: string | undefined;
  desktop(locale?: string, viewport?: { width: number; height: number }): Promise<BrowserContext>;
  close(): Promise<void>;
}

/**
 * `images`: with the image worker and a host drawing the demo's pictures (the catalog pages'
 * image status). `clock`: the service's time, for a file that moves it past a wait (a
 * webhook's retry) rather than sleeping through it.
 */
export async function startConsole(options: { images?: boolean; clock?: Clock } = {}): Promise<ConsoleWorld> {
  await ensureWebBuild();
  const port = await freePort();
  const imageHost = options.images ? await startImageHost() : undefined;
  const t = await createTestApp({ dispatcher: true, ...(imageHost ? { images: { concurrency: 2 } } : {}), env: { PUBLIC_URL: `http://127.0.0.1:${port}` }, clock: options.clock });
  await addOperator(t.deps.db, OPERATOR);

  const receiver: Receiver = { url: '', events: [], refused: 0, secret: '', failing: true };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (receiver.failing) {
        receiver.refused++;
        return void res.writeHead(500, { 'content-type': 'text/plain' }).end('receiver down for maintenance');
      }
      try {
        receiver.events.push(verifyWebhook(receiver.secret, Buffer.concat(chunks), req.headers));
        res.writeHead(200).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  await t.app.listen({ port, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${port}`;
  const browser = await sharedChromium();
  return {
    t,
    baseUrl,
    browser,
    receiver,
    imageBase: imageHost ? `http://127.0.0.1:${(imageHost.address() as AddressInfo).port}` : undefined,
    async desktop(locale = 'es-CO', viewport = DESKTOP) {
      // The platform's timezone: the overview's "today" is the browser's calendar day.
      // The service's Content-Security-Policy is on, as in a member's browser.
      return watchedContext(browser, { viewport, locale, baseURL: baseUrl, timezoneId: t.deps.config.timezone });
    },
    async close() {
      await closeContexts(browser);
      await new Promise((r) => server.close(r));
      if (imageHost) await new Promise((r) => imageHost.close(r));
      await t.close();
    },
  };
}

/** Signs in to the console in `page` with the code the service sent to `email` (the test notifier's memory). */
export async function consoleSignIn(world: ConsoleWorld, page: Page, email: string, check: (where: string) => Promise<void> = async () => {}) {
  await page.goto('/console/');
  await page.waitForURL('**/console/sign-in');
  await check('sign-in');
  await page.getByLabel('Correo').fill(email);
  await page.getByRole('button', { name: 'Enviar código' }).click();
  const code = page.getByLabel('Código de 6 dígitos');
  await code.waitFor();
  await check('sign-in code');
  await code.fill(await world.t.notifier.waitForCode(email));
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
}

/**
 * How often a test polls a batch it waits for (the SDK's waitForBatch): every 50 ms. The SDK's
 * default second is an integrator's pace; in a test it was most of a seed's time (six
 * batches, a second each, for work done in a tenth of that).
 */
export const POLL = { pollMs: 50 } as const;

/** The console's browser tests run in the PGlite pass only (skipped when DATABASE_URL is set). */
export const inBrowser = process.env.DATABASE_URL ? describe.skip : describe;

/**
 * The world of one browser test file: started before its tests (in the PGlite pass) and
 * closed after them. The object is filled in when the world has started, so the file can
 * keep it in a constant and use it from its tests and helpers.
 */
export function consoleWorld(options: Parameters<typeof startConsole>[0] = {}): ConsoleWorld {
  const world = {} as ConsoleWorld;
  beforeAll(async () => {
    if (!process.env.DATABASE_URL) Object.assign(world, await startConsole(options));
  }, 240_000);
  afterAll(async () => {
    await world.close?.();
  });
  return world;
}

/** The page as it is once its requests settled has no serious or critical axe violation (`where` names it in the failure). */
export async function accessible(page: Page, where: string) {
  if (process.env.E2E_TRACE) console.log(`${new Date().toISOString()} ${where}`);
  await page.waitForLoadState('networkidle');
  expect(await axeViolations(page), where).toEqual([]);
}

/**
 * A supplier "Distribuidora Norte" (DNORTE) whose owner is `owner`, with the demo catalog
 * loaded through the project's client as its ERP would: answers the supplier and that client.
 */
export async function ownerWithDemoCatalog(world: ConsoleWorld, owner: string) {
  const { t } = world;
  const ok = async (res: Promise<{ statusCode: number; body: string }>) => {
    const r = await res;
    expect(r.statusCode, r.body).toBeLessThan(300);
    return JSON.parse(r.body);
  };
  const supplier = await ok(t.admin('POST', '/admin/suppliers', { name: 'Distribuidora Norte', code: 'DNORTE' }));
  await ok(t.admin('POST', `/admin/suppliers/${supplier.id}/members`, { email: owner, role: 'owner' }));
  const credential = await ok(t.admin('POST', `/admin/suppliers/${supplier.id}/credentials`));
  const surtido = createSurtidoClient({ baseUrl: world.baseUrl, apiKey: credential.apiKey, clientId: credential.clientId, clientSecret: credential.clientSecret });
  await seedDemoCatalog(
    (method, url, body) => (surtido as unknown as Record<string, (u: string, i: object) => Promise<unknown>>)[method.toLowerCase()]!(url, body === undefined ? {} : { body }),
    async (ids) => expect((await surtido.waitForBatch(ids, undefined, POLL)).failed).toEqual([]),
  );
  return { supplier: supplier as { id: number; code: string }, surtido };
}

/**
 * A products CSV for the import pages. Line 1 is the header; lines 2 and 6 load. Line 3: a
 * brand nobody has (fails when its batch applies it); line 4: no name (refused as the batch
 * endpoint would refuse it); line 5: bad JSON in a cell.
 */
export const PRODUCTS_CSV = [
  'internalCode,name,brandInternalCode,categoryInternalCode,displayProducts',
  'KUMIS-1L,Kumis 1 L,CAMPO,DESPENSA,"[{""units"":1,""name"":""Unidad"",""default"":true}]"',
  'YOGUR-1L,Yogur 1 L,LACTEOS-X,DESPENSA,',
  'QUESO-500,,CAMPO,DESPENSA,',
  'AREPA-5,Arepas x5,CAMPO,DESPENSA,"[{""units"":1"',
  'PANELA-1K,Panela 1 kg,CAMPO,DESPENSA,',
  '',
].join('\n');

/** The visible buttons and link-buttons of the page that are shorter or narrower than 44 px, named. */
export const smallControls = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, [role="button"], [role="switch"], summary, .tabs a, .figures a, nav.side a, .acting, select')]
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ el, box }) => box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden')
      .map(({ el, box }) => {
        // A switch is its label's: the label is what a finger taps.
        const target = el.getAttribute('role') === 'switch' ? (el.closest('label') ?? el) : el;
        const b = target.getBoundingClientRect();
        return { name: (target.textContent ?? '').trim().slice(0, 40) || target.tagName, height: Math.round(b.height), width: Math.round(b.width) };
      })
      .filter((c) => c.height < 44 || c.width < 44),
  );

/**
 * Each cell of the first row of the list: its label as shown beside its value (the ::before
 * of data-label), and whether the cell is as tall as its label laid out (a label that wraps
 * to two lines must push the next cell down, not run into it). A pseudo-element has no box
 * to measure: the label's text is laid out in the cell with the ::before's width and font.
 */
export const firstRowLabels = (page: Page) =>
  page.evaluate(() => {
    const row = document.querySelector('.table-wrap tbody tr')!;
    return [...row.children].map((cell) => {
      const before = getComputedStyle(cell, '::before');
      const probe = document.createElement('div');
      probe.textContent = cell.getAttribute('data-label');
      Object.assign(probe.style, { position: 'absolute', visibility: 'hidden', width: before.width, font: before.font, overflowWrap: before.overflowWrap, lineHeight: before.lineHeight });
      cell.appendChild(probe);
      const labelHeight = probe.getBoundingClientRect().height;
      probe.remove();
      const style = getComputedStyle(cell);
      const contentHeight = cell.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
      return {
        label: cell.getAttribute('data-label'),
        shown: before.content,
        display: style.display,
        labelFits: contentHeight + 0.5 >= labelHeight,
      };
    });
  });
