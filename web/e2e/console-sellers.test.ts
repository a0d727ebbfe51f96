// Sellers in the console (issue #32) in a real browser (Debian's Chromium) against the real
// service on embedded PGlite; axe on the page. The ERP (the test, through the project's
// client) loads the demo catalog and its store; the owner opens "Vendedores", adds a seller
// serving that store through the form (a phone without the country code is refused under
// its field first), sees them listed with the store, and the API answers the same seller.
// Runs in the PGlite pass only (skipped when DATABASE_URL is set); fails when Chromium is missing.
import { expect, it } from 'vitest';
import { accessible, consoleSignIn, consoleWorld, inBrowser, ownerWithDemoCatalog } from './console-harness.ts';

const world = consoleWorld();
const OWNER = 'ventas@norte.test';
const SHOTS = process.env.E2E_SHOTS;

inBrowser('the console: sellers', () => {
  it('the owner adds a seller serving a store through the form and sees them listed', async () => {
    const { t } = world;
    const { supplier, surtido } = await ownerWithDemoCatalog(world, OWNER);

    const page = await (await world.desktop()).newPage();
    await consoleSignIn(world, page, OWNER);
    await page.getByRole('navigation').getByRole('link', { name: 'Vendedores', exact: true }).click();
    await page.waitForURL('**/console/sellers');
    await page.getByRole('heading', { name: 'Vendedores', level: 1 }).waitFor();
    await page.getByText('Aún no hay vendedores.').waitFor();

    const form = page.getByRole('form', { name: 'Agregar un vendedor' });
    await form.getByLabel('Código').fill('VEND-01');
    await form.getByLabel('Nombre').fill('Carlos Pérez');
    // The API's rule, shown with the field: a phone in E.164.
    await form.getByLabel('Teléfono').fill('3001234567');
    await form.getByLabel('Tiendas que atiende').fill('TIENDA-DEMO');
    await form.getByRole('button', { name: 'Guardar el vendedor' }).click();
    const phone = form.getByLabel('Teléfono');
    await page.locator('#seller-phone-problem').waitFor();
    expect(await page.locator('#seller-phone-problem').textContent()).toBe('Escribe el teléfono con el indicativo del país, p. ej. +573001234567.');
    expect(await phone.getAttribute('aria-invalid')).toBe('true');
    expect(await phone.getAttribute('aria-describedby')).toContain('seller-phone-problem');
    expect(await page.locator('tr[data-seller]').count()).toBe(0);
    // Over the form, the refusal in words, not the service's English detail with its pointer.
    expect(await form.getByRole('alert').textContent()).toBe('Revisa los datos.');
    await accessible(page, 'sellers, a refused phone');

    await phone.fill('+573001234567');
    await form.getByLabel('Correo').fill('Carlos@Norte.test');
    await form.getByRole('button', { name: 'Guardar el vendedor' }).click();
    await form.getByText('Carlos Pérez quedó guardado.').waitFor();
    const row = page.locator('tr[data-seller="VEND-01"]');
    await row.waitFor();
    expect(await row.locator('td').allTextContents()).toEqual(['VEND-01', 'Carlos Pérez', '+573001234567', 'carlos@norte.test', 'TIENDA-DEMO', 'Editar']);
    expect(await page.locator('#seller-phone-problem').count()).toBe(0);
    await accessible(page, 'sellers');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/console-sellers.png`, fullPage: true });

    // What the form saved is what the ERP reads.
    const seller = await surtido.get('/seller/{code}', { params: { path: { code: 'VEND-01' } } });
    expect(seller).toMatchObject({ name: 'Carlos Pérez', phone: '+573001234567', email: 'carlos@norte.test', storeInternalCodes: ['TIENDA-DEMO'] });
  });
});
