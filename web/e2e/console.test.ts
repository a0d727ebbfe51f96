// The console in a real browser (Debian's Chromium) at a desktop's size, against the real
// service on embedded PGlite; axe on every page visited. An operator creates a supplier and
// its owner; the owner (a member of two suppliers: the picker) invites an agent, a viewer and
// a manager, and issues an API credential whose secret is shown once, and which then loads the
// demo catalog through the real client; a store orders and opens a ticket through /app; the
// agent starts at the overview (today's orders, open tickets), confirms the order, delivers
// it in part and records a partial return, asks the store for more information on the ticket and closes it (a change refused
// meanwhile said in words); the webhook receiver fails, the owner sees the failed delivery and
// a failed batch on the overview and redelivers it once it works; a viewer sees no action and
// the API refuses the viewer's calls; the operator ends the store user's sessions. Runs in the PGlite pass only (skipped when
// DATABASE_URL is set); fails when Chromium is missing.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { createSurtidoClient } from '../../src/client/index.ts';
import { DEMO_USER, seedDemoCatalog } from '../../src/main/demo-catalog.ts';
import { accessible, consoleSignIn, consoleWorld, inBrowser, OPERATOR, POLL } from './console-harness.ts';

const world = consoleWorld();

const OWNER = 'duena@andes.test';
const AGENT = 'agente@andes.test';
const VIEWER = 'lector@andes.test';
const MANAGER = 'gerente@andes.test';

