// A distributor's week (issue #31) in a real browser (Debian's Chromium), at a phone's
// size, in Spanish, against the real service on embedded PGlite; axe on every page. The
// demo store joins a zone delivered on Thursdays and Fridays (orders close at 18:00 the day
// before, Bogotá time) with a 150.000 minimum; rice is sold by the case of 6; the store
// buys on credit (100.000) and the ERP sent an invoice and a partial payment through
// /batch/invoice and /batch/payment. The service's clock is moved to a Wednesday 12:48 in
// Bogotá, the browser's to the same instant, so the countdown reads "5 h 12 min"; the
// browser's clock then passes the cut-off and the cart moves to Friday and says so. The
// order goes over the available credit, is refused on credit, and is placed cash on
// delivery; "Mi cuenta" shows the invoice. Runs in the PGlite pass only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { as } from '../../test/helpers/app.ts';
import { OffsetClock } from '../../test/helpers/clock.ts';
import { DEMO_USER, enterWithCode, expectAccessible, type Shop, startShop } from './harness.ts';

const run = process.env.DATABASE_URL ? describe.skip : describe;
let shop: Shop;

/** The first Wednesday at least two days ahead, 12:48 in Bogotá (UTC−5, no daylight saving): 17:48Z. */
function nextWednesday(): { at: number; wednesday: string; thursday: string; friday: string } {
  const day = new Date(Date.now() + 2 * 86_400_000);
  while (day.getUTCDay() !== 3) day.setUTCDate(day.getUTCDate() + 1);
  const ymd = (offset: number) => new Date(day.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  return { at: Date.parse(`${ymd(0)}T17:48:00Z`), wednesday: ymd(0), thursday: ymd(1), friday: ymd(2) };
}
const week = nextWednesday();
const clock = new OffsetClock();
let arrozName = 'Arroz 1 kg';

beforeAll(async () => {
  if (process.env.DATABASE_URL) return;
  clock.advance(week.at - Date.now());
  shop = await startShop({ clock });
  const call = async (method: 'PUT' | 'POST', url: string, body: unknown) => {
    const r = await as(shop.t, shop.supplier, method, url, body);
    expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
    return r.json();
  };
  const batch = async (url: string, body: unknown) => {
    const { statuses } = await shop.t.runBatch(shop.supplier, url, body);
    for (const s of statuses) expect(s.failed, `${url}: ${JSON.stringify(s)}`).toBe(0);
  };
  await call('PUT', '/deliveryzone/NORTE', {
    name: 'Norte',
    timezone: 'America/Bogota',
    cutoffMode: 'strict',
    days: [
      { weekday: 4, cutoff: { daysBefore: 1, time: '18:00' } },
      { weekday: 5, cutoff: { daysBefore: 1, time: '18:00' } },
    ],
    minimumOrder: { amount: 150_000, mode: 'hard' },
  });
  // The demo store, whole, now in the zone (its own minimum left to the zone's) and on credit.
  await batch('/batch/store', {
    upsert: [
      {
        internalCode: 'TIENDA-DEMO',
        name: 'Tienda Doña Rosa (demo)',
        legalName: 'Rosa Pérez',
        ownerName: 'Rosa Pérez',
        addresses: [{ street: 'Calle 45 # 13-20', city: 'Bogotá', country: 'CO', default: true }],
        priceListCode: 'PL-DEMO',
        stockGrouperCode: 'BODEGA-DEMO',
        promotionGrouperCodes: ['BARRIO-DEMO'],
        deliveryZoneCode: 'NORTE',
        settings: { dropSize: null },
        credit: { paymentMethods: ['CREDIT', 'CASH_ON_DELIVERY'], limit: 100_000, termDays: 15 },
      },
    ],
  });
  // Rice by the case of 6 units.
  const arroz = (await as(shop.t, shop.supplier, 'GET', '/product/ARROZ-1K')).json();
  arrozName = arroz.name;
  await batch('/batch/product', {
    upsert: [
      {
        internalCode: arroz.internalCode,
        name: arroz.name,
        brandInternalCode: arroz.brandInternalCode,
        categoryInternalCode: arroz.categoryInternalCode,
        image: arroz.image,
        displayProducts: arroz.displayProducts,
        multiple: 6,
      },
    ],
  });
  // What the ERP sent: an invoice of 60.000 due in 15 days, 20.000 of it paid to the driver.
  await batch('/batch/invoice', {
    upsert: [
      {
        internalCode: 'FAC-1001',
        storeInternalCode: 'TIENDA-DEMO',
        amount: 60_000,
        issuedAt: new Date(week.at - 86_400_000).toISOString(),
        dueDate: week.friday,
        pdfUrl: 'https://erp.example.com/facturas/FAC-1001.pdf',
      },
    ],
  });
  await batch('/batch/payment', {
    upsert: [
      {
        internalCode: 'REC-1',
        storeInternalCode: 'TIENDA-DEMO',
        amount: 20_000,
        method: 'CASH',
        collectedBy: 'Conductor Juan',
        paidAt: new Date(week.at - 3_600_000).toISOString(),
        allocations: [{ invoiceInternalCode: 'FAC-1001', amount: 20_000 }],
      },
    ],
  });
}, 240_000);
afterAll(async () => {
  await shop?.close();
});

const accessible = (page: Page, where: string) => expectAccessible(page, where);

const dayName = (ymd: string) => {
  const parts = new Intl.DateTimeFormat('es-CO', { weekday: 'long', day: 'numeric', timeZone: 'UTC' }).formatToParts(new Date(`${ymd}T00:00:00Z`));
  return `${parts.find((p) => p.type === 'weekday')!.value} ${parts.find((p) => p.type === 'day')!.value}`;
};

run("A distributor's week in the store app", () => {
  it('in Spanish on a phone: delivery date and cut-off, the minimum, a case multiple, credit refused and paid cash on delivery, and "Mi cuenta"', async () => {
    const context = await shop.phone('es-CO');
    // The browser's time stands at the service's Wednesday 12:48 in Bogotá (timers still run).
    await context.clock.setFixedTime(week.at);
    const page = await context.newPage();
    await page.goto('/shop/sign-in');
    await enterWithCode(shop, page, DEMO_USER.phone);
    await page.waitForURL('**/shop/catalog');

    // One box of cola and a single bag of rice (sold by the case of 6) in the cart.
    await page.evaluate(() => {
      const storeId = localStorage.getItem('surtido.shop.storeId');
      localStorage.setItem(
        `surtido.shop.cart.${storeId}`,
        JSON.stringify([
          { productInternalCode: 'COLA-350', units: 24, quantity: 1, name: 'Gaseosa cola 350 ml' },
          { productInternalCode: 'ARROZ-1K', units: 1, quantity: 1, name: 'Arroz 1 kg' },
        ]),
      );
    });
    await page.goto('/shop/cart');

    // The delivery date and the cut-off's countdown, in the zone's time.
    const summary = page.getByTestId('delivery-summary');
    await summary.waitFor();
    expect(await summary.textContent()).toBe(`Entrega: ${dayName(week.thursday)} · pide antes de miércoles 18:00 (5 h 12 min)`);
    // The picker offers only the zone's dates: Thursdays and Fridays.
    const offered = await page.getByLabel('Fecha de entrega').locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(offered.length).toBeGreaterThanOrEqual(4);
    expect(offered[0]).toBe(week.thursday);
    for (const date of offered) expect([4, 5]).toContain(new Date(`${date}T00:00:00Z`).getUTCDay());

    // The minimum's progress.
    const minimum = page.getByTestId('minimum');
    await minimum.waitFor();
    expect(await minimum.locator('label').textContent()).toMatch(/^Faltan \$\s?[\d.]+ para el pedido mínimo$/);
    expect(await page.locator('#minimum-progress').getAttribute('max')).toBe('150000');
    expect(await page.getByRole('button', { name: 'Hacer el pedido' }).isDisabled()).toBe(true);

    // The case multiple: said, and the stepper snaps to the case.
    const rule = page.locator('[data-violation="NOT_A_MULTIPLE"][data-product="ARROZ-1K"]');
    await rule.waitFor();
    expect(await rule.textContent()).toContain(`${arrozName} se vende por caja de 6 und. (llevas 1 und.)`);
    await accessible(page, 'distributor cart');
    await page.getByRole('button', { name: `Agregar uno de ${arrozName}` }).click();
    await expect.poll(() => page.getByRole('spinbutton', { name: `Cantidad de ${arrozName}` }).inputValue()).toBe('6');
    await rule.waitFor({ state: 'detached' });

    // More cola: the minimum is met.
    for (let q = 2; q <= 5; q++) {
      await page.getByRole('button', { name: 'Agregar uno de Gaseosa cola 350 ml' }).click();
      await expect.poll(() => page.getByRole('spinbutton', { name: 'Cantidad de Gaseosa cola 350 ml' }).inputValue()).toBe(String(q));
    }
    await minimum.waitFor({ state: 'detached' });

    // Wednesday's cut-off passes while the cart is open: the date moves to Friday, and the app says so.
    await context.clock.setFixedTime(Date.parse(`${week.wednesday}T23:00:30Z`));
    const moved = page.getByTestId('delivery-moved');
    await moved.waitFor({ timeout: 30_000 });
    expect(await moved.textContent()).toBe(`Pasó la hora de corte del ${dayName(week.thursday)}: tu pedido ahora se entrega el ${dayName(week.friday)}.`);
    expect(await summary.textContent()).toBe(`Entrega: ${dayName(week.friday)} · pide antes de jueves 18:00 (23 h 59 min)`);
    expect(await page.getByLabel('Fecha de entrega').inputValue()).toBe(week.friday);

    // On credit (the store's first method) the order is over what is available: 100.000 − 40.000 still owed.
    await expect.poll(() => page.getByRole('radio', { name: /Crédito/ }).isChecked()).toBe(true);
    const over = page.getByTestId('credit-over');
    await over.waitFor();
    expect(await over.textContent()).toMatch(/Este pedido supera tu crédito disponible \(\$\s?60\.000\) por \$\s?[\d.]+\./);
    await accessible(page, 'distributor cart over credit');
    // This supplier does not take orders over the credit for approval: not offered.
    expect(await over.getByRole('button', { name: 'Enviar para aprobación' }).count()).toBe(0);
    // The service refuses it on credit, and the same ways out stay offered.
    await page.getByRole('button', { name: 'Hacer el pedido' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Hacer el pedido' }).isEnabled()).toBe(true);
    expect(page.url()).toMatch(/\/shop\/cart$/);
    await over.waitFor();
    // Cash on delivery, then placed.
    await over.getByRole('button', { name: 'Pagar contra entrega' }).click();
    expect(await page.getByRole('radio', { name: 'Efectivo contra entrega' }).isChecked()).toBe(true);
    await over.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Hacer el pedido' }).click();
    await page.waitForURL(/\/shop\/orders\/\d+/);
    const orderId = Number(/orders\/(\d+)/.exec(page.url())![1]);
    const order = (await as(shop.t, shop.supplier, 'GET', `/order/${orderId}`)).json();
    expect(order.paymentMethod).toBe('CASH_ON_DELIVERY');
    expect(order.deliveryDate).toBe(week.friday);
    expect(order.products.map((p: { internalCode: string; quantity: number }) => [p.internalCode, p.quantity])).toEqual([
      ['COLA-350', 5],
      ['ARROZ-1K', 6],
    ]);

    // "Mi cuenta" from the header (the tab bar has no tab for it): the ERP's invoice and payment.
    expect(await page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Mi cuenta' }).count()).toBe(0);
    await page.getByRole('banner').getByRole('link', { name: 'Mi cuenta' }).click();
    await page.waitForURL('**/shop/account');
    await page.getByRole('heading', { name: 'Mi cuenta', level: 1 }).waitFor();
    const figures = page.getByTestId('account-figures');
    await figures.waitFor();
    expect(await figures.locator('[data-figure="limit"]').textContent()).toMatch(/^\$\s?100\.000$/);
    expect(await figures.locator('[data-figure="used"]').textContent()).toMatch(/^\$\s?40\.000$/);
    expect(await figures.locator('[data-figure="available"]').textContent()).toMatch(/^\$\s?60\.000$/);
    expect(await figures.locator('[data-figure="overdue"]').textContent()).toMatch(/^\$\s?0$/);
    const invoice = page.locator('[data-invoice="FAC-1001"]');
    expect(await invoice.textContent()).toMatch(/Factura FAC-1001.*Saldo \$\s?40\.000 de \$\s?60\.000.*Vence el/);
    expect(await invoice.getByRole('link', { name: 'Ver el PDF de la factura FAC-1001' }).getAttribute('href')).toBe('https://erp.example.com/facturas/FAC-1001.pdf');
    expect(await page.locator('[data-payment="REC-1"]').textContent()).toMatch(/\$\s?20\.000 · Efectivo.*recibió Conductor Juan/);
    await accessible(page, 'distributor account');
    await context.close();
  });
});
