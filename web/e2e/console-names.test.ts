// Tickets and orders name the store and the person (issue 34), in the console at a phone's
// size (390x844), in Spanish, against the real service on embedded PGlite; axe on every page.
// The ERP (the test, through the project's client) loads the demo catalog and its store
// "Tienda Doña Rosa (demo)", whose user Rosa has a name, adds a second user registered with
// a phone alone, and a seller serving the store. Through /app, Rosa orders and opens a
// ticket, the nameless user does the same, and the seller orders for the store. The owner
// then reads the tickets list, a ticket, the orders list and an order: each says the store's
// name (not only its code) and who opened or placed it: the user's name, the phone they were
// registered with masked to its last four digits, or the seller's name.
// Runs in the PGlite pass only (skipped when DATABASE_URL is set); fails when Chromium is missing.
import { expect, it } from 'vitest';
import { DEMO_STORE, DEMO_USER } from '../../src/main/demo-catalog.ts';
import { accessible, consoleSignIn, consoleWorld, inBrowser, ownerWithDemoCatalog } from './console-harness.ts';

const world = consoleWorld();
const OWNER = 'duena@norte.test';
const NAMELESS = '+573009998877';
const SELLER = { internalCode: 'VEND-01', name: 'Carlos Pérez', phone: '+573005550011' };
const PHONE = { width: 390, height: 844 };
const SHOTS = process.env.E2E_SHOTS;

/** A store-app token for the phone, signed in with the code the service sent to it. */
async function appToken(phone: string): Promise<Record<string, string>> {
  const sent = await world.t.request({ method: 'POST', url: '/app/auth/code', payload: { phone } });
  expect(sent.statusCode, sent.body).toBe(202);
  const code = await world.t.notifier.waitForCode(phone);
  const res = await world.t.request({ method: 'POST', url: '/app/auth/token', payload: { phone, code } });
  expect(res.statusCode, res.body).toBe(200);
  return { authorization: `Bearer ${res.json().access_token}` };
}

async function app(headers: Record<string, string>, method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await world.t.request({ method, url, headers, ...(payload ? { payload } : {}) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json();
}

const LINES = [{ productInternalCode: 'COLA-350', units: 24, quantity: 5 }];

inBrowser('the console names the store and the person on tickets and orders', () => {
  it('tickets list, ticket page, orders list and order page, on a phone in Spanish', async () => {
    const { surtido } = await ownerWithDemoCatalog(world, OWNER);
    await surtido.post('/store/{code}/add/user', { params: { path: { code: DEMO_STORE } }, body: { users: [{ phone: NAMELESS }] } });
    await surtido.put('/seller/{code}', { params: { path: { code: SELLER.internalCode } }, body: { name: SELLER.name, phone: SELLER.phone, storeInternalCodes: [DEMO_STORE] } });

    const rosa = await appToken(DEMO_USER.phone);
    const storeId = (await app(rosa, 'GET', '/app/me')).stores[0].id as number;
    const rosaOrder = (await app(rosa, 'POST', `/app/stores/${storeId}/orders`, { lines: LINES })).id as number;
    const rosaTicket = (await app(rosa, 'POST', `/app/stores/${storeId}/tickets`, { message: 'Llegaron dos latas abolladas' })).id as number;
    const nameless = await appToken(NAMELESS);
    const namelessOrder = (await app(nameless, 'POST', `/app/stores/${storeId}/orders`, { lines: LINES })).id as number;
    const namelessTicket = (await app(nameless, 'POST', `/app/stores/${storeId}/tickets`, { message: 'Falta una caja de papas' })).id as number;
    const seller = await appToken(SELLER.phone);
    const sellerOrder = (await app(seller, 'POST', `/app/stores/${storeId}/orders`, { lines: LINES })).id as number;

    const page = await (await world.desktop('es-CO', PHONE)).newPage();
    await consoleSignIn(world, page, OWNER);

    // The tickets list: the store by its name (its code beside it) and who opened each ticket.
    await page.goto('/console/tickets');
    const rosaRow = page.locator(`[data-ticket="${rosaTicket}"]`);
    await rosaRow.waitFor();
    expect(await rosaRow.getByTestId('ticket-store').textContent()).toBe('Tienda Doña Rosa (demo) TIENDA-DEMO');
    expect(await rosaRow.getByTestId('ticket-person').textContent()).toBe('Rosa (demo)');
    expect(await page.locator(`[data-ticket="${namelessTicket}"]`).getByTestId('ticket-person').textContent()).toBe('Celular terminado en 8877');
    // The whole number is nowhere on the page.
    expect(await page.content()).not.toContain('9998877');
    await accessible(page, 'tickets with names');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/console-names-tickets.png`, fullPage: true });

    // A ticket: the store and the person in its facts and on the store's messages.
    await page.goto(`/console/tickets/${namelessTicket}`);
    await page.getByRole('heading', { name: `Ticket ${namelessTicket}`, level: 1 }).waitFor();
    expect(await page.getByTestId('ticket-store').textContent()).toBe('Tienda Doña Rosa (demo) (TIENDA-DEMO)');
    expect(await page.getByTestId('ticket-person').textContent()).toBe('Celular terminado en 8877');
    expect(await page.locator('[data-from="STORE"] .who strong').first().textContent()).toBe('Celular terminado en 8877 · Tienda Doña Rosa (demo)');
    await accessible(page, 'a ticket with names');
    // A change keeps the names (the change's answer carries none; they are the ticket's).
    await page.getByRole('button', { name: 'Marcar en curso' }).click();
    await page.getByText('Listo: el ticket quedó «En curso».').waitFor();
    expect(await page.getByTestId('ticket-person').textContent()).toBe('Celular terminado en 8877');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/console-names-ticket.png`, fullPage: true });

    // The orders list: who placed each order, a store user or the store's seller.
    await page.goto('/console/orders');
    await page.locator(`[data-order="${sellerOrder}"]`).waitFor();
    const person = (id: number) => page.locator(`[data-order="${id}"]`).getByTestId('order-person').textContent();
    expect(await person(rosaOrder)).toBe('Rosa (demo)');
    expect(await person(namelessOrder)).toBe('Celular terminado en 8877');
    expect(await person(sellerOrder)).toBe('Carlos Pérez (vendedor)');
    expect(await page.content()).not.toContain('9998877');
    await accessible(page, 'orders with names');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/console-names-orders.png`, fullPage: true });

    // An order: the store and the person who placed it.
    await page.goto(`/console/orders/${namelessOrder}`);
    await page.getByRole('heading', { name: `Pedido ${namelessOrder}`, level: 1 }).waitFor();
    expect(await page.getByTestId('order-store').textContent()).toBe('Tienda Doña Rosa (demo) (TIENDA-DEMO)');
    expect(await page.getByTestId('order-person').textContent()).toBe('Celular terminado en 8877');
    await accessible(page, 'an order with names');
    await page.goto(`/console/orders/${sellerOrder}`);
    await page.getByRole('heading', { name: `Pedido ${sellerOrder}`, level: 1 }).waitFor();
    expect(await page.getByTestId('order-person').textContent()).toBe('Carlos Pérez, vendedor (VEND-01)');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/console-names-order.png`, fullPage: true });
  });
});
