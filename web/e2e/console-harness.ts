// The console's browser tests' world: the real service (test app on embedded PGlite, batch
// worker, webhook dispatcher, message worker) listening on a real port with the web apps'
// real build, a platform operator (added as `npm run cli -- operator add` adds one), a
// webhook receiver that answers 500 until told to work (then verifies signatures), and
// Debian's Chromium at a desktop's size. No supplier: the operator creates it in the console.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { verifyWebhook, type WebhookEvent } from '../../src/client/index.ts';
import { ensureWebBuild } from '../../src/main/web-build.ts';
import { addOperator } from '../../src/modules/console/console.service.ts';
import { createTestApp, type TestApp } from '../../test/helpers/app.ts';
import { freePort, launchChromium } from './harness.ts';

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
  desktop(locale?: string, viewport?: { width: number; height: number }): Promise<BrowserContext>;
  close(): Promise<void>;
}

export async function startConsole(): Promise<ConsoleWorld> {
  await ensureWebBuild();
  const port = await freePort();
  const t = await createTestApp({ dispatcher: true, env: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
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
  const browser = await launchChromium();
  return {
    t,
    baseUrl,
    browser,
    receiver,
    async desktop(locale = 'es-CO', viewport = DESKTOP) {
      // The platform's timezone: the overview's "today" is the browser's calendar day.
      const context = await browser.newContext({ viewport, locale, baseURL: baseUrl, bypassCSP: true, timezoneId: t.deps.config.timezone });
      if (process.env.E2E_TRACE) {
        context.on('page', (page) => {
          page.on('pageerror', (e) => console.log(`pageerror: ${e.message}`));
          page.on('console', (m) => m.type() === 'error' && console.log(`console: ${m.text()}`));
        });
      }
      return context;
    },
    async close() {
      await browser.close();
      await new Promise((r) => server.close(r));
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
