// Orders that survive a dead network, and a sales rep ordering for the shop (issue 32), in a
// real browser (Debian's Chromium) at a phone's size, in Spanish, against the real service
// on embedded PGlite, with the built shop and its service worker; axe on the new states.
// The buyer goes offline (context.setOffline), queues the order ("En cola"), comes back
// online and exactly one order reaches the supplier (read through the supplier API). A
// seller the supplier loaded signs in with a code and places an order for the store they
// serve: the supplier sees it placed by the seller. Runs in the PGlite pass only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { as } from '../../test/helpers/app.ts';
import { DEMO_USER, enterWithCode, expectAccessible, type Shop, startShop } from './harness.ts';

const run = process.env.DATABASE_URL ? describe.skip : describe;
let shop: Shop;
const SELLER = { email: 'carlos.vendedor@surtido.test', name: 'Carlos Vendedor' };

beforeAll(async () => {
  if (process.env.DATABASE_URL) return;
  shop = await startShop();
  const seller = await as(shop.t, shop.supplier, 'PUT', '/seller/VEND-01', { name: SELLER.name, email: SELLER.email, storeInternalCodes: ['TIENDA-DEMO'] });
  expect(seller.statusCode, seller.body).toBe(200);
}, 240_000);
afterAll(async () => {
  await shop?.close();
});

const accessible = (page: Page, where: string) => expectAccessible(page, where);

async function signIn(page: Page, contact: string) {
  await page.goto('/shop/');
  await page.waitForURL('**/shop/sign-in');
  await enterWithCode(shop, page, contact);
  await page.waitForURL('**/shop/catalog');
}

const orders = async () => (await as(shop.t, shop.supplier, 'GET', '/order?take=50')).json() as { total: number; data: { id: number; notes: string | null; channel?: string; placedBy?: { sellerInternalCode: string; name: string } }[] };

