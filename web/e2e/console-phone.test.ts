// The console on a phone and the audit log in words (issue #34), in Debian's Chromium against
// the real service on embedded PGlite, in Spanish at 390x844: the navigation behind a menu
// button (44 px, aria-expanded, aria-controls; Escape closes it and gives the focus back; a
// link followed closes it), the lists as labelled cards with no page scrolling sideways
// (orders, products, audit), every button and link-button at least 44 px, and the audit log
// as sentences ("duena@… confirmó el pedido 12") with before → after and the sign-ins; its
// filters still work. At a desktop's width the navigation and the tables are as before.
// axe on every page. Runs in the PGlite pass only (skipped when DATABASE_URL is set).
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { DEMO_USER } from '../../src/main/demo-catalog.ts';
import { accessible, consoleSignIn, consoleWorld, firstRowLabels, inBrowser, ownerWithDemoCatalog, smallControls } from './console-harness.ts';

const world = consoleWorld();
const OWNER = 'duena@norte.test';
const PHONE = { width: 390, height: 844 };

/** Nothing on the page is wider than the phone: the document does not scroll sideways. */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

inBrowser('the console on a phone, and the audit log in words', () => {
  it('opens the navigation from a menu, shows lists as labelled cards with 44 px controls, and tells the audit log as sentences', async () => {
    const { t } = world;
    const { surtido } = await ownerWithDemoCatalog(world, OWNER);

    // The demo store orders through the store app; the supplier's ERP switches a price list off.
    const ok = async (res: Promise<{ statusCode: number; body: string }>) => {
      const r = await res;
      expect(r.statusCode, r.body).toBeLessThan(300);
      return JSON.parse(r.body);
    };
    await ok(t.request({ method: 'POST', url: '/app/auth/code', payload: { phone: DEMO_USER.phone } }));
    const code = await t.notifier.waitForCode(DEMO_USER.phone);
    const store = { authorization: `Bearer ${(await ok(t.request({ method: 'POST', url: '/app/auth/token', payload: { phone: DEMO_USER.phone, code } }))).access_token}` };
    const storeId = (await ok(t.request({ method: 'GET', url: '/app/me', headers: store }))).stores[0].id;
    const order = await ok(
      t.request({ method: 'POST', url: `/app/stores/${storeId}/orders`, headers: { ...store, 'idempotency-key': 'phone-1' }, payload: { lines: [{ productInternalCode: 'COLA-350', units: 24, quantity: 2 }] } }),
    );
    await surtido.put('/pricelist/{code}/status', { params: { path: { code: 'PL-DEMO' } }, body: { enabled: false } });
    const clientId = (await surtido.get('/audit', { params: { query: { entity: 'pricelist', take: 1 } } })).data[0]!.actor.id;

    const phone = await (await world.desktop('es-CO', PHONE)).newPage();
    await consoleSignIn(world, phone, OWNER);
    await phone.waitForURL('**/console/overview');

    // The top bar takes two rows at most (the menu, the language, "Salir"; the supplier and
    // the test switch), not three.
    expect((await phone.locator('header.top').boundingBox())!.height).toBeLessThanOrEqual(112);

    // 1. The navigation is behind the menu button.
    // Hidden, it is out of the accessibility tree: found by its element, named by its label.
    const nav = phone.locator('nav.side');
    expect(await nav.getAttribute('aria-label')).toBe('Secciones de la consola');
    const menu = phone.getByRole('button', { name: 'Menú' });
    expect(await nav.isVisible()).toBe(false);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await menu.getAttribute('aria-controls')).toBe(await nav.getAttribute('id'));
    const box = (await menu.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await nav.getByRole('link', { name: 'Pedidos', exact: true }).waitFor();
    await accessible(phone, 'overview, menu open (phone)');
    // Escape closes it and gives the focus back to the button.
    await nav.getByRole('link', { name: 'Pedidos', exact: true }).focus();
    await phone.keyboard.press('Escape');
    expect(await nav.isVisible()).toBe(false);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await phone.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('menu-button');
    // A link followed closes it.
    await menu.click();
    await nav.getByRole('link', { name: 'Pedidos', exact: true }).click();
    await phone.waitForURL('**/console/orders');
    expect(await nav.isVisible()).toBe(false);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');

    // 2 and 3. Lists as cards, labelled, nothing wider than the phone; every control 44 px.
    await phone.locator(`[data-order="${order.id}"]`).waitFor();
    for (const [path, row, where] of [
      ['/console/orders', `[data-order="${order.id}"]`, 'orders'],
      ['/console/products', '[data-product="COLA-350"]', 'products'],
      ['/console/audit', '[data-entry]', 'audit'],
    ] as const) {
      await phone.goto(path);
      await phone.locator(row).first().waitFor();
      await accessible(phone, `${where} (phone)`);
      expect(await scrollsSideways(phone), where).toBe(false);
      const cells = await firstRowLabels(phone);
      expect(cells.length, where).toBeGreaterThan(1);
      for (const cell of cells.filter((c) => c.label !== null)) {
        expect(cell.display, where).not.toBe('table-cell');
        expect(cell.shown, where).toBe(JSON.stringify(cell.label));
        expect(cell.labelFits, `${where}: the label "${cell.label}" is taller than its cell`).toBe(true);
      }
      // Every column with words in its header labels its cells; the headers row is off screen.
      expect(cells.filter((c) => c.label !== null).length, where).toBeGreaterThanOrEqual(2);
      expect((await phone.locator('.table-wrap thead').boundingBox())!.height, where).toBeLessThanOrEqual(1);
      expect(await smallControls(phone), where).toEqual([]);
    }
    await phone.goto('/console/overview');
    await phone.getByRole('heading', { level: 1 }).waitFor();
    await phone.waitForLoadState('networkidle');
    expect(await smallControls(phone), 'overview').toEqual([]);
    await menu.click();
    expect(await smallControls(phone), 'overview, menu open').toEqual([]);
    await phone.keyboard.press('Escape');

    // A row's action still works from its card: the order's link opens the order.
    await phone.goto('/console/orders');
    await phone.locator(`[data-order="${order.id}"] a`).first().click();
    await phone.waitForURL(`**/console/orders/${order.id}`);

    // 4. The owner confirms the order (her console session); the audit log tells it in words.
    const token = await phone.evaluate(() => localStorage.getItem('surtido.console.token'));
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    await ok(t.request({ method: 'PUT', url: `/order/${order.id}/confirm`, headers: { authorization: `Bearer ${token}` }, payload: { deliveryDate: day } }));
    await phone.goto('/console/audit');
    const sentences = phone.getByTestId('audit-sentence');
    await sentences.first().waitFor();
    const said = async () => (await sentences.allTextContents()).map((s) => s.replace(/\s+/g, ' ').trim());
    expect(await said()).toEqual(expect.arrayContaining([`${OWNER} confirmó el pedido ${order.id}`, `${OWNER} inició sesión`, `Credencial ${clientId} deshabilitó la lista de precios PL-DEMO`]));
    const confirmed = phone.locator('[data-entry]', { has: phone.getByText(`confirmó el pedido ${order.id}`) });
    const changes = (await confirmed.locator('ul.changes li').allTextContents()).map((s) => s.replace(/\s+/g, ' ').trim());
    expect(changes[0]).toBe('estado: Pendiente → Confirmado');
    expect(changes[1]).toMatch(new RegExp(`^fecha de entrega: .+ → ${day}$`));
    const disabled = phone.locator('[data-entry]', { has: phone.getByText('deshabilitó la lista de precios PL-DEMO') });
    expect(await disabled.locator('ul.changes li').allTextContents()).toEqual(['habilitado: sí → no']);
    // Each entry says when, as a time.
    expect(await confirmed.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await scrollsSideways(phone)).toBe(false);
    await accessible(phone, 'audit in words (phone)');
    // The filters stay: the sign-ins alone.
    await phone.getByLabel('Qué se cambió').selectOption('session');
    await phone.waitForURL(/\/audit\?entity=session/);
    await expect.poll(async () => await said()).toEqual([`${OWNER} inició sesión`]);
    await accessible(phone, 'audit, sign-ins (phone)');

    // At a desktop's width: no menu button, the navigation on the side, the list a table.
    const desk = await (await world.desktop()).newPage();
    await consoleSignIn(world, desk, OWNER);
    await desk.goto('/console/audit');
    await desk.locator('[data-entry]').first().waitFor();
    expect(await desk.getByRole('button', { name: 'Menú' }).isVisible()).toBe(false);
    expect(await desk.getByRole('navigation', { name: 'Secciones de la consola' }).isVisible()).toBe(true);
    expect(await desk.locator('.table-wrap thead th').first().isVisible()).toBe(true);
    expect(await desk.locator('[data-entry]').first().evaluate((tr) => getComputedStyle(tr).display)).toBe('table-row');
    await accessible(desk, 'audit (desktop)');
    // The newest sign-in is the desktop's, told the same way.
    expect((await desk.getByTestId('audit-sentence').first().textContent())?.replace(/\s+/g, ' ').trim()).toBe(`${OWNER} inició sesión`);
  }, 180_000);
});
