// The store buyer's whole journey in a real browser (Debian's Chromium), at a phone's
// size, against the real service on embedded PGlite; axe on every page. Runs in the
// PGlite pass only (the browser checks the UI, not the database); fails when Chromium is
// missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { as } from '../../test/helpers/app.ts';
import { axeViolations, DEMO_USER, searchCatalog, signInCode, startShop, type Shop } from './harness.ts';

const run = process.env.DATABASE_URL ? describe.skip : describe;
let shop: Shop;

beforeAll(async () => {
  if (!process.env.DATABASE_URL) shop = await startShop();
}, 240_000);
afterAll(async () => {
  await shop?.close();
});

async function accessible(page: Page, where: string) {
  if (process.env.E2E_TRACE) console.log(`${new Date().toISOString()} ${where}`);
  await page.waitForLoadState('networkidle');
  expect(await axeViolations(page), where).toEqual([]);
}

async function signIn(page: Page, contact: string, labels: { contact: RegExp; send: RegExp; code: RegExp; enter: RegExp }) {
  await page.goto('/shop/');
  await page.waitForURL('**/shop/sign-in');
  await accessible(page, 'sign-in');
  await page.getByLabel(labels.contact).fill(contact);
  await page.getByRole('button', { name: labels.send }).click();
  const code = page.getByLabel(labels.code);
  await expect.poll(() => code.getAttribute('autocomplete')).toBe('one-time-code');
  expect(await code.getAttribute('inputmode')).toBe('numeric');
  await accessible(page, 'sign-in code');
  await code.fill(await signInCode(shop, contact));
  await page.getByRole('button', { name: labels.enter }).click();
  await page.waitForURL('**/shop/catalog');
}

const card = (page: Page, code: string) => page.locator(`[data-product="${code}"]`);