/** The store user's token: signed in through /app with the code sent to the phone. */
async function storeUserToken(): Promise<string> {
  const sent = await world.t.request({ method: 'POST', url: '/app/auth/code', payload: { phone: DEMO_USER.phone } });
  expect(sent.statusCode, sent.body).toBe(202);
  const code = await world.t.notifier.waitForCode(DEMO_USER.phone);
  const res = await world.t.request({ method: 'POST', url: '/app/auth/token', payload: { phone: DEMO_USER.phone, code } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token;
}

async function placeOrder(token: string, key: string): Promise<number> {
  const headers = { authorization: `Bearer ${token}` };
  const me = await world.t.request({ method: 'GET', url: '/app/me', headers });
  const storeId = me.json().stores[0].id as number;
  const placed = await world.t.request({
    method: 'POST',
    url: `/app/stores/${storeId}/orders`,
    headers: { ...headers, 'idempotency-key': key },
    payload: { lines: [{ productInternalCode: 'COLA-350', units: 24, quantity: 5 }, { productInternalCode: 'PAPAS-45', units: 12, quantity: 2 }] },
  });
  expect(placed.statusCode, placed.body).toBe(200);
  return placed.json().id;
}

/** Opens a support ticket as the store's user (POST /app/stores/{id}/tickets). */
async function openTicket(token: string, message: string): Promise<number> {
  const headers = { authorization: `Bearer ${token}` };
  const storeId = (await world.t.request({ method: 'GET', url: '/app/me', headers })).json().stores[0].id as number;
  const opened = await world.t.request({ method: 'POST', url: `/app/stores/${storeId}/tickets`, headers: { ...headers, 'idempotency-key': `ticket-${message}` }, payload: { message } });
  expect(opened.statusCode, opened.body).toBe(200);
  return opened.json().id;
}

const figure = (page: Page, name: string) => page.locator(`[data-figure="${name}"] .figure`).textContent();

const sessionToken = (page: Page) => page.evaluate(() => localStorage.getItem('surtido.console.token'));

inBrowser('the console in a browser', () => {
  it('operator, owner, agent and viewer: suppliers, members, credentials, overview, orders, tickets, webhooks and what each role may do', async () => {
    const { t, receiver } = world;

    // The operator signs in, creates the supplier and adds its owner.
    const ops = await (await world.desktop()).newPage();
    await consoleSignIn(world, ops, OPERATOR, (where) => accessible(ops, `operator ${where}`));
    await ops.waitForURL('**/console/admin/suppliers');
    await ops.getByText('No hay proveedores.').waitFor();
    await accessible(ops, 'suppliers (empty)');
    await ops.getByLabel('Nombre').fill('Distribuidora Andes');
    await ops.getByLabel('Código').fill('ANDES');
    await ops.getByRole('button', { name: 'Crear proveedor' }).click();
    await ops.waitForURL(/\/console\/admin\/suppliers\/\d+$/);
    const supplierId = Number(/suppliers\/(\d+)$/.exec(ops.url())![1]);
    await ops.getByText('Todavía no tiene miembros: agrega a su dueño.').waitFor();
    await accessible(ops, 'supplier members (empty)');
    await ops.getByLabel('Correo').fill(OWNER);
    await ops.getByRole('button', { name: 'Agregar miembro' }).click();
    await ops.locator(`[data-member="${OWNER}"]`).waitFor();
    expect(await ops.locator(`[data-member="${OWNER}"] td`).nth(1).textContent()).toBe('Dueño');
    await accessible(ops, 'supplier members');
    // Disabling and enabling again, from the list.
    await ops.getByRole('link', { name: 'Volver a los proveedores' }).click();
    await ops.getByRole('button', { name: 'Deshabilitar Distribuidora Andes' }).click();
    await ops.getByRole('button', { name: 'Habilitar Distribuidora Andes' }).waitFor();
    await expect.poll(async () => (await t.admin('GET', '/admin/suppliers')).json().find((s: { id: number }) => s.id === supplierId).enabled).toBe(false);
    await ops.getByRole('button', { name: 'Habilitar Distribuidora Andes' }).click();
    await ops.getByRole('button', { name: 'Deshabilitar Distribuidora Andes' }).waitFor();
    await accessible(ops, 'suppliers');

    // The owner is also a viewer of another supplier: after sign-in she picks one.
    const other = (await t.admin('POST', '/admin/suppliers', { name: 'Lácteos del Sur', code: 'SUR' })).json();
    expect((await t.admin('POST', `/admin/suppliers/${other.id}/members`, { email: OWNER, role: 'viewer' })).statusCode).toBe(200);
    // The supplier's webhook, set by the platform (an admin API write), to a receiver that fails for now.
    const hook = await t.admin('PUT', `/admin/suppliers/${supplierId}/webhook`, { baseUrl: receiver.url, enabled: true });
    expect(hook.statusCode, hook.body).toBe(200);
    receiver.secret = hook.json().secret;

    const owner = await (await world.desktop()).newPage();
    await consoleSignIn(world, owner, OWNER);
    await owner.waitForURL('**/console/suppliers');
    await owner.getByRole('heading', { name: 'Elige el proveedor' }).waitFor();
    await accessible(owner, 'supplier picker');
    await owner.getByRole('button', { name: /Distribuidora Andes/ }).click();
    await owner.waitForURL('**/console/overview');
    expect(await owner.getByTestId('acting').textContent()).toBe('Distribuidora Andes · Dueño');
    await owner.getByText('Ningún lote reciente tiene ítems fallidos.').waitFor();
    expect(await owner.getByTestId('open-tickets').textContent()).toBe('Tickets abiertos: 0');
    expect(await figure(owner, 'orders-PENDING')).toBe('0');
    expect(await figure(owner, 'deliveries-failing')).toBe('0');
    await accessible(owner, 'overview (empty)');
    await owner.getByRole('link', { name: 'Pedidos', exact: true }).click();
    await owner.getByText('No hay pedidos con estos filtros.').waitFor();
    await accessible(owner, 'orders (empty)');

    // Members: an agent, a viewer, and a viewer made manager.
    await owner.getByRole('link', { name: 'Miembros', exact: true }).click();
    await owner.locator(`[data-member="${OWNER}"]`).waitFor();
    await accessible(owner, 'members');
    for (const [email, role] of [[AGENT, 'Agente'], [VIEWER, 'Solo lectura'], [MANAGER, 'Solo lectura']] as const) {
      await owner.getByLabel('Correo', { exact: true }).fill(email);
      await owner.getByLabel('Rol', { exact: true }).selectOption({ label: role });
      await owner.getByRole('button', { name: 'Invitar' }).click();
      await owner.locator(`[data-member="${email}"]`).waitFor();
    }
    await owner.getByLabel(`Rol de ${MANAGER}`).selectOption({ label: 'Administrador' });
    const ownerToken = await sessionToken(owner);
    await expect
      .poll(async () => (await t.request({ method: 'GET', url: '/member', headers: { authorization: `Bearer ${ownerToken}` } })).json().find((m: { email: string }) => m.email === MANAGER)?.role)
      .toBe('manager');

    // A credential: its secret shown once, here; it works with the project's own client.
    await owner.getByRole('link', { name: 'Credenciales', exact: true }).click();
    await owner.getByText('No hay credenciales.').waitFor();
    await owner.getByRole('button', { name: 'Emitir credencial' }).click();
    await owner.getByTestId('issued').waitFor();
    await accessible(owner, 'credential issued');
    const credential = {
      apiKey: (await owner.getByTestId('api-key').textContent())!,
      clientId: (await owner.getByTestId('client-id').textContent())!,
      clientSecret: (await owner.getByTestId('client-secret').textContent())!,
    };
    expect(credential.apiKey).toMatch(/^key_/);
    await owner.locator(`[data-credential="${credential.clientId}"]`).waitFor();
    await owner.reload();
    await owner.locator(`[data-credential="${credential.clientId}"]`).waitFor();
    expect(await owner.getByTestId('issued').count()).toBe(0);
    expect(await owner.content()).not.toContain(credential.clientSecret);

    const surtido = createSurtidoClient({ baseUrl: world.baseUrl, ...credential });
    await seedDemoCatalog(
      (method, url, body) => (surtido as unknown as Record<string, (u: string, i: object) => Promise<unknown>>)[method.toLowerCase()]!(url, body === undefined ? {} : { body }),
      async (ids) => {
        const outcome = await surtido.waitForBatch(ids, undefined, POLL);
        expect(outcome.failed).toEqual([]);
      },
    );
    // A batch with a failed item, for the overview.
    const bad = await surtido.post('/batch/stock/grouper', { body: { upsert: [{ grouperCode: 'BODEGA-DEMO', productInternalCode: 'NO-EXISTE', available: true }] } });
    expect((await surtido.waitForBatch(bad.batchId, undefined, POLL)).failed).toHaveLength(1);

    // A store orders through /app; the receiver refuses the order.created call.
    const storeToken = await storeUserToken();
    const orderId = await placeOrder(storeToken, 'console-e2e-1');
    const complaint = 'Llegaron dos cajas de gaseosa golpeadas.';
    const ticketId = await openTicket(storeToken, complaint);
    await expect.poll(() => receiver.refused, { timeout: 20_000 }).toBeGreaterThan(0);

    // The agent starts at the overview (orders and tickets only): today's pending order and the
    // new ticket; the order's figure opens the orders filtered so. The agent confirms it with a
    // date and delivers it in part.
    const agent = await (await world.desktop()).newPage();
    await consoleSignIn(world, agent, AGENT);
    await agent.waitForURL('**/console/overview');
    await expect.poll(() => agent.getByTestId('open-tickets').textContent()).toBe('Tickets abiertos: 1');
    expect(await figure(agent, 'tickets-PENDING')).toBe('1');
    expect(await figure(agent, 'orders-PENDING')).toBe('1');
    expect(await agent.locator('[data-figure="deliveries-failing"]').count()).toBe(0);
    await accessible(agent, 'overview (agent)');
    expect(await agent.getByRole('navigation', { name: 'Secciones de la consola' }).getByRole('link').allTextContents()).toEqual(['Resumen', 'Pedidos', 'Tickets']);
    await agent.locator('[data-figure="orders-PENDING"] a').click();
    await agent.waitForURL(/\/orders\?.*status=PENDING/);
    expect(new URL(agent.url()).searchParams.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await agent.locator(`[data-order="${orderId}"]`).waitFor();
    await accessible(agent, 'orders (pending)');
    await agent.getByLabel('Estado').selectOption({ label: 'Entregado' });
    await agent.waitForURL(/status=DELIVERED/);
    await agent.getByText('No hay pedidos con estos filtros.').waitFor();
    await agent.goBack();
    await agent.locator(`[data-order="${orderId}"]`).waitFor();
    await agent.getByRole('link', { name: `#${orderId}` }).click();
    await agent.waitForURL(`**/console/orders/${orderId}`);
    await expect.poll(() => agent.getByTestId('order-status').textContent()).toBe('Pendiente');
    await accessible(agent, 'order (pending)');
    await agent.getByLabel('Fecha de entrega (opcional)').fill('2031-03-14');
    await agent.getByRole('button', { name: 'Confirmar pedido' }).click();
    await expect.poll(() => agent.getByTestId('order-status').textContent()).toBe('Confirmado');
    expect(await agent.getByTestId('delivery-date').textContent()).toContain('2031');
    await agent.getByRole('button', { name: 'Entregar en parte' }).click();
    await agent.getByLabel(/Cantidad a entregar de Gaseosa cola 350 ml/).fill('3');
    await agent.getByLabel(/Cantidad a entregar de Papas fritas 45 g/).fill('2');
    await accessible(agent, 'order (delivering)');
    await agent.getByRole('button', { name: 'Registrar entrega' }).click();
    await expect.poll(() => agent.getByTestId('order-status').textContent()).toBe('Entregado');
    const delivered = (await surtido.get('/order/{id}', { params: { path: { id: orderId } } })).products.map((l) => [l.internalCode, l.quantity, l.deliveredQuantity]);
    expect(delivered).toEqual([
      ['COLA-350', 5, 3],
      ['PAPAS-45', 2, 2],
    ]);
    expect(await agent.locator('[data-line="COLA-350"] [data-testid="delivered"]').textContent()).toBe('3');
    // The store sends one box of cola back: a partial return, with its reason.
    await agent.getByRole('button', { name: 'Devolver en parte' }).click();
    await agent.getByLabel(/Cantidad devuelta de Gaseosa cola 350 ml/).fill('1');
    await agent.getByLabel('Motivo de la devolución (opcional)').fill('Caja golpeada');
    await accessible(agent, 'order (returning)');
    await agent.getByRole('button', { name: 'Registrar devolución' }).click();
    await agent.getByText('Listo: el pedido quedó Entregado.').waitFor();
    const returned = (await surtido.get('/order/{id}', { params: { path: { id: orderId } } })).products.map((l) => [l.internalCode, l.returnedQuantity]);
    expect(returned).toEqual([
      ['COLA-350', 1],
      ['PAPAS-45', 0],
    ]);

    // The ticket, from the overview's figure: the store's message, then the agent asks for more.
    await agent.getByRole('link', { name: 'Resumen', exact: true }).click();
    await agent.locator('[data-figure="tickets-PENDING"] a').click();
    await agent.waitForURL(/\/tickets\?status=PENDING/);
    await agent.locator(`[data-ticket="${ticketId}"]`).waitFor();
    await accessible(agent, 'tickets (new)');
    await agent.getByRole('link', { name: `#${ticketId}` }).click();
    await agent.waitForURL(`**/console/tickets/${ticketId}`);
    await agent.getByText(complaint).waitFor();
    // The store's first message says who opened the ticket and the store's name (issue 34).
    expect(await agent.locator('.conversation [data-from="STORE"] .who').textContent()).toContain('Rosa (demo) · Tienda Doña Rosa (demo)');
    await accessible(agent, 'ticket (new)');
    await agent.getByLabel('Mensaje para la tienda (opcional)').fill('¿Nos mandas una foto de las cajas?');
    await agent.getByRole('button', { name: 'Pedir más información' }).click();
    await expect.poll(() => agent.getByTestId('ticket-status').textContent()).toBe('Esperando a la tienda');
    await agent.getByText('Listo: el ticket quedó «Esperando a la tienda».').waitFor();
    expect(await agent.locator('.conversation li').evaluateAll((items) => items.map((li) => li.getAttribute('data-from')))).toEqual(['STORE', 'SUPPLIER']);
    expect(await agent.getByLabel('Mensaje para la tienda (opcional)').inputValue()).toBe('');
    await accessible(agent, 'ticket (info requested)');

    // The owner's overview counts the failing deliveries and shows the failed batch; the figure
    // opens the failing deliveries. She redelivers the order's once the receiver works.
    await owner.getByRole('link', { name: 'Resumen', exact: true }).click();
    await expect.poll(() => figure(owner, 'deliveries-failing')).not.toBe('0');
    expect(await owner.locator(`[data-batch="${bad.batchId}"] [data-testid="batch-failed"]`).textContent()).toBe('1 / 1');
    // The failed batch opens on its failed items.
    await owner.locator(`[data-batch="${bad.batchId}"] a`).click();
    await owner.waitForURL(`**/console/batches/${bad.batchId}?status=failed`);
    await owner.goBack();
    await accessible(owner, 'overview');
    await owner.locator('[data-figure="deliveries-failing"] a').click();
    await owner.waitForURL(/\/webhooks\?failing=true/);
    expect(await owner.getByLabel('Solo con el último intento fallido').isChecked()).toBe(true);
    const failed = owner.locator('[data-delivery]').filter({ hasText: 'order.created' }).first();
    await failed.waitFor();
    expect(await failed.textContent()).toContain('HTTP 500');
    await failed.getByText(/Intentos \(\d+\)/).click();
    await failed.getByText('receiver down for maintenance').first().waitFor();
    await accessible(owner, 'webhooks (failing)');
    receiver.failing = false;
    await failed.getByRole('button', { name: /^Reenviar #\d+$/ }).click();
    await owner.getByText(/Reenviada como la entrega \d+\./).waitFor();
    await expect
      .poll(() => receiver.events.find((e) => e.type === 'order.created' && (e.payload as { id: number }).id === orderId), { timeout: 20_000 })
      .toBeTruthy();
    await owner.getByLabel('Solo con el último intento fallido').uncheck();
    await owner.getByRole('button', { name: 'Enviar ping de prueba' }).click();
    await owner.getByText('Ping enviado: HTTP 200').waitFor();
    await owner.reload();
    await owner.locator('[data-delivery][data-status="delivered"]').filter({ hasText: 'order.created' }).first().waitFor();
    await accessible(owner, 'webhooks');

    // A viewer: no action anywhere, and the API refuses the calls the buttons would make.
    const second = await placeOrder(storeToken, 'console-e2e-2');
    const viewer = await (await world.desktop()).newPage();
    await consoleSignIn(world, viewer, VIEWER);
    await viewer.goto(`/console/orders/${second}`);
    await expect.poll(() => viewer.getByTestId('order-status').textContent()).toBe('Pendiente');
    await accessible(viewer, 'order (viewer)');
    // No button that writes: printing the order (its packing list) is for every role.
    expect(await viewer.getByRole('button').allTextContents()).toEqual(['Salir', 'Imprimir']);
    expect(await viewer.getByRole('navigation', { name: 'Secciones de la consola' }).getByRole('link').allTextContents()).toEqual(['Resumen', 'Pedidos', 'Tickets', 'Productos', 'Listas de precios', 'Tiendas', 'Cartera', 'Vendedores', 'Agrupadores', 'Promociones', 'Importaciones', 'Lotes', 'Webhooks', 'Auditoría']);
    await viewer.goto(`/console/tickets/${ticketId}`);
    await expect.poll(() => viewer.getByTestId('ticket-status').textContent()).toBe('Esperando a la tienda');
    await viewer.getByText(complaint).waitFor();
    expect(await viewer.getByRole('button').allTextContents()).toEqual(['Salir']);
    await accessible(viewer, 'ticket (viewer)');
    await viewer.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await viewer.locator('[data-delivery]').first().waitFor();
    expect(await viewer.getByRole('button', { name: /Reenviar|Enviar ping/ }).count()).toBe(0);
    const viewerHeaders = { authorization: `Bearer ${await sessionToken(viewer)}` };
    for (const [method, url, payload] of [
      ['POST', `/order/${second}/confirm`, {}],
      ['POST', `/order/${second}/cancel`, { cancelCode: 'OUT_OF_STOCK' }],
      ['POST', '/webhook/test', undefined],
      ['POST', '/member', { email: 'x@andes.test', role: 'owner' }],
      ['PUT', '/support/ticket/close', { ticketId }],
    ] as const) {
      const res = await t.request({ method, url, headers: viewerHeaders, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await surtido.get('/order/{id}', { params: { path: { id: second } } })).status).toBe('PENDING');

    // Meanwhile the supplier's own system solves the ticket through the API: the agent's page
    // still offers asking for more, which the service refuses, in words; the agent then closes it.
    await surtido.put('/support/ticket/{id}', { params: { path: { id: ticketId } }, body: { status: 'SOLVED', externalTicketId: 'ZD-7' } });
    await agent.getByRole('button', { name: 'Pedir más información' }).click();
    await agent.getByText('El ticket ya no admite esto: su estado cambió.').waitFor();
    await expect.poll(() => agent.getByTestId('ticket-status').textContent()).toBe('Resuelto');
    expect(await agent.getByRole('button', { name: 'Pedir más información' }).count()).toBe(0);
    await agent.getByLabel('Mensaje para la tienda (opcional)').fill('Cambiamos las dos cajas en la próxima entrega.');
    await agent.getByRole('button', { name: 'Cerrar ticket' }).click();
    await expect.poll(() => agent.getByTestId('ticket-status').textContent()).toBe('Cerrado');
    expect(await agent.locator('#ticket-actions').count()).toBe(0);
    const closed = await surtido.get('/support/ticket/{id}', { params: { path: { id: ticketId } } });
    expect([closed.status, closed.externalTicketId, closed.resolvedAt !== null]).toEqual(['CLOSED', 'ZD-7', true]);
    expect(closed.messages.map((m) => m.from)).toEqual(['STORE', 'SUPPLIER', 'SUPPLIER']);
    await accessible(agent, 'ticket (closed)');

    // The operator's system page: the four queues, and the supplier whose deliveries fail
    // (a ping the receiver refuses fails for good).
    receiver.failing = true;
    expect(await surtido.post('/webhook/test')).toMatchObject({ status: 'failed' });
    receiver.failing = false;
    await ops.getByRole('link', { name: 'Sistema' }).click();
    await ops.getByTestId('queues').waitFor();
    expect(await ops.locator('[data-queue]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-queue')))).toEqual(['batches', 'webhook_deliveries', 'image_downloads', 'messages']);
    await ops.locator('[data-testid="failing"] [data-supplier="ANDES"]').waitFor();
    await accessible(ops, 'system');

    // The operator finds the store user and ends their sessions: the store's token stops working.
    await ops.getByRole('link', { name: 'Usuarios de tiendas' }).click();
    await accessible(ops, 'store users (empty)');
    await ops.getByLabel('Celular o correo').fill(DEMO_USER.phone);
    await ops.getByRole('button', { name: 'Buscar' }).click();
    await ops.waitForURL(/contact=/);
    await ops.getByTestId('sessions-ended').waitFor();
    expect(await ops.getByTestId('sessions-ended').textContent()).toBe('nunca');
    await accessible(ops, 'store user');
    await ops.getByRole('button', { name: 'Cerrar todas sus sesiones' }).click();
    await ops.getByText('Cerramos sus sesiones: sus tokens ya no sirven.').waitFor();
    expect((await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${storeToken}` } })).statusCode).toBe(401);

    // The language switch, then signing out ends the session on the service too.
    await owner.getByLabel('Idioma').selectOption('en');
    await owner.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await expect.poll(() => owner.locator('html').getAttribute('lang')).toBe('en');
    await owner.getByRole('link', { name: 'Orders', exact: true }).click();
    await owner.getByRole('heading', { name: 'Orders' }).waitFor();
    await accessible(owner, 'orders (English)');
    await owner.getByRole('button', { name: 'Sign out' }).click();
    await owner.waitForURL('**/console/sign-in');
    expect((await t.request({ method: 'GET', url: '/console/me', headers: { authorization: `Bearer ${ownerToken}` } })).statusCode).toBe(401);
  }, 180_000);
});
