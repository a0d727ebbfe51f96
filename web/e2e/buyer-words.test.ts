// Issue 34, "Words": the service's own words for a store buyer come in the buyer's language.
// The cancel reasons (the supplier's default cancel codes, stored in English) were shown in
// English in a Spanish shop: the order page's choice of reason, and the reason of an order
// the supplier cancelled. In a real browser (Debian's Chromium) against the real service on
// embedded PGlite with the demo catalog, in Spanish at a phone's size (390x844), then in
// Portuguese after the person switches. Runs in the PGlite pass only; fails when Chromium is missing.
import { describe, expect, it } from 'vitest';
import { as } from '../../test/helpers/app.ts';
import { expectAccessible, putSession, shopWorld } from './harness.ts';

const run = process.env.DATABASE_URL ? describe.skip : describe;
const VIEWPORT = { width: 390, height: 844 };
const shop = shopWorld();

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
    const { token, storeId } = await putSession(shop, page);
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
    await expectAccessible(page, 'order to cancel, Spanish');
    await reason.selectOption({ label: 'Ya no necesito el pedido' });
    await page.getByRole('button', { name: 'Confirmar cancelación' }).click();
    await page.getByText('Cancelado: Ya no necesito el pedido').waitFor();

    // The supplier's cancellation, in Spanish.
    await page.goto(`/shop/orders/${theirs}`);
    await page.getByText('Cancelado: Los productos están agotados').waitFor();
    await expectAccessible(page, 'order cancelled by the supplier, Spanish');

    // Portuguese: the person switches; the same order and a new one's reasons follow.
    await page.getByLabel('Idioma').selectOption('pt-BR');
    await page.getByText('Os produtos estão esgotados').waitFor();
    const another = await placeOrder(token, storeId);
    await page.goto(`/shop/orders/${another}`);
    await page.getByLabel('Motivo').locator('option', { hasText: 'Vou fazer um novo pedido' }).waitFor({ state: 'attached' });
    await expectAccessible(page, 'order to cancel, Portuguese');
    await context.close();
  }, 120_000);
});