run('offline orders and sellers in a browser', () => {
  it('in Spanish: an order placed offline is queued, then sent once when the network returns', async () => {
    const context = await shop.phone('es-CO');
    const page = await context.newPage();
    await signIn(page, DEMO_USER.phone);
    // The service worker controls the page from here on: what is read is kept for offline.
    await page.waitForFunction(() => navigator.serviceWorker?.controller !== null);
    await page.reload();
    await page.locator('[data-product="COLA-350"]').waitFor();
    // Enough for the demo supplier's minimum order.
    const add = page.locator('[data-product="COLA-350"]').getByRole('button', { name: /Agregar Gaseosa cola 350 ml Caja x24/ });
    for (let i = 0; i < 3; i++) await add.click();
    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('3');
    // The orders and cart pages once online, so their code is kept too.
    await page.getByRole('navigation').getByRole('link', { name: /^Pedidos/ }).click();
    await page.getByRole('heading', { name: 'Pedidos', level: 1 }).waitFor();
    await page.getByRole('navigation').getByRole('link', { name: /^Carrito/ }).click();
    await page.getByTestId('cart-total').waitFor();
    await page.waitForLoadState('networkidle');
    const before = await orders();

    await context.setOffline(true);
    await page.getByRole('status').filter({ hasText: 'Sin conexión' }).first().waitFor();
    await page.getByLabel('Notas para el proveedor (opcional)').fill('pedido sin señal');
    await accessible(page, 'cart offline');
    await page.getByRole('button', { name: 'Pedir sin conexión' }).click();
    await page.waitForURL('**/shop/orders');
    const queued = page.locator('[data-queued]');
    await expect.poll(() => queued.getAttribute('data-queued')).toBe('queued');
    expect(await queued.textContent()).toContain('En cola');
    // What the page shows offline is the service worker's kept copy, and it says how old it is.
    await page.reload();
    await expect.poll(() => page.getByTestId('saved-ago').textContent(), { timeout: 10_000 }).toMatch(/^ Actualizado hace \d+ min\.$/);
    await expect.poll(() => queued.getAttribute('data-queued')).toBe('queued');
    await accessible(page, 'orders queued offline');
    expect((await orders()).total, 'nothing reaches the supplier while offline').toBe(before.total);

    await context.setOffline(false);
    await expect.poll(() => queued.getAttribute('data-queued'), { timeout: 20_000 }).not.toBe('queued');
    expect(await queued.getAttribute('data-queued'), (await queued.textContent()) ?? '').toBe('sent');
    expect(await queued.textContent()).toContain('Recibido');
    await accessible(page, 'orders queued sent');
    // Exactly one order reached the supplier, however many times the phone tried.
    await page.reload();
    await page.waitForLoadState('networkidle');
    const after = await orders();
    expect(after.total).toBe(before.total + 1);
    expect(after.data.filter((o) => o.notes === 'pedido sin señal')).toHaveLength(1);
    await page.getByRole('link', { name: /Ver el pedido #\d+/ }).click();
    await page.waitForURL(/\/shop\/orders\/\d+/);
    expect(Number(/orders\/(\d+)/.exec(page.url())![1])).toBe(after.data.find((o) => o.notes === 'pedido sin señal')!.id);

    // Never silently changed: queued offline, repriced by the supplier meanwhile, it waits
    // for the buyer with the difference; sent as it is now, it is still one order.
    await page.getByRole('navigation').getByRole('link', { name: /^Catálogo/ }).click();
    await page.locator('[data-product="COLA-350"]').waitFor();
    await context.setOffline(true);
    for (let i = 0; i < 3; i++) await page.locator('[data-product="COLA-350"]').getByRole('button', { name: /Agregar Gaseosa cola 350 ml Caja x24/ }).click();
    await page.getByRole('navigation').getByRole('link', { name: /^Carrito/ }).click();
    await page.getByRole('button', { name: 'Pedir sin conexión' }).click();
    await page.waitForURL('**/shop/orders');
    await expect.poll(() => queued.getAttribute('data-queued')).toBe('queued');
    const { statuses } = await shop.t.runBatch(shop.supplier, '/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'PL-DEMO', productInternalCode: 'COLA-350', units: 24, price: 45_000 }] } });
    expect(statuses[0].failed).toBe(0);
    await context.setOffline(false);
    await expect.poll(() => queued.getAttribute('data-queued'), { timeout: 20_000 }).toBe('confirm');
    expect(await queued.textContent()).toContain('Requiere tu confirmación');
    expect(await queued.textContent()).toMatch(/Gaseosa cola 350 ml \(24 und\.\): lo viste a .*, ahora cuesta .*45\.000/);
    expect((await orders()).total, 'nothing placed before the buyer confirms').toBe(after.total);
    await accessible(page, 'orders queued needs confirmation');
    await page.getByRole('button', { name: 'Enviar así' }).click();
    await expect.poll(() => queued.getAttribute('data-queued'), { timeout: 20_000 }).toBe('sent');
    expect((await orders()).total).toBe(after.total + 1);
    await context.close();
  }, 120_000);

  it('in Spanish: a seller signs in and places an order for the store they serve', async () => {
    const context = await shop.phone('es-CO');
    const page = await context.newPage();
    await signIn(page, SELLER.email);
    await page.goto('/shop/stores');
    const store = page.getByRole('button', { name: /Tienda/ }).first();
    await store.waitFor();
    expect(await store.textContent()).toContain('como vendedor');
    await accessible(page, 'seller stores');
    await store.click();
    await page.waitForURL('**/shop/catalog');
    const add = page.locator('[data-product="COLA-350"]').getByRole('button', { name: /Agregar Gaseosa cola 350 ml Caja x24/ });
    for (let i = 0; i < 3; i++) await add.click();
    await expect.poll(() => page.getByTestId('cart-count').textContent()).toBe('3');
    await page.getByRole('navigation').getByRole('link', { name: /^Carrito/ }).click();
    await page.getByTestId('cart-total').waitFor();
    await page.getByRole('button', { name: 'Hacer el pedido' }).click();
    await page.waitForURL(/\/shop\/orders\/\d+/);
    const id = Number(/orders\/(\d+)/.exec(page.url())![1]);
    const seen = (await as(shop.t, shop.supplier, 'GET', `/order/${id}`)).json();
    expect(seen).toMatchObject({ channel: 'SELLER', placedBy: { sellerInternalCode: 'VEND-01', name: SELLER.name }, buyer: { storeInternalCode: 'TIENDA-DEMO' } });
    await page.getByRole('navigation').getByRole('link', { name: /^Pedidos/ }).click();
    await page.locator(`[data-order="${id}"]`).waitFor();
    expect(await page.locator(`[data-order="${id}"]`).textContent()).toContain(`hecho por ${SELLER.name} (vendedor)`);
    await accessible(page, 'seller orders');
    await context.close();
  });
});
