// Issue 34, "What loses or hides money", in a real browser (Debian's Chromium) against the
// real service on embedded PGlite with the demo catalog, in Spanish, at a phone's size (the
// console also at a desktop's, where it is used); axe on every page. Each test reproduced
// its bug before the fix:
// - the cart: backspacing the quantity to type a new one removed the line;
// - the cart: "cada 12 unidades: 1 gratis" with boxes of 12 said "Agrega 12 cajas más"
//   where one more box is enough (checked against the cart endpoint's own answer);
// - the console's order page listed no gift, so the warehouse packed none (and the print);
// - a partial delivery: the console's form stored 3 for 1 as 1, and the shop showed the old
//   total and "fue entregado";
// - the console's amounts without the currency, "8900" beside "178.650".
// Runs in the PGlite pass only; fails when Chromium is missing.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as } from '../../test/helpers/app.ts';
import { DEMO_USER, enterWithCode, expectAccessible, type Shop, signInCode, startShop } from './harness.ts';

const run = process.env.DATABASE_URL ? describe.skip : describe;
let shop: Shop;
const MANAGER = 'bodega@demo.test';

/** An amount as both apps write it in Spanish: the platform's currency (COP) in its locale (es-CO), whole amounts without decimals. */
const money = (amount: number) =>
  new Intl.NumberFormat('es-CO', { style: 'currency', currency: 'COP', minimumFractionDigits: Number.isInteger(amount) ? 0 : 2, maximumFractionDigits: 2 }).format(amount);

beforeAll(async () => {
  if (process.env.DATABASE_URL) return;
  shop = await startShop();
  const member = await shop.t.admin('POST', `/admin/suppliers/${shop.supplier.id}/members`, { email: MANAGER, role: 'manager' });
  expect(member.statusCode, member.body).toBeLessThan(300);
}, 300_000);
afterAll(async () => {
  await shop?.close();
});

const accessible = (page: Page, where: string) => expectAccessible(page, where, 'money-');

/** The demo buyer, signed in on a phone in Spanish. */
async function buyer(): Promise<{ context: BrowserContext; page: Page; storeId: number }> {
  const context = await shop.phone('es-CO');
  const page = await context.newPage();
  await page.goto('/shop/sign-in');
  await enterWithCode(shop, page, DEMO_USER.phone);
  await page.waitForURL(/\/shop\/(catalog|usual)/);
  const storeId = Number(await page.evaluate(() => localStorage.getItem('surtido.shop.storeId')));
  expect(storeId).toBeGreaterThan(0);
  return { context, page, storeId };
}

/** Puts these lines in the phone's cart and opens it. */
async function openCart(page: Page, storeId: number, lines: { productInternalCode: string; units: number; quantity: number; name: string }[]) {
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [`surtido.shop.cart.${storeId}`, JSON.stringify(lines)]);
  await page.goto('/shop/cart');
  await page.getByRole('heading', { name: 'Carrito', level: 1 }).waitFor();
}

