// The console's screenshots for `npm run screens` (screens.test.ts): its main pages at a
// desktop's size, in Spanish, with a supplier, its people, the demo catalog, orders and a
// failed webhook delivery and a ticket made through the real APIs.
import path from 'node:path';
import { createSurtidoClient } from '../../src/client/index.ts';
import { DEMO_USER, seedDemoCatalog } from '../../src/main/demo-catalog.ts';
import { consoleSignIn, OPERATOR, startConsole } from './console-harness.ts';

export async function consoleScreens(out: string) {
  const world = await startConsole();
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
      async (ids) => void (await surtido.waitForBatch(ids)),
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

    await page.goto('/console/overview');
    await page.locator('[data-figure="deliveries-failing"]').waitFor();
    await shoot(page, '11-overview');
    await page.goto(`/console/tickets/${ticket.id}`);
    await page.getByRole('button', { name: 'Cerrar ticket' }).waitFor();
    await shoot(page, '12-ticket');
  } finally {
    await world.close();
  }
}
