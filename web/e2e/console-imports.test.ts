// File imports in the console, in a real browser (Debian's Chromium) against the real
// service on embedded PGlite; axe on every page visited. The operator creates a supplier
// with a manager and a viewer, and its ERP loads the demo catalog through the SDK; the
// manager uploads a products CSV with bad rows, watches the progress end, sees the failed
// rows with their lines and reasons, downloads them, and the test fixes the file, which the
// manager uploads again and which completes with no failures; then the same with a prices
// CSV naming a product nobody has. A viewer sees the imports but no upload, and the API
// refuses the viewer's upload. Runs in the PGlite pass only (skipped when DATABASE_URL is
// set); fails when Chromium is missing.
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { createSurtidoClient } from '../../src/client/index.ts';
import { seedDemoCatalog } from '../../src/main/demo-catalog.ts';
import { accessible, consoleSignIn, consoleWorld, inBrowser, POLL, PRODUCTS_CSV } from './console-harness.ts';

const world = consoleWorld();

const MANAGER = 'gerente@andes.test';
const VIEWER = 'lector@andes.test';


const PRICES = ['priceListInternalCode,productInternalCode,units,price', 'PL-DEMO,COLA-350,6,9900', 'PL-DEMO,GASEOSA-FANTASMA,1,1000', 'PL-DEMO,AGUA-600,6,6500', ''].join('\n');

/** Uploads `text` as `name` with the kind chosen by its label, and waits for the import's page. */
async function upload(page: Page, kind: string, name: string, text: string) {
  await page.getByLabel('Qué contiene').selectOption({ label: kind });
  await page.getByLabel('Archivo (.csv o .jsonl)').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
  await page.getByRole('button', { name: 'Subir e importar' }).click();
  await page.waitForURL(/\/console\/imports\/[0-9a-f-]{36}/);
}

/** Waits for the import's batches to end: the progress bar full and the status in words. */
async function ended(page: Page, rows: number, status: string) {
  await page.getByTestId('progress-text').filter({ hasText: `${rows} de ${rows} filas procesadas` }).waitFor();
  await page.locator('h1 .status').filter({ hasText: status }).waitFor();
}

async function download(page: Page): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar las filas fallidas' }).click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: fs.readFileSync(path, 'utf8') };
}

const lines = (page: Page) => page.locator('[data-line]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-line'))));
const reasonOf = (page: Page, line: number) => page.locator(`[data-line="${line}"] td.reason strong`).first().textContent();