/** The store user's bearer token, for asking the service what it answers. */
async function storeToken(): Promise<string> {
  const sent = await shop.t.request({ method: 'POST', url: '/app/auth/code', payload: { phone: DEMO_USER.phone } });
  expect(sent.statusCode, sent.body).toBe(202);
  const res = await shop.t.request({ method: 'POST', url: '/app/auth/token', payload: { phone: DEMO_USER.phone, code: await signInCode(shop, DEMO_USER.phone) } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token;
}

/** The console, signed in as the supplier's manager (desktop unless a viewport is given). */
async function consolePage(viewport = { width: 1280, height: 860 }): Promise<Page> {
  const context = await shop.phone('es-CO', viewport);
  const page = await context.newPage();
  await page.goto('/console/');
  await page.waitForURL('**/console/sign-in');
  await page.getByLabel('Correo').fill(MANAGER);
  await page.getByRole('button', { name: 'Enviar código' }).click();
  await page.getByLabel('Código de 6 dígitos').fill(await shop.t.notifier.waitForCode(MANAGER));
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
  return page;
}

const PAPAS = { productInternalCode: 'PAPAS-45', units: 12, name: 'Papas fritas 45 g' };

run('what loses or hides money', () => {
  it('the cart: clearing the quantity box to type a new one keeps the line; the quantity is committed on Enter or blur; removing is its own button', async () => {
    const { context, page, storeId } = await buyer();
    await openCart(page, storeId, [
      { ...PAPAS, quantity: 2 },
      { productInternalCode: 'ARROZ-1K', units: 1, quantity: 10, name: 'Arroz 1 kg' },
    ]);
    const box = page.getByRole('spinbutton', { name: 'Cantidad de Papas fritas 45 g' });
    await box.waitFor();
    const lines = () => page.locator('[data-line]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-line')));
    await expect.poll(() => page.getByTestId('cart-total').textContent()).toBe(money(2 * 23_200 + 10 * 4300));

    // Backspacing to an empty box: the line stays, nothing is priced as 0.
    await box.click();
    await box.press('End');
    await box.press('Backspace');
    expect(await box.inputValue()).toBe('');
    expect(await lines()).toEqual(['PAPAS-45/12', 'ARROZ-1K/1']);
    // The new quantity, committed with Enter.
    await box.pressSequentially('5');
    await box.press('Enter');
    await expect.poll(() => page.getByTestId('cart-total').textContent()).toBe(money(5 * 23_200 + 10 * 4300));
    expect(await page.evaluate((key) => JSON.parse(localStorage.getItem(key)!)[0].quantity, `surtido.shop.cart.${storeId}`)).toBe(5);

    // Emptied and left: the box shows the quantity again, the line is still there.
    await box.fill('');
    await page.getByRole('heading', { name: 'Carrito', level: 1 }).click();
    expect(await box.inputValue()).toBe('5');
    expect(await lines()).toEqual(['PAPAS-45/12', 'ARROZ-1K/1']);
    // A typed 0 is no way to remove either; "−" stops at 1.
    await box.fill('0');
    await box.press('Enter');
    expect(await box.inputValue()).toBe('5');
    const rice = page.getByRole('spinbutton', { name: 'Cantidad de Arroz 1 kg' });
    await rice.fill('1');
    await rice.press('Tab');
    expect(await page.getByRole('button', { name: 'Quitar uno de Arroz 1 kg' }).isDisabled()).toBe(true);
    await accessible(page, 'cart quantities');

    // Removing is its own button.
    await page.getByRole('button', { name: 'Quitar Arroz 1 kg' }).click();
    await expect.poll(lines).toEqual(['PAPAS-45/12']);
    await context.close();
  });

  it('the cart: a promotion hint counts in the package the buyer adds and names the gift, as the pricing engine answers', async () => {
    const { context, page, storeId } = await buyer();
    // One box of 12 bags towards "every 12 units: 1 water free": 12 units are missing, one box is enough.
    await openCart(page, storeId, [{ ...PAPAS, quantity: 1 }]);
    const hint = page.locator('[data-hint="next"]');
    await hint.waitFor();
    expect(await hint.textContent()).toBe('Agrega 1 × Papas fritas 45 g (12 und.) más para 2 × Agua 600 ml gratis');
    // The engine's own answer: what the page said, in packages of the line.
    const token = await storeToken();
    const priced = async (lines: { productInternalCode: string; units: number; quantity: number }[]) => {
      const res = await shop.t.request({ method: 'POST', url: `/app/stores/${storeId}/cart`, headers: { authorization: `Bearer ${token}` }, payload: { lines } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const answer = await priced([{ productInternalCode: 'PAPAS-45', units: 12, quantity: 1 }]);
    expect(answer.hints.nextTiers).toEqual([
      expect.objectContaining({
        promoInternalCode: 'BONO-PAPAS-AGUA',
        missing: 12,
        packagesToAdd: [{ internalCode: 'PAPAS-45', units: 12, quantity: 1 }],
        gives: { quantity: 2, product: { internalCode: 'AGUA-600', units: 1, name: 'Agua 600 ml' } },
      }),
    ]);
    // Mixed sizes: 5 loose bags and a box: 7 bags are missing, or one box (the fewest, worded).
    await openCart(page, storeId, [
      { ...PAPAS, quantity: 1 },
      { productInternalCode: 'PAPAS-45', units: 1, quantity: 5, name: 'Papas fritas 45 g' },
    ]);
    await expect.poll(() => hint.textContent()).toBe('Agrega 1 × Papas fritas 45 g (12 und.) más para 2 × Agua 600 ml gratis');
    const mixed = await priced([
      { productInternalCode: 'PAPAS-45', units: 12, quantity: 1 },
      { productInternalCode: 'PAPAS-45', units: 1, quantity: 5 },
    ]);
    expect(mixed.hints.nextTiers[0].packagesToAdd).toEqual([
      { internalCode: 'PAPAS-45', units: 12, quantity: 1 },
      { internalCode: 'PAPAS-45', units: 1, quantity: 7 },
    ]);
    // Following the hint earns what it promised: one more box, two waters.
    await page.getByRole('button', { name: 'Agregar uno de Papas fritas 45 g' }).first().click();
    await page.locator('[data-gift="AGUA-600"]').filter({ hasText: '2 × Agua 600 ml' }).waitFor();
    expect((await priced([{ productInternalCode: 'PAPAS-45', units: 12, quantity: 2 }, { productInternalCode: 'PAPAS-45', units: 1, quantity: 5 }])).rewards[0].quantity).toBe(2);
    await accessible(page, 'cart hint');
    await context.close();
  });

  it('an order with a gift and a partial delivery: the console lists the gift, prints it, refuses 3 for 1, and both sides show what was delivered and its total', async () => {
    const token = await storeToken();
    const storeId = (await shop.t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token}` } })).json().stores[0].id as number;
    // 4 boxes of cola and 1 box of chips (5 packages), which earns 1 water.
    const placed = await shop.t.request({
      method: 'POST',
      url: `/app/stores/${storeId}/orders`,
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': 'money-partial' },
      payload: { lines: [{ productInternalCode: 'COLA-350', units: 24, quantity: 4 }, { productInternalCode: 'PAPAS-45', units: 12, quantity: 1 }] },
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const order = placed.json();
    expect(order.promotions.rewards).toEqual([{ promoInternalCode: 'BONO-PAPAS-AGUA', quantity: 1, products: [{ internalCode: 'AGUA-600', units: 1, name: 'Agua 600 ml' }] }]);

    // The console: the gift is a line of its own; amounts with the currency.
    const page = await consolePage();
    await page.goto(`/console/orders/${order.id}`);
    const gift = page.locator('tr[data-gift="AGUA-600"]');
    await gift.waitFor();
    expect(await gift.textContent()).toContain('Regalo');
    expect(await gift.textContent()).toContain('Agua 600 ml');
    expect(await gift.getByTestId('gift-quantity').textContent()).toBe('1');
    const colaTotal = order.products.find((l: { internalCode: string }) => l.internalCode === 'COLA-350').total as number;
    expect(await page.locator('tr[data-line="COLA-350"] td').last().textContent()).toBe(money(colaTotal));
    expect(await page.locator('tfoot').textContent()).toContain(money(order.total));
    await accessible(page, 'console order with gift');
    // The order's print (the packing list): the gift is there, the navigation and buttons are not.
    await page.emulateMedia({ media: 'print' });
    expect(await gift.isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Secciones de la consola' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Confirmar pedido' }).isVisible()).toBe(false);
    await page.emulateMedia({ media: 'screen' });

    // Confirm, then deliver in part: the ordered quantity beside each input, the note that it closes the order.
    await page.getByRole('button', { name: 'Confirmar pedido' }).click();
    await page.getByTestId('order-status').filter({ hasText: 'Confirmado' }).waitFor();
    await page.getByRole('button', { name: 'Entregar en parte' }).click();
    expect(await page.getByTestId('partial-closes').textContent()).toContain('Una entrega en parte cierra el pedido');
    const cola = page.getByLabel(/Cantidad a entregar de Gaseosa cola 350 ml/);
    const papas = page.getByLabel(/Cantidad a entregar de Papas fritas 45 g/);
    expect(await page.locator('[data-qty="COLA-350"]').textContent()).toContain('pedido: 4');
    expect(await page.locator('[data-qty="PAPAS-45"]').textContent()).toContain('pedido: 1');
    // 3 for 1: refused with a message, never stored as 1.
    await papas.fill('3');
    await page.getByRole('alert').filter({ hasText: 'No se pueden entregar 3 de Papas fritas 45 g (12 und.): el pedido tiene 1.' }).waitFor();
    expect(await page.getByRole('button', { name: 'Registrar entrega' }).isDisabled()).toBe(true);
    expect(await papas.inputValue()).toBe('3');
    await accessible(page, 'console partial delivery refused');
    await papas.fill('1');
    await cola.fill('3');
    await page.getByRole('button', { name: 'Registrar entrega' }).click();
    await page.getByTestId('order-status').filter({ hasText: 'Entregado' }).waitFor();
    const supplierSide = (await as(shop.t, shop.supplier, 'GET', `/order/${order.id}`)).json();
    expect(supplierSide.products.map((l: { deliveredQuantity: number }) => l.deliveredQuantity)).toEqual([3, 1]);
    const kept = supplierSide.deliveredTotal as number;
    expect(kept).toBe(Math.round((colaTotal * 3) / 4) + order.products[1].total);
    expect(await page.getByTestId('delivered-total').textContent()).toBe(money(kept));
    expect(await page.locator('tr[data-line="COLA-350"] [data-testid="delivered"]').textContent()).toBe('3');
    await accessible(page, 'console order delivered in part');

    // The console at a phone's size still shows the gift and the totals.
    const small = await consolePage({ width: 390, height: 844 });
    await small.goto(`/console/orders/${order.id}`);
    await small.locator('tr[data-gift="AGUA-600"]').waitFor();
    expect(await small.getByTestId('delivered-total').textContent()).toBe(money(kept));
    await accessible(small, 'console order on a phone');
    await small.context().close();
    await page.context().close();

    // The shop: ordered, delivered and returned per line, the delivered total, and "en parte: 4 de 5".
    const { context, page: phone } = await buyer();
    await phone.goto(`/shop/orders/${order.id}`);
    await phone.getByTestId('delivered-total').waitFor();
    expect(await phone.getByTestId('delivered-total').textContent()).toBe(money(kept));
    expect(await phone.getByTestId('line-quantities').allTextContents()).toEqual(['Pedidas 4 · entregadas 3 · devueltas 0', 'Pedidas 1 · entregadas 1 · devueltas 0']);
    expect(await phone.getByTestId('partial-delivery').textContent()).toBe('Entrega parcial: llegaron 4 de 5 paquetes. Pagas lo entregado.');
    await accessible(phone, 'shop order delivered in part');
    await phone.goto('/shop/notifications');
    await phone.getByText(`El pedido #${order.id} fue entregado en parte: 4 de 5 paquetes`).waitFor();
    await accessible(phone, 'shop notifications');
    await context.close();
  });

  it('the console writes every amount with the currency and one number format', async () => {
    const page = await consolePage();
    await page.goto('/console/orders');
    const totals = page.locator('tbody td.num');
    await totals.first().waitFor();
    for (const text of await totals.allTextContents()) expect(text).toMatch(/^\$\s[\d.]+(,\d+)?$/);
    // Orders filter by a part of the store's name (issue 34), not only its exact code.
    const rows = page.locator('tbody tr[data-order]');
    const all = await rows.count();
    await page.getByLabel('Tienda (nombre o código)').fill('doña ROSA');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForURL(/store=do%C3%B1a\+ROSA|store=do%C3%B1a%20ROSA/);
    await expect.poll(() => rows.count()).toBe(all);
    for (const text of await rows.locator('td:nth-child(3)').allTextContents()) expect(text).toContain('Tienda Doña Rosa');
    await page.getByLabel('Tienda (nombre o código)').fill('La Esquina');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    await page.getByText('No hay pedidos con estos filtros.').waitFor();
    // A price of 8,900 and one of 178,650 read alike: "$ 8.900", "$ 178.650".
    await page.goto('/console/pricelists/PL-DEMO?search=COLA-350');
    const prices = page.getByTestId('price');
    await prices.first().waitFor();
    for (const text of await prices.allTextContents()) expect(text).toMatch(/^\$\s\d{1,3}(\.\d{3})*$/);
    await accessible(page, 'console prices');
    await page.context().close();
  });
});