run('the store app in a browser', () => {
  it('in Spanish: sign in, search, cart with a discount and a gift, place, cancel, order again, ticket, notification', async () => {
    const context = await shop.phone('es-CO');
    const page = await context.newPage();
    await signIn(page, DEMO_USER.phone, { contact: /Celular o correo/, send: /Enviar código/, code: /Código de 6 dígitos/, enter: /^Entrar$/ });
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('es');
    await card(page, 'COLA-350').waitFor();
    await accessible(page, 'catalog');

    // The card shows the service's own versions of the picture, sized by the phone.
    const picture = card(page, 'COLA-350').locator('img');
    expect(await picture.getAttribute('srcset')).toMatch(/\/images\/[0-9a-f]{64}\/160\.webp 160w, .*\/480\.webp 480w, .*\/1024\.webp 1024w$/);
    await picture.scrollIntoViewIfNeeded();
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.currentSrc.endsWith('.webp'))).toBe(true);

    // Filters by name, every category and brand the store can buy; choosing one filters the list.
    const categorySelect = page.getByLabel('Categoría');
    expect(await categorySelect.locator('option').allTextContents()).toEqual(['Todas las categorías', 'Aseo', 'Bebidas', 'Despensa', 'Snacks']);
    expect(await page.getByLabel('Marca').locator('option').allTextContents()).toEqual(['Todas las marcas', 'Andina', 'Brillo', 'Crujientes', 'Del Campo']);
    await categorySelect.selectOption({ label: 'Snacks' });
    await page.waitForURL(/category=SNACKS/);
    await expect.poll(() => page.locator('[data-product]').count()).toBe(7);
    expect(await card(page, 'COLA-350').count()).toBe(0);
    await card(page, 'PAPAS-45').waitFor();
    await accessible(page, 'catalog by category');
    await categorySelect.selectOption({ label: 'Todas las categorías' });
    await card(page, 'COLA-350').waitFor();

    // The promotions page names each promotion's products.
    await page.getByRole('link', { name: 'Promociones', exact: true }).click();
    await page.locator('[data-promotion-products="DESC-GASEOSAS"]').waitFor();
    expect(await page.locator('[data-promotion-products="DESC-GASEOSAS"] li').allTextContents()).toEqual(['Gaseosa cola 350 ml', 'Gaseosa lima 350 ml', 'Gaseosa naranja 350 ml']);
    expect(await page.locator('[data-promotion-products="BONO-PAPAS-AGUA"] li').allTextContents()).toEqual(['Papas fritas 45 g']);
    await accessible(page, 'promotions');
    await page.getByRole('link', { name: 'Catálogo', exact: true }).click();
    await card(page, 'COLA-350').waitFor();

    // Search, and the promotion badge says what earns it.
    await searchCatalog(page, 'gaseosa cola');
    await expect.poll(() => page.locator('[data-product]').count()).toBe(2);
    expect(await card(page, 'COLA-350').locator('.badge').first().textContent()).toContain('desde 2 cajas: 5 % de descuento');
    const addBox = card(page, 'COLA-350').getByRole('button', { name: /Agregar Gaseosa cola 350 ml Caja x24/ });
    await addBox.click();
    await addBox.click();
    await searchCatalog(page, 'papas');
    await card(page, 'PAPAS-45').waitFor();
    expect(await card(page, 'PAPAS-45').locator('.badge').first().textContent()).toContain('cada 12 cajas: 1 gratis');
    await card(page, 'PAPAS-45').getByRole('button', { name: /Agregar .*Caja x12/ }).click();
    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('3');

    // The cart: priced by the service, a discount and a gift.
    await page.getByRole('link', { name: /Carrito/ }).click();
    await page.getByTestId('discount-total').waitFor();
    expect(await page.getByTestId('discount-total').textContent()).toMatch(/\$/);
    await page.locator('[data-gift="AGUA-600"]').waitFor();
    expect(await page.locator('[data-gift="AGUA-600"]').textContent()).toContain('Regalo');
    await accessible(page, 'cart');
    // The cart is kept on the phone across visits.
    await page.reload();
    await page.getByTestId('discount-total').waitFor();

    await page.getByRole('button', { name: 'Hacer el pedido' }).click();
    await page.waitForURL(/\/shop\/orders\/\d+/);
    const firstId = Number(/orders\/(\d+)/.exec(page.url())![1]);
    await expect.poll(() => page.getByTestId('order-status').textContent()).toBe('Pendiente');
    await accessible(page, 'order');

    // The supplier sees it through its API, and its webhook got the signed order.created.
    const seen = await as(shop.t, shop.supplier, 'GET', `/order/${firstId}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ id: firstId, status: 'PENDING', buyer: { storeInternalCode: 'TIENDA-DEMO' } });
    expect(seen.json().promotions.rewards[0]).toMatchObject({ promoInternalCode: 'BONO-PAPAS-AGUA', products: [{ internalCode: 'AGUA-600' }] });
    await expect.poll(() => shop.webhooks.find((w) => w.type === 'order.created' && (w.payload as { id: number }).id === firstId), { timeout: 20_000 }).toBeTruthy();

    // Cancel it with one of the store's reasons.
    await page.getByLabel('Motivo').selectOption('WRONG_PRODUCTS');
    await page.getByRole('button', { name: 'Confirmar cancelación' }).click();
    await expect.poll(() => page.getByTestId('order-status').textContent()).toBe('Cancelado');
    expect((await as(shop.t, shop.supplier, 'GET', `/order/${firstId}`)).json().status).toBe('CANCELLED');

    // Repeat: nothing changed since, so the cart fills with the order's lines at once; place it.
    await page.getByRole('button', { name: 'Repetir' }).click();
    await page.waitForURL('**/shop/cart');
    await page.getByTestId('discount-total').waitFor();
    await page.getByRole('button', { name: 'Hacer el pedido' }).click();
    await page.waitForURL(/\/shop\/orders\/\d+/);
    const secondId = Number(/orders\/(\d+)/.exec(page.url())![1]);
    expect(secondId).not.toBe(firstId);

    // Both in the list.
    await page.getByRole('link', { name: 'Pedidos', exact: true }).click();
    await page.locator(`[data-order="${secondId}"]`).waitFor();
    expect(await page.locator(`[data-order="${firstId}"]`).textContent()).toContain('Cancelado');
    await accessible(page, 'orders');

    // A ticket about the order; the supplier asks for information through its API.
    await page.getByRole('link', { name: 'Ayuda', exact: true }).click();
    await page.getByLabel('¿Qué pasó?').fill('Llegó una caja abierta');
    await page.getByLabel('Pedido (opcional)').selectOption(String(secondId));
    await accessible(page, 'tickets');
    await page.getByRole('button', { name: 'Enviar' }).click();
    await page.waitForURL(/\/shop\/tickets\/\d+/);
    const ticketId = Number(/tickets\/(\d+)/.exec(page.url())![1]);
    const asked = await as(shop.t, shop.supplier, 'POST', '/support/ticket/additional-info', { ticketId, message: '¿Nos envía una foto de la caja?' });
    expect(asked.statusCode, asked.body).toBe(200);

    // The notification, with its unread count; opening it leads to the ticket.
    await page.reload();
    await page.getByTestId('unread-count').waitFor({ timeout: 20_000 });
    await page.getByRole('link', { name: /Avisos/ }).click();
    await page.getByText(`El proveedor pide información sobre la solicitud #${ticketId}`).waitFor();
    await accessible(page, 'notifications');
    await page.getByText(`El proveedor pide información sobre la solicitud #${ticketId}`).click();
    await page.waitForURL(`**/shop/tickets/${ticketId}`);
    await page.getByText('¿Nos envía una foto de la caja?').waitFor();
    await accessible(page, 'ticket');
    await page.getByLabel('Tu respuesta').fill('Sí, va la foto por WhatsApp');
    await page.getByRole('button', { name: 'Responder' }).click();
    await expect.poll(() => page.getByTestId('ticket-status').textContent()).toBe('En proceso');
    await expect.poll(() => page.getByTestId('unread-count').count()).toBe(0);
    expect((await as(shop.t, shop.supplier, 'GET', `/support/ticket/${ticketId}`)).json().status).toBe('IN_PROGRESS');
    await expect.poll(() => shop.webhooks.some((w) => w.type === 'ticket.additional_info_received'), { timeout: 20_000 }).toBe(true);

    // Signing out ends the session on the service and clears what the phone kept: the
    // token, copied before, no longer opens /app.
    const token = await page.evaluate(() => localStorage.getItem('surtido.shop.token'));
    const me = () => shop.t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token}` } });
    expect((await me()).statusCode).toBe(200);
    await page.getByRole('button', { name: 'Salir' }).click();
    await page.waitForURL('**/shop/sign-in');
    expect((await me()).statusCode).toBe(401);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('surtido.shop.') && k !== 'surtido.shop.language'))).toEqual([]);
    await context.close();
  }, 300_000);

  it('in English: the language follows the browser, and the cart and order read in English', async () => {
    const context = await shop.phone('en-US');
    const page = await context.newPage();
    await signIn(page, DEMO_USER.email, { contact: /Phone or email/, send: /Send code/, code: /6-digit code/, enter: /^Sign in$/ });
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en');
    await searchCatalog(page, 'LIMA');
    await card(page, 'LIMA-350').waitFor();
    expect(await card(page, 'LIMA-350').locator('.badge').first().textContent()).toContain('from 2 boxes: 5 % off');
    await accessible(page, 'catalog (en)');
    const box = card(page, 'LIMA-350').getByRole('button', { name: /Add .*Caja x24/ });
    await box.click();
    await box.click();
    await page.getByRole('link', { name: /Cart/ }).click();
    await page.getByTestId('discount-total').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Cart');
    await accessible(page, 'cart (en)');
    await page.getByRole('button', { name: 'Place the order' }).click();
    await page.waitForURL(/\/shop\/orders\/\d+/);
    await expect.poll(() => page.getByTestId('order-status').textContent()).toBe('Pending');
    await accessible(page, 'order (en)');

    // A gift earned that the warehouse cannot give: the cart says so, with the reason.
    const stock = async (available: boolean) => {
      const res = await as(shop.t, shop.supplier, 'POST', '/batch/stock/grouper', { upsert: [{ grouperCode: 'BODEGA-DEMO', productInternalCode: 'AGUA-600', available }] });
      expect(res.statusCode, res.body).toBe(202);
      await shop.t.waitForBatches(shop.supplier, res.json().batchId);
    };
    await stock(false);
    try {
      await page.getByRole('link', { name: 'Catalog', exact: true }).click();
      await searchCatalog(page, 'PAPAS-45');
      await card(page, 'PAPAS-45').getByRole('button', { name: /Add .*Caja x12/ }).click();
      await page.getByRole('link', { name: /Cart/ }).click();
      await page.locator('[data-hint="gift"]').waitFor();
      expect(await page.locator('[data-hint="gift"]').textContent()).toBe('You earned 1 × Agua 600 ml with “Agua gratis con papas”, but it cannot be given: out of stock.');
      expect(await page.locator('[data-gift]').count()).toBe(0);
      await accessible(page, 'cart with a gift not given (en)');
      // Removing a line is its own button (the − stops at one).
      await page.getByRole('button', { name: /Remove Papas fritas 45 g/ }).click();
      await page.getByText('Your cart is empty.').waitFor();
      // One unit is said in the singular (the plural form comes from Intl.PluralRules).
      await page.getByRole('link', { name: 'Catalog', exact: true }).click();
      await searchCatalog(page, 'LIMA-350');
      // The row's stepper counts the size chosen in it (a box until the unit is tapped).
      await card(page, 'LIMA-350').getByRole('button', { name: /^Unidad/ }).click();
      await card(page, 'LIMA-350').getByRole('button', { name: /Add .*Unidad/ }).click();
      await page.getByRole('link', { name: /Cart/ }).click();
      const single = page.locator('[data-line="LIMA-350/1"]');
      await single.waitFor();
      expect(await single.locator('.muted.small').first().textContent()).toBe(' · 1 unit');
      await single.getByRole('button', { name: /^Remove / }).click();
      await page.getByText('Your cart is empty.').waitFor();
    } finally {
      await stock(true);
    }
    await page.getByRole('link', { name: 'Alerts' }).click();
    await page.getByRole('heading', { name: 'Alerts' }).waitFor();
    await accessible(page, 'notifications (en)');
    await context.close();
  }, 300_000);

  it('offline: the last catalog and orders seen still show, with a clear offline state; placing needs the network', async () => {
    // An order of the store's, whatever ran before.
    const token = (await shop.t.admin('POST', '/admin/store-users/token', { phone: DEMO_USER.phone })).json().access_token;
    const asRosa = { authorization: `Bearer ${token}` };
    const storeId = (await shop.t.request({ method: 'GET', url: '/app/me', headers: asRosa })).json().stores[0].id;
    const placed = await shop.t.request({
      method: 'POST',
      url: `/app/stores/${storeId}/orders`,
      headers: { ...asRosa, 'idempotency-key': 'offline-test-order' },
      payload: { lines: [{ productInternalCode: 'COLA-350', units: 24, quantity: 2 }] },
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = placed.json().id;

    const context = await shop.phone('es-CO');
    const page = await context.newPage();
    await signIn(page, DEMO_USER.phone, { contact: /Celular o correo/, send: /Enviar código/, code: /Código de 6 dígitos/, enter: /^Entrar$/ });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    // Seen once under the service worker: the page, its files and the answers are kept.
    await page.reload();
    await card(page, 'COLA-350').waitFor();
    const addBox = card(page, 'COLA-350').getByRole('button', { name: /Agregar .*Caja x24/ });
    await addBox.click();
    await addBox.click();
    await page.getByRole('link', { name: 'Pedidos', exact: true }).click();
    await page.locator(`[data-order="${orderId}"]`).waitFor();
    await page.getByRole('link', { name: /Carrito/ }).click();
    await page.getByTestId('cart-total').waitFor();
    const place = page.getByRole('button', { name: 'Hacer el pedido' });
    await expect.poll(() => place.isEnabled()).toBe(true);

    // Offline with the priced cart on screen: placing now is gone, and the order can be
    // queued instead (sent once the network returns: web/e2e/offline-seller.test.ts).
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Pedir sin conexión' }).waitFor();
    expect(await place.count()).toBe(0);
    await page.getByRole('link', { name: 'Catálogo', exact: true }).click();
    await card(page, 'COLA-350').waitFor();

    await page.reload();
    await card(page, 'COLA-350').waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Sin conexión' }).count()).toBe(1);
    await accessible(page, 'catalog offline');
    await page.getByRole('link', { name: 'Pedidos', exact: true }).click();
    // The orders seen, not an empty list.
    await page.locator(`[data-order="${orderId}"]`).waitFor();
    expect(await page.locator('.empty').count()).toBe(0);
    await page.getByRole('link', { name: /Carrito/ }).click();
    await page.getByRole('button', { name: 'Pedir sin conexión' }).waitFor();
    expect(await place.count()).toBe(0);
    await context.setOffline(false);
    await context.close();
  }, 300_000);

  it("the language follows the person: saved by the switch, adopted at sign-in on another phone", async () => {
    const luz = { phone: '+573000000077', name: 'Luz' };
    const added = await as(shop.t, shop.supplier, 'POST', '/store/TIENDA-DEMO/add/user', { users: [luz] });
    expect(added.statusCode, added.body).toBe(200);
    const spanish = { contact: /Celular o correo/, send: /Enviar código/, code: /Código de 6 dígitos/, enter: /^Entrar$/ };

    const first = await shop.phone('es-CO');
    const page = await first.newPage();
    await signIn(page, luz.phone, spanish);
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('es');
    await page.getByLabel('Idioma').selectOption('pt-BR');
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('pt-BR');
    await page.getByRole('heading', { name: 'Catálogo' }).waitFor();
    // Saved with the person, not only on this phone.
    const token = await page.evaluate(() => localStorage.getItem('surtido.shop.token'));
    await expect
      .poll(async () => (await shop.t.request({ method: 'GET', url: '/app/me/preferences', headers: { authorization: `Bearer ${token}` } })).json().language)
      .toBe('pt-BR');
    await page.getByRole('button', { name: 'Sair' }).click();
    await page.waitForURL('**/shop/sign-in');
    await first.close();

    // Another phone, in Spanish, that never saw her: after sign-in the shop speaks Portuguese.
    const second = await shop.phone('es-CO');
    const other = await second.newPage();
    await signIn(other, luz.phone, spanish);
    await expect.poll(() => other.locator('html').getAttribute('lang')).toBe('pt-BR');
    await other.getByRole('link', { name: 'Promoções', exact: true }).waitFor();
    expect(await other.getByLabel('Idioma').inputValue()).toBe('pt-BR');
    await accessible(other, 'catalog (pt-BR)');
    await second.close();
  }, 300_000);
});
