// Issue 34, "Words": the service's own words for a store buyer come in the buyer's language.
// The cancel reasons (the supplier's default cancel codes, stored in English) were shown in
// English in a Spanish shop: the order page's choice of reason, and the reason of an order
// the supplier cancelled. In a real browser (Debian's Chromium) against the real service on
// embedded PGlite with the demo catalog, in Spanish at a phone's size (390x844), then in
// Portuguese after the person switches. Runs in the PGlite pass only; fails when Chromium is missing.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as } from '../../test/helpers/app.ts';
import { axeViolations, DEMO_USER, startShop, type Shop } from './harness.ts';

const run = process.env.DATABASE_URL ? describe.skip : describe;
const VIEWPORT = { width: 390, height: 844 };
let shop: Shop;

beforeAll(async () => {
  if (process.env.DATABASE_URL) return;
  shop = await startShop();
}, 300_000);
afterAll(async () => {
  await shop?.close();
});

async function accessible(page: Page, where: string) {
  await page.waitForLoadState('networkidle');
  const violations = await axeViolations(page);
  expect(violations, `${where}: ${violations.join('; ')}`).toEqual([]);
}

/** The demo buyer's session put on the phone (a token an operator mints), and an order placed through /app: its id. */
async function signedIn(page: Page): Promise<{ token: string; storeId: number }> {
  const minted = await shop.t.admin('POST', '/admin/store-users/token', { phone: DEMO_USER.phone });
  expect(minted.statusCode, minted.body).toBe(200);
  const { access_token: token, expires_in: expiresIn } = minted.json();
  const storeId: number = (await shop.t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token}` } })).json().stores[0].id;
  await page.goto('/shop/sign-in');
  await page.getByLabel(/Celular o correo/).waitFor();
  await page.evaluate(
    ([token, expiresAt, storeId]) => {
      localStorage.setItem('surtido.shop.token', token!);
      localStorage.setItem('surtido.shop.expiresAt', expiresAt!);
      localStorage.setItem('surtido.shop.storeId', storeId!);
    },
    [token, String(Date.now() + expiresIn * 1000), String(storeId)],
  );
  return { token, storeId };
}

async function placeOrder(token: string, storeId: number): Promise<number> {
  const res = await shop.t.request({
    method: 'POST',
    url: `/app/stores/${storeId}/orders`,
    headers: { authorization: `Bearer ${token}` },
    payload: { lines: [{ productInternalCode: 'ARROZ-1K', units: 1, quantity: 40 }] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}

run('the service words a buyer reads, in the buyer language (issue 34)', () => {
  it('shows the cancel reasons in Spanish, and in Portuguese once the person switches', async () => {
    const context = await shop.phone('es-CO', VIEWPORT);
    const page = await context.newPage();
    const { token, storeId } = await signedIn(page);
    const mine = await placeOrder(token, storeId);
    const theirs = await placeOrder(token, storeId);
    const cancelled = await as(shop.t, shop.supplier, 'PUT', `/order/${theirs}/cancel`, { cancelCode: 'OUT_OF_STOCK' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // The supplier API keeps its recorded (English) reason.
    expect(cancelled.json().cancellation.reason).toBe('The products are out of stock');

    // Spanish: the reasons to choose from, and cancelling with one.
    await page.goto(`/shop/orders/${mine}`);
    const reason = page.getByLabel('Motivo');
    await reason.waitFor();
    const options = await reason.locator('option').allTextContents();
    expect(options).toEqual(expect.arrayContaining(['Voy a hacer un pedido nuevo', 'Elegí mal los productos o las cantidades', 'Ya no necesito el pedido', 'La fecha de entrega no me sirve']));
    expect(options.join(' ')).not.toMatch(/order|products/);
    await accessible(page, 'order to cancel, Spanish');
    await reason.selectOption({ label: 'Ya no necesito el pedido' });
    await page.getByRole('button', { name: 'Confirmar cancelación' }).click();
    await page.getByText('Cancelado: Ya no necesito el pedido').waitFor();

    // The supplier's cancellation, in Spanish.
    await page.goto(`/shop/orders/${theirs}`);
    await page.getByText('Cancelado: Los productos están agotados').waitFor();
    await accessible(page, 'order cancelled by the supplier, Spanish');

    // Portuguese: the person switches; the same order and a new one's reasons follow.
    await page.getByLabel('Idioma').selectOption('pt-BR');
    await page.getByText('Os produtos estão esgotados').waitFor();
    const another = await placeOrder(token, storeId);
    await page.goto(`/shop/orders/${another}`);
    await page.getByLabel('Motivo').locator('option', { hasText: 'Vou fazer um novo pedido' }).waitFor({ state: 'attached' });
    await accessible(page, 'order to cancel, Portuguese');
    await context.close();
  }, 120_000);
});