inBrowser('imports in the console', () => {
  it('a manager uploads files with bad rows, downloads the failed rows, fixes and uploads them again; a viewer cannot upload', async () => {
    const { t } = world;
    const ok = async (res: Promise<{ statusCode: number; body: string }>) => {
      const r = await res;
      expect(r.statusCode, r.body).toBeLessThan(300);
      return JSON.parse(r.body);
    };
    // The operator creates the supplier and its people through the admin API; its ERP loads the demo catalog.
    const supplier = await ok(t.admin('POST', '/admin/suppliers', { name: 'Distribuidora Andes', code: 'ANDES' }));
    await ok(t.admin('POST', `/admin/suppliers/${supplier.id}/members`, { email: MANAGER, role: 'manager' }));
    await ok(t.admin('POST', `/admin/suppliers/${supplier.id}/members`, { email: VIEWER, role: 'viewer' }));
    const credential = await ok(t.admin('POST', `/admin/suppliers/${supplier.id}/credentials`));
    const erp = createSurtidoClient({ baseUrl: world.baseUrl, apiKey: credential.apiKey, clientId: credential.clientId, clientSecret: credential.clientSecret });
    await seedDemoCatalog(
      (method, url, body) => (erp as unknown as Record<string, (u: string, i: object) => Promise<unknown>>)[method.toLowerCase()]!(url, body === undefined ? {} : { body }),
      async (ids) => void (await erp.waitForBatch(ids, undefined, POLL)),
    );

    // The manager finds the imports page empty, with the upload and each kind's columns.
    const page = await (await world.desktop()).newPage();
    await consoleSignIn(world, page, MANAGER);
    await page.waitForURL('**/console/overview');
    await page.getByRole('link', { name: 'Importaciones', exact: true }).click();
    await page.waitForURL('**/console/imports');
    await page.getByText('Todavía no hay importaciones.').waitFor();
    await page.getByLabel('Qué contiene').selectOption({ label: 'Productos' });
    expect(await page.getByTestId('columns').textContent()).toContain('brandInternalCode*');
    await accessible(page, 'imports (empty)');

    // A products CSV with bad rows: refused ones at once, one failing when applied.
    await upload(page, 'Productos', 'productos.csv', PRODUCTS_CSV);
    await page.locator('progress').waitFor();
    await ended(page, 5, 'Con filas fallidas');
    expect(await page.locator('[data-figure="applied"] .figure').textContent()).toBe('2');
    expect(await page.locator('[data-figure="failed"] .figure').textContent()).toBe('3');
    await page.locator('[data-line]').first().waitFor();
    expect(await lines(page)).toEqual([3, 4, 5]);
    expect(await reasonOf(page, 3)).toBe('La marca no existe.');
    expect(await reasonOf(page, 4)).toBe('Falta un dato obligatorio.');
    expect(await page.locator('[data-line="4"] td.reason').textContent()).toContain('Campo: name');
    expect(await reasonOf(page, 5)).toBe('La fila no se pudo leer como un ítem.');
    await accessible(page, 'import (products, with failed rows)');

    // The failed rows, downloaded, are exactly those three with their reasons; fixed, they upload again.
    const failed = await download(page);
    expect(failed.name).toBe('productos.failed.csv');
    const [header, ...rows] = failed.text.trim().split('\n');
    expect(header).toBe('internalCode,name,brandInternalCode,categoryInternalCode,displayProducts,_line,_error_code,_error_field,_error_message');
    expect(rows.map((r) => r.split(',')[0])).toEqual(['YOGUR-1L', 'QUESO-500', 'AREPA-5']);
    await page.getByText('Descargamos productos.failed.csv.').waitFor();
    const fixed = failed.text.replace('LACTEOS-X', 'CAMPO').replace('QUESO-500,,', 'QUESO-500,Queso campesino 500 g,').replace('"[{""units"":1"', '"[{""units"":1,""name"":""Unidad""}]"');
    await page.getByRole('link', { name: 'Subir el archivo corregido' }).click();
    await page.waitForURL(/\/console\/imports\?kind=products/);
    await upload(page, 'Productos', 'productos.failed.csv', fixed);
    await ended(page, 3, 'Completa');
    await page.getByText('Todas las filas se aplicaron.').waitFor();
    expect(await page.locator('[data-figure="applied"] .figure').textContent()).toBe('3');
    await accessible(page, 'import (products, fixed)');
    for (const code of ['YOGUR-1L', 'QUESO-500', 'AREPA-5', 'KUMIS-1L']) expect((await erp.get('/product/{code}', { params: { path: { code } } })).internalCode).toBe(code);

    // Prices naming a product nobody has.
    await page.getByRole('link', { name: 'Importaciones', exact: true }).click();
    await upload(page, 'Precios', 'precios.csv', PRICES);
    await ended(page, 3, 'Con filas fallidas');
    await page.locator('[data-line]').first().waitFor();
    expect(await lines(page)).toEqual([3]);
    expect(await reasonOf(page, 3)).toBe('El producto no existe.');
    await accessible(page, 'import (prices, with a failed row)');
    const prices = await download(page);
    expect(prices.name).toBe('precios.failed.csv');
    expect(prices.text).toContain('PL-DEMO,GASEOSA-FANTASMA,1,1000,3,UNKNOWN_PRODUCT,');
    await page.getByRole('link', { name: 'Subir el archivo corregido' }).click();
    await upload(page, 'Precios', 'precios.failed.csv', prices.text.replace('GASEOSA-FANTASMA', 'LIMA-350'));
    await ended(page, 1, 'Completa');
    await accessible(page, 'import (prices, fixed)');

    // The list: every import with its status and counts.
    // The list the page kept from before the last upload shows first and is fetched again, so
    // wait for the newest import, not for one the kept list already holds.
    await page.getByRole('link', { name: 'Volver a las importaciones' }).click();
    await page.locator('[data-import="precios.failed.csv"]').waitFor();
    expect(await page.locator('[data-import]').evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-import'), r.getAttribute('data-status')]))).toEqual([
      ['precios.failed.csv', 'completed'],
      ['precios.csv', 'completed_with_failures'],
      ['productos.failed.csv', 'completed'],
      ['productos.csv', 'completed_with_failures'],
    ]);
    await accessible(page, 'imports');
    await page.getByLabel('Tipo', { exact: true }).selectOption({ label: 'Precios' });
    await page.waitForURL(/kind=prices/);
    await expect.poll(() => page.locator('[data-import]').count()).toBe(2);

    // A viewer reads the imports and their failed rows, but has no upload, and the API refuses one.
    const viewer = await (await world.desktop()).newPage();
    await consoleSignIn(world, viewer, VIEWER);
    await viewer.goto('/console/imports');
    await viewer.locator('[data-import="productos.csv"]').waitFor();
    expect(await viewer.getByRole('button', { name: 'Subir e importar' }).count()).toBe(0);
    expect(await viewer.getByLabel('Archivo (.csv o .jsonl)').count()).toBe(0);
    await accessible(viewer, 'imports (viewer)');
    await viewer.locator('[data-import="productos.csv"] a').click();
    await viewer.locator('[data-line="3"]').waitFor();
    expect(await viewer.getByRole('link', { name: 'Subir el archivo corregido' }).count()).toBe(0);
    await accessible(viewer, 'import (viewer)');
    const token = await viewer.evaluate(() => localStorage.getItem('surtido.console.token'));
    const refused = await t.request({ method: 'POST', url: '/import/products', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' }, payload: PRODUCTS_CSV });
    expect(refused.statusCode).toBe(403);
  }, 240_000);
});
