// The webhook delivery log in the console (issue #34), in Spanish at a phone's size
// (390x844), in a real browser (Debian's Chromium) against the real service on embedded
// PGlite with its dispatcher and a real receiver; axe on every state. A store orders through
// /app before the supplier has a webhook URL: the delivery says "Esperando una URL", never a
// "next attempt" already past. The owner sets the URL; the receiver answers 500, then works;
// the owner redelivers the retrying delivery, which is sent now and once: no second
// delivery, and the retry it was waiting for never sends the event again. The body the
// attempts sent is read in the page and is what the receiver verified. Failed before the
// fix: the delivery showed "próximo intento" with a time already past, the redelivery queued
// a second send (the receiver got the order twice), and no body could be read.
// Runs in the PGlite pass only (skipped when DATABASE_URL is set).
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { DEMO_USER } from '../../src/main/demo-catalog.ts';
import { OffsetClock } from '../../test/helpers/clock.ts';
import { accessible, consoleSignIn, consoleWorld, firstRowLabels, inBrowser, ownerWithDemoCatalog, smallControls } from './console-harness.ts';

// The service's clock: the test moves it past the retry a redelivered delivery was waiting for.
const clock = new OffsetClock();
const world = consoleWorld({ clock });
const OWNER = 'integraciones@norte.test';
const PHONE = { width: 390, height: 844 };
const SHOTS = process.env.E2E_SHOTS;

/** The store's buyer signs in to /app with the code sent to their phone and places an order; answers its id. */
async function placeOrder(): Promise<number> {
  const { t } = world;
  const sent = await t.request({ method: 'POST', url: '/app/auth/code', payload: { phone: DEMO_USER.phone } });
  expect(sent.statusCode, sent.body).toBe(202);
  const code = await t.notifier.waitForCode(DEMO_USER.phone);
  const token = (await t.request({ method: 'POST', url: '/app/auth/token', payload: { phone: DEMO_USER.phone, code } })).json().access_token as string;
  const headers = { authorization: `Bearer ${token}` };
  const storeId = (await t.request({ method: 'GET', url: '/app/me', headers })).json().stores[0].id as number;
  const placed = await t.request({
    method: 'POST',
    url: `/app/stores/${storeId}/orders`,
    headers: { ...headers, 'idempotency-key': 'deliveries-e2e' },
    payload: { lines: [{ productInternalCode: 'COLA-350', units: 24, quantity: 5 }] },
  });
  expect(placed.statusCode, placed.body).toBe(200);
  return placed.json().id;
}

const orderRows = (page: Page) => page.locator('[data-delivery]').filter({ hasText: 'order.created' });

inBrowser('the console: webhook deliveries', () => {
  it('a delivery waiting for a URL says so; a redelivery of a retrying one sends the order once; the body sent can be read', async () => {
    const { receiver } = world;
    await ownerWithDemoCatalog(world, OWNER);
    const orderId = await placeOrder();
    const received = () => receiver.events.filter((e) => e.type === 'order.created' && (e.payload as { id: number }).id === orderId);

    const page = await (await world.desktop('es-CO', PHONE)).newPage();
    await consoleSignIn(world, page, OWNER);
    await page.goto('/console/webhooks');
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    const row = orderRows(page).first();
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('pending');
    // Before: "Pendiente · próximo intento <the time it was recorded>", already past.
    expect(await row.textContent()).not.toContain('próximo intento');
    expect(await row.getByTestId('delivery-waiting').textContent()).toContain('Esperando una URL');
    await page.getByText('Los eventos esperan hasta que pongas una URL; entonces se envían, en orden.').waitFor();
    await accessible(page, 'webhooks (waiting for a URL)');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/console-deliveries-waiting.png`, fullPage: true });

    // The URL set: the dispatcher sends at once, and the receiver (down) answers 500.
    await page.getByLabel('URL base').fill(receiver.url);
    await page.getByLabel('Enviar los eventos').check();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Guardamos la configuración del webhook.').waitFor();
    receiver.secret = (await page.getByTestId('webhook-secret').textContent())!;
    await expect.poll(() => receiver.refused, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    // Retrying: the next attempt is ahead, and the page says when.
    await expect
      .poll(
        async () => {
          await page.reload();
          await orderRows(page).first().waitFor();
          return orderRows(page).first().textContent();
        },
        { timeout: 20_000 },
      )
      .toContain('HTTP 500');
    expect(await orderRows(page).first().textContent()).toContain('próximo intento');
    const deliveryId = Number(await orderRows(page).first().getAttribute('data-delivery'));
    await accessible(page, 'webhooks (retrying)');
    // On the phone the row is a card: every label (the two-line "Última respuesta" too) sits
    // inside its cell, and every control, the attempts' disclosure included, is 44 px.
    const labels = (await firstRowLabels(page)).filter((c) => c.label);
    expect(labels.map((c) => c.label)).toContain('Última respuesta');
    expect(labels.filter((c) => !c.labelFits).map((c) => c.label)).toEqual([]);
    expect(await smallControls(page)).toEqual([]);

    // The receiver works again; the owner redelivers the retrying delivery: it is that
    // delivery, sent now, and the event reaches the receiver once.
    receiver.failing = false;
    await page.getByRole('button', { name: `Reenviar #${deliveryId}` }).click();
    await page.getByText(`Reenviada como la entrega ${deliveryId}.`).waitFor();
    await expect.poll(() => received().length, { timeout: 20_000 }).toBe(1);
    // Past the retry it was waiting for (5 s, ±20 %: the service's clock moved 10 s on),
    // through ten of the dispatcher's polls, nothing more arrives.
    clock.advance(10_000);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(received()).toHaveLength(1);
    await page.reload();
    await orderRows(page).first().waitFor();
    expect(await orderRows(page).count()).toBe(1);
    expect(await orderRows(page).first().getAttribute('data-status')).toBe('delivered');

    // Each attempt's body: the exact JSON the receiver verified, with the webhook-id it was signed with.
    const delivered = orderRows(page).first();
    await delivered.getByText(/^Intentos \(\d+\)$/).click();
    const show = delivered.getByRole('button', { name: 'Ver el cuerpo enviado' });
    expect((await show.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await show.click();
    expect(await show.getAttribute('aria-expanded')).toBe('true');
    const body = delivered.getByTestId('sent-body');
    await body.waitFor();
    expect(JSON.parse((await body.textContent())!)).toEqual(received()[0]!.payload);
    expect(await body.textContent()).not.toContain(receiver.secret);
    await delivered.getByText(received()[0]!.id, { exact: false }).waitFor();
    await accessible(page, 'webhooks (the body sent)');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/console-deliveries-body.png`, fullPage: true });
  }, 180_000);
});
