// The console's test mode in a real browser (Debian's Chromium) against the real service on
// embedded PGlite (src/modules/sandbox): the owner turns the switch on, a banner shows on
// every page while it is on, the pages show the test twin's data, and the sandbox page shows
// the checklist (updated as the integrator loads the twin) and the test inbox; the switch
// off brings the live data back. Axe on the pages visited. Runs in the PGlite pass only.
import { expect, it } from 'vitest';
import { createSurtidoClient } from '../../src/client/index.ts';
import { accessible, consoleSignIn, consoleWorld, inBrowser, POLL } from './console-harness.ts';

const world = consoleWorld();
const OWNER = 'duena@pruebas.test';

inBrowser('the console: test mode and the checklist', () => {
  it('switches to test mode, shows the banner on every page and the twin’s checklist and data, and back to live', async () => {
    const { t } = world;
    const ok = async (res: Promise<{ statusCode: number; body: string }>) => {
      const r = await res;
      expect(r.statusCode, r.body).toBeLessThan(300);
      return JSON.parse(r.body);
    };
    const supplier = await ok(t.admin('POST', '/admin/suppliers', { name: 'Bodega Pruebas', code: 'PRUEBAS' }));
    await ok(t.admin('POST', `/admin/suppliers/${supplier.id}/members`, { email: OWNER, role: 'owner' }));
    // Live data the twin must not show: a live category and product.
    const liveCredential = await ok(t.admin('POST', `/admin/suppliers/${supplier.id}/credentials`));
    const live = createSurtidoClient({ baseUrl: world.baseUrl, apiKey: liveCredential.apiKey, clientId: liveCredential.clientId, clientSecret: liveCredential.clientSecret });
    await live.put('/category', { body: { internalCode: 'VIVO', name: 'Categoría real' } });
    await live.post('/batch/brand', { body: { upsert: [{ internalCode: 'MARCA', name: 'Marca real' }] } }).then((b) => live.waitForBatch(b.batchId, undefined, POLL));
    await live.post('/batch/product', { body: { upsert: [{ internalCode: 'REAL-1', name: 'Producto real', brandInternalCode: 'MARCA', categoryInternalCode: 'VIVO', displayProducts: [{ units: 1, name: 'Unidad' }] }] } }).then((b) => live.waitForBatch(b.batchId, undefined, POLL));

    const context = await world.desktop();
    const page = await context.newPage();
    await consoleSignIn(world, page, OWNER);
    await page.goto('/console/products');
    await expect.poll(() => page.getByText('Producto real').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('test-mode').count()).toBe(0);

    // The switch on: the banner shows, and the products are the twin's (none yet).
    await page.getByRole('switch', { name: 'Modo de prueba' }).check();
    await page.getByTestId('test-mode').waitFor();
    await expect.poll(() => page.getByText('Producto real').count()).toBe(0);
    await accessible(page, 'products in test mode');
    await page.getByRole('link', { name: 'Pedidos' }).click();
    await page.getByTestId('test-mode').waitFor();
    expect(await page.getByRole('link', { name: 'Miembros' }).count()).toBe(0);

    // The sandbox page: only the token step is left to do once a test credential exists.
    await page.getByRole('link', { name: 'Pruebas', exact: true }).click();
    await page.getByTestId('checklist').waitFor();
    await expect.poll(() => page.locator('[data-step="token"]').getAttribute('data-done')).toBe('false');
    await accessible(page, 'the sandbox page');
    const issued = await ok(t.admin('POST', `/admin/suppliers/${supplier.id}/credentials`, { mode: 'test' }));
    const sandbox = createSurtidoClient({ baseUrl: world.baseUrl, apiKey: issued.apiKey, clientId: issued.clientId, clientSecret: issued.clientSecret });
    await sandbox.post('/sandbox/copy-live', {});
    await page.reload();
    await page.getByTestId('checklist').waitFor();
    for (const step of ['token', 'brands', 'categories', 'products']) {
      await expect.poll(() => page.locator(`[data-step="${step}"]`).getAttribute('data-done'), { message: step }).toBe('true');
    }
    expect(await page.locator('[data-step="webhook"]').getAttribute('data-done')).toBe('false');
    expect(await page.getByRole('heading', { name: /Integración: 4 de 14 pasos/ }).count()).toBe(1);
    // Each step links to where it shows: the products, now the twin's copy.
    await page.locator('[data-step="products"] a').click();
    await page.waitForURL('**/console/products');
    await expect.poll(() => page.getByText('Producto real').count()).toBeGreaterThan(0);
    await page.getByTestId('test-mode').waitFor();

    // The switch off: live again, no banner.
    await page.getByRole('switch', { name: 'Modo de prueba' }).uncheck();
    await expect.poll(() => page.getByTestId('test-mode').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Pruebas', exact: true }).count()).toBe(0);
    await context.close();
  });
});
