// `npm run screens`: screenshots of the shop's pages and states at a phone's size
// (390x844), and of the console's main pages at a desktop's (1280x860, its orders on a
// phone too), in Spanish, into docs/screens/ (linked from the README). Runs the real
// service with the demo catalog, like the browser tests (through vitest, which provides
// the test database); skipped in `npm test` unless SCREENS=1.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { as } from '../../test/helpers/app.ts';
import { consoleScreens } from './console-screens.ts';
import { DEMO_USER, searchCatalog, signInCode, startShop } from './harness.ts';

describe.runIf(process.env.SCREENS === '1')('screenshots', () => {
  it('writes docs/screens/*.png', async () => {
    const out = path.resolve('docs/screens');
    fs.mkdirSync(out, { recursive: true });
    for (const file of fs.readdirSync(out)) if (file.endsWith('.png') && !file.startsWith('console-')) fs.rmSync(path.join(out, file));
    const shop = await startShop();
    try {
      const context = await shop.phone('es-CO', { width: 390, height: 844 });
      const page = await context.newPage();
      const shot = async (name: string) => {
        await page.waitForLoadState('networkidle');
        await page.screenshot({ path: path.join(out, `${name}.png`) });
        console.log(`docs/screens/${name}.png`);
      };
      await page.goto('/shop/');
      await page.waitForURL('**/sign-in');
      await shot('01-sign-in');
      await page.getByLabel(/Celular o correo/).fill(DEMO_USER.phone);
      await page.getByRole('button', { name: /Enviar código/ }).click();
      await page.getByLabel(/Código de 6 dígitos/).fill(await signInCode(shop, DEMO_USER.phone));
      await page.getByRole('button', { name: /^Entrar$/ }).click();
      await page.waitForURL('**/catalog');
      await page.locator('[data-product]').first().waitFor();
      await shot('02-catalog');
      await page.getByLabel('Categoría').selectOption({ label: 'Snacks' });
      await page.waitForURL(/category=SNACKS/);
      await page.locator('[data-product="PAPAS-45"]').waitFor();
      await shot('03-catalog-filtered');
      await page.getByLabel('Categoría').selectOption({ label: 'Todas las categorías' });
      await searchCatalog(page, 'zzz no existe');
      await page.getByText('No hay productos que coincidan.').waitFor();
      await shot('04-catalog-empty');
      await page.getByRole('link', { name: /Carrito/ }).click();
      await page.getByText('Tu carrito está vacío.').waitFor();
      await shot('05-cart-empty');
      await page.getByRole('link', { name: /Catálogo/ }).click();
      await searchCatalog(page, '');
      const cola = page.locator('[data-product="COLA-350"]').getByRole('button', { name: /Agregar .*Caja x24/ });
      await cola.click();
      await cola.click();
      await searchCatalog(page, 'papas');
      await page.locator('[data-product="PAPAS-45"]').waitFor();
      await page.locator('[data-product="PAPAS-45"]').getByRole('button', { name: /Agregar .*Caja x12/ }).click();
      await page.getByRole('link', { name: /Carrito/ }).click();
      await page.getByTestId('discount-total').waitFor();
      await shot('06-cart');
      await context.setOffline(true);
      // Offline, the cart offers to queue the order (web/lib/order-queue.ts).
      await page.getByRole('button', { name: 'Pedir sin conexión' }).waitFor();
      await page.screenshot({ path: path.join(out, '07-cart-offline.png') });
      await context.setOffline(false);
      await page.getByRole('button', { name: 'Hacer el pedido' }).click();
      await page.waitForURL(/orders\/\d+/);
      const orderId = Number(/orders\/(\d+)/.exec(page.url())![1]);
      await as(shop.t, shop.supplier, 'PUT', `/order/${orderId}/confirm`, { deliveryDate: new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10) });
      await page.reload();
      await page.getByTestId('order-status').waitFor();
      await shot('08-order');
      await page.getByRole('link', { name: 'Pedidos', exact: true }).click();
      await page.locator('[data-order]').first().waitFor();
      await shot('09-orders');
      // The promotions are a section of the catalog (five tabs fit a 360 px phone).
      await page.getByRole('link', { name: 'Catálogo', exact: true }).click();
      await page.getByRole('link', { name: 'Promociones' }).click();
      await page.getByRole('heading', { level: 2 }).first().waitFor();
      await shot('10-promotions');
      await page.getByRole('link', { name: 'Ayuda', exact: true }).click();
      await page.getByLabel('¿Qué pasó?').fill('Llegó una caja de gaseosa abierta');
      await page.getByLabel('Pedido (opcional)').selectOption(String(orderId));
      await page.getByRole('button', { name: 'Enviar' }).click();
      await page.waitForURL(/tickets\/\d+/);
      const ticketId = Number(/tickets\/(\d+)/.exec(page.url())![1]);
      await as(shop.t, shop.supplier, 'POST', '/support/ticket/additional-info', { ticketId, message: '¿Nos envía una foto de la caja?' });
      await page.reload();
      await page.getByLabel('Tu respuesta').waitFor();
      await shot('11-ticket');
      await page.getByRole('link', { name: /Avisos/ }).click();
      await page.locator('[data-notification]').first().waitFor();
      await shot('12-notifications');
      // A product's page, from the catalog's row (issue 34).
      await page.goto('/shop/products/COLA-350');
      await page.getByRole('heading', { name: 'Gaseosa cola 350 ml', level: 1 }).waitFor();
      await shot('13-product');
      await context.close();
    } finally {
      await shop.close();
    }
  }, 600_000);

  it('writes docs/screens/console-*.png', async () => {
    const out = path.resolve('docs/screens');
    fs.mkdirSync(out, { recursive: true });
    for (const file of fs.readdirSync(out)) if (file.startsWith('console-') && file.endsWith('.png')) fs.rmSync(path.join(out, file));
    await consoleScreens(out);
  }, 600_000);
});
