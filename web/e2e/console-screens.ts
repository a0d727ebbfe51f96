// The console's screenshots for `npm run screens` (screens.test.ts): its main pages at a
// desktop's size, in Spanish, with a supplier, its people, the demo catalog, orders and a
// failed webhook delivery and a ticket made through the real APIs.
import path from 'node:path';
import { createSurtidoClient } from '../../src/client/index.ts';
import { DEMO_USER, seedDemoCatalog } from '../../src/main/demo-catalog.ts';
import { consoleSignIn, OPERATOR, POLL, PRODUCTS_CSV, startConsole } from './console-harness.ts';

export async function consoleScreens(out: string) {
  // With the image worker: the products page shows each picture's state.
  const world = await startConsole({ images: true });
  const { t, receiver } = world;
  try {
    const ok = async (res: Promise<{ statusCode: number; body: string }>) => {
      const r = await res;
      if (r.statusCode >= 300) throw new Error(`${r.statusCode} ${r.body}`);
      return JSON.parse(r.body);
    };
    const supplier = await ok(t.admin('POST', '/admin/suppliers', { name: 'Distribuidora Andes', code: 'ANDES' }));
    const sur = await ok(t.admin('POST', '/admin/suppliers', { name: 'Lácteos del Sur', code: 'SUR' }));
    const owner = 'duena@andes.test';
    // A member of two suppliers: the picker.
    await ok(t.admin('POST', `/admin/suppliers/${sur.id}/members`, { email: owner, role: 'viewer' }));
    for (const [email, role] of [[owner, 'owner'], ['agente@andes.test', 'agent'], ['gerente@andes.test', 'manager'], ['lector@andes.test', 'viewer']]) {
      await ok(t.admin('POST', `/admin/suppliers/${supplier.id}/members`, { email, role }));
    }
    const credential = await ok(t.admin('POST', `/admin/suppliers/${supplier.id}/credentials`));
    const surtido = createSurtidoClient({ baseUrl: world.baseUrl, apiKey: credential.apiKey, clientId: credential.clientId, clientSecret: credential.clientSecret });
    await seedDemoCatalog(
      (method, url, body) => (surtido as unknown as Record<string, (u: string, i: object) => Promise<unknown>>)[method.toLowerCase()]!(url, body === undefined ? {} : { body }),
      async (ids) => void (await surtido.waitForBatch(ids, undefined, POLL)),
    );
    receiver.secret = (await ok(t.admin('PUT', `/admin/suppliers/${supplier.id}/webhook`, { baseUrl: receiver.url, enabled: true }))).secret;

    // Orders from the demo store, in several states.
    await ok(t.request({ method: 'POST', url: '/app/auth/code', payload: { phone: DEMO_USER.phone } }));
    const code = await t.notifier.waitForCode(DEMO_USER.phone);
    const token = (await ok(t.request({ method: 'POST', url: '/app/auth/token', payload: { phone: DEMO_USER.phone, code } }))).access_token;
    const headers = { authorization: `Bearer ${token}` };
    const storeId = (await ok(t.request({ method: 'GET', url: '/app/me', headers }))).stores[0].id;
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const lines = [{ productInternalCode: 'COLA-350', units: 24, quantity: 3 + i }, { productInternalCode: 'PAPAS-45', units: 12, quantity: 1 + (i % 3) }];
      ids.push((await ok(t.request({ method: 'POST', url: `/app/stores/${storeId}/orders`, headers: { ...headers, 'idempotency-key': `screens-${i}` }, payload: { lines } }))).id);
    }
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    await surtido.put('/order/{id}/confirm', { params: { path: { id: ids[0]! } }, body: { deliveryDate: day } });
    await surtido.put('/order/{id}/confirm', { params: { path: { id: ids[1]! } }, body: { deliveryDate: day } });
    await surtido.put('/order/{id}/deliver', { params: { path: { id: ids[1]! } }, body: { complete: true } });
    await surtido.put('/order/{id}/cancel', { params: { path: { id: ids[2]! } }, body: { cancelCode: 'OUT_OF_STOCK' } });
    // A ticket the supplier asked more about.
    const ticket = await ok(t.request({ method: 'POST', url: `/app/stores/${storeId}/tickets`, headers, payload: { message: 'Llegaron dos cajas de gaseosa golpeadas.' } }));
    await surtido.post('/support/ticket/additional-info', { body: { ticketId: ticket.id, message: '¿Nos mandas una foto de las cajas?' } });
    for (let i = 0; i < 200 && receiver.refused < 3; i++) await new Promise((r) => setTimeout(r, 50));

    const shoot = async (page: import('playwright-core').Page, name: string) => {
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: path.join(out, `console-${name}.png`), fullPage: true });
      console.log(`docs/screens/console-${name}.png`);
    };

    const ops = await (await world.desktop()).newPage();
    await ops.goto('/console/');
    await ops.waitForURL('**/sign-in');
    await shoot(ops, '01-sign-in');
    await consoleSignIn(world, ops, OPERATOR);
    await ops.locator('[data-supplier="ANDES"]').waitFor();
    await shoot(ops, '02-operator-suppliers');
    await ops.goto(`/console/admin/store-users?contact=${encodeURIComponent(DEMO_USER.phone)}`);
    await ops.getByTestId('sessions-ended').waitFor();
    await shoot(ops, '03-operator-store-user');

    const page = await (await world.desktop()).newPage();
    await consoleSignIn(world, page, owner);
    await page.getByRole('heading', { name: 'Elige el proveedor' }).waitFor();
    await shoot(page, '04-supplier-picker');
    await page.getByRole('button', { name: /Distribuidora Andes/ }).click();
    // A member starts at the overview; the orders are one link away.
    await page.waitForURL('**/console/overview');
    await page.goto('/console/orders');
    await page.locator('[data-order]').first().waitFor();
    await shoot(page, '05-orders');
    await page.goto(`/console/orders/${ids[0]}`);
    await page.getByRole('button', { name: 'Entregar en parte' }).click();
    await page.getByRole('button', { name: 'Registrar entrega' }).waitFor();
    await shoot(page, '06-order');
    await page.goto('/console/webhooks?failing=true');
    const failed = page.locator('[data-delivery]').first();
    await failed.waitFor();
    await failed.getByText(/Intentos/).click();
    await shoot(page, '07-webhooks');
    await page.goto('/console/members');
    await page.locator(`[data-member="${owner}"]`).waitFor();
    await shoot(page, '08-members');
    await page.goto('/console/credentials');
    await page.getByRole('button', { name: 'Emitir credencial' }).click();
    await page.getByTestId('issued').waitFor();
    await shoot(page, '09-credentials');

    const phone = await (await world.desktop('es-CO', { width: 390, height: 844 })).newPage();
    await consoleSignIn(world, phone, 'agente@andes.test');
    await phone.waitForURL('**/console/overview');
    await phone.goto('/console/orders');
    await phone.locator('[data-order]').first().waitFor();
    await shoot(phone, '10-orders-phone');
    // The tickets on a phone: each store by its name and who opened each ticket (issue 34).
    await phone.goto('/console/tickets');
    await phone.locator('[data-ticket]').first().waitFor();
    await shoot(phone, '10-tickets-phone');
    // The navigation behind the menu button on a phone (issue 34).
    await phone.getByRole('button', { name: 'Menú' }).click();
    await shoot(phone, '10-menu-phone');
    await phone.keyboard.press('Escape');

    await page.goto('/console/overview');
    await page.locator('[data-figure="deliveries-failing"]').waitFor();
    await shoot(page, '11-overview');
    await page.goto(`/console/tickets/${ticket.id}`);
    await page.getByRole('button', { name: 'Cerrar ticket' }).waitFor();
    await shoot(page, '12-ticket');

    // Imports: a products CSV with bad rows, uploaded in the console; its failed rows, then the list.
    await page.goto('/console/imports');
    await page.getByLabel('Qué contiene').selectOption({ label: 'Productos' });
    await page.getByLabel('Archivo (.csv o .jsonl)').setInputFiles({ name: 'productos.csv', mimeType: 'text/csv', buffer: Buffer.from(PRODUCTS_CSV) });
    await page.getByRole('button', { name: 'Subir e importar' }).click();
    await page.waitForURL(/\/console\/imports\/[0-9a-f-]{36}/);
    await page.locator('[data-line]').first().waitFor();
    await shoot(page, '14-import-failures');
    await page.goto('/console/imports');
    await page.getByLabel('Qué contiene').selectOption({ label: 'Precios' });
    await page.getByLabel('Archivo (.csv o .jsonl)').setInputFiles({
      name: 'precios.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('priceListInternalCode,productInternalCode,units,price\nPL-DEMO,COLA-350,6,9900\nPL-DEMO,AGUA-600,6,6500\n'),
    });
    await page.getByRole('button', { name: 'Subir e importar' }).click();
    await page.waitForURL(/\/console\/imports\/[0-9a-f-]{36}/);
    await page.getByText('Todas las filas se aplicaron.').waitFor();
    await page.goto('/console/imports');
    await page.getByLabel('Qué contiene').selectOption({ label: 'Precios' });
    await page.locator('[data-import="precios.csv"][data-status="completed"]').waitFor();
    await shoot(page, '13-imports');

    // Catalog: pictures for most products (one that fails, two without), a price being
    // changed, the stores, the promotions and a cart priced as the demo store sees it.
    const listed = await surtido.get('/product', { params: { query: { take: 50 } } });
    const pictured = listed.data.map((p, i) => ({
      internalCode: p.internalCode,
      name: p.name,
      brandInternalCode: p.brandInternalCode,
      categoryInternalCode: p.categoryInternalCode,
      image: i === 3 ? `${world.imageBase}/NO-SUCH-PICTURE.png` : i === 5 || i === 8 ? null : `${world.imageBase}/${p.internalCode}.png`,
    }));
    await surtido.waitForBatch((await surtido.post('/batch/product', { body: { upsert: pictured } })).batchId, undefined, POLL);
    for (let i = 0; i < 600; i++) {
      const states = (await surtido.get('/product', { params: { query: { take: 50 } } })).data.map((p) => p.imageStatus);
      if (!states.includes('pending')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await page.goto('/console/products');
    await page.locator('[data-product]').first().waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('img.thumb')].every((img) => (img as HTMLImageElement).complete));
    await shoot(page, '15-products');
    await page.goto('/console/pricelists/PL-DEMO?search=gaseosa');
    const entry = page.locator('[data-entry="COLA-350/24"]');
    await entry.getByRole('button', { name: /^Cambiar precio/ }).click();
    await entry.getByRole('button', { name: 'Guardar precio' }).waitFor();
    await shoot(page, '16-pricelist');
    await page.goto('/console/stores');
    await page.locator('[data-store]').first().waitFor();
    await shoot(page, '17-stores');
    // A store's page with its buyers, and the delivery log, on a phone (issue 34).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/console/stores/TIENDA-DEMO');
    await page.locator('[data-buyer]').first().waitFor();
    await shoot(page, '17-store-buyers-phone');
    await page.goto('/console/webhooks');
    await page.locator('[data-delivery]').first().waitFor();
    await shoot(page, '07-webhooks-phone');
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.goto('/console/promotions');
    await page.locator('[data-promotion="DESC-GASEOSAS"] [data-switch]').getByRole('button').click();
    await page.getByRole('button', { name: 'Sí, deshabilitar' }).waitFor();
    await shoot(page, '18-promotions');
    await page.goto('/console/promotions/DESC-GASEOSAS');
    await page.getByLabel('Tienda (código)').fill('TIENDA-DEMO');
    await page.getByLabel('Unidades por paquete').fill('24');
    await page.getByLabel('Cantidad').fill('5');
    await page.getByRole('button', { name: 'Agregar línea' }).click();
    const chips = page.locator('fieldset').filter({ hasText: 'Línea 2' });
    await chips.getByLabel('Producto (código)').fill('PAPAS-45');
    await chips.getByLabel('Unidades por paquete').fill('12');
    await chips.getByLabel('Cantidad').fill('1');
    await page.getByRole('button', { name: 'Calcular' }).click();
    await page.getByTestId('cart-answer').waitFor();
    // The header is sticky: from the top, so it does not cover the page in a full-page shot.
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, '19-promotion-preview');

    // Batches (one with failing items), the audit log, the operators' page of a supplier.
    const products = await surtido.post('/batch/product', {
      body: {
        upsert: [
          { internalCode: 'JUGO-1L', name: 'Jugo de mango 1 L', brandInternalCode: 'ANDINA', categoryInternalCode: 'BEBIDAS', displayProducts: [{ units: 1, name: 'Unidad' }] },
          { internalCode: 'TE-FRIO', name: 'Té frío', brandInternalCode: 'NO-EXISTE', categoryInternalCode: 'BEBIDAS', displayProducts: [{ units: 1, name: 'Unidad' }] },
          { internalCode: 'GALLETA', name: 'Galletas', brandInternalCode: 'CRUJI', categoryInternalCode: 'PANADERIA', displayProducts: [{ units: 1, name: 'Unidad' }] },
        ],
      },
    });
    await surtido.waitForBatch(products.batchId, undefined, POLL);
    await page.goto('/console/batches');
    await page.locator(`[data-batch="${products.batchId[0]}"]`).waitFor();
    await shoot(page, '20-batches');
    await page.goto(`/console/batches/${products.batchId[0]}?status=failed`);
    await page.locator('[data-item="TE-FRIO"]').waitFor();
    await page.locator('[data-item="TE-FRIO"]').getByText('Ver el ítem').click();
    await shoot(page, '21-batch-failures');
    await page.goto('/console/audit');
    await page.locator('[data-entry]').first().waitFor();
    await shoot(page, '22-audit');
    // The audit log on a phone: each entry a card, told as a sentence (issue 34).
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, '22-audit-phone');
    await page.setViewportSize({ width: 1280, height: 860 });
    await ops.goto(`/console/admin/suppliers/${supplier.id}`);
    await ops.getByTestId('webhook-health').waitFor();
    await ops.locator('[data-credential]').first().waitFor();
    await shoot(ops, '23-operator-supplier');
  } finally {
    await world.close();
  }
}
