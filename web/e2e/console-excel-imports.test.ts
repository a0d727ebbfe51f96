// Issue 34, "Excel-friendly imports", in the console: a file as Excel in Spanish (Colombia)
// saves it ("CSV UTF-8": a byte-order mark, `;`, CRLF, sí/no/VERDADERO) is read; the kind's
// template downloads with a byte-order mark and `;`; the import's counts add up at a glance
// (read = applied + failed + to process); the failed-rows file starts with a byte-order
// mark, keeps the `;` and gives its reasons in Spanish. Before: the file was one unknown
// column (`internalCode;name;…`), there was no template, the counts were six figures side
// by side and the failed rows came back with `,` and English reasons. In a real browser
// (Debian's Chromium) against the real service on embedded PGlite, in Spanish at 390x844,
// axe on every page. Runs in the PGlite pass only; fails when Chromium is missing.
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { accessible, consoleSignIn, consoleWorld, inBrowser, ownerWithDemoCatalog } from './console-harness.ts';

const world = consoleWorld();
const OWNER = 'duena@norte.test';
const EXCEL = fs.readFileSync(new URL('../../test/fixtures/excel/productos-consola-es-CO.csv', import.meta.url));

async function downloaded(page: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return { name: file.suggestedFilename(), bytes: fs.readFileSync((await file.path())!) };
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

inBrowser('Excel-friendly imports in the console (issue 34)', () => {
  it('reads an es-CO Excel file, offers a template per kind, adds the counts up and gives the failed rows back in Spanish', async () => {
    await ownerWithDemoCatalog(world, OWNER);
    const page = await (await world.desktop('es-CO', { width: 390, height: 844 })).newPage();
    await consoleSignIn(world, page, OWNER);
    await page.waitForURL('**/console/overview');
    await page.goto('/console/imports');
    await page.getByLabel('Qué contiene').selectOption({ label: 'Productos' });

    // The kind's template: a byte-order mark, `;`, the columns the importer reads and an example row.
    const template = await downloaded(page, 'Descargar la plantilla');
    expect(template.name).toBe('products.template.csv');
    expect(template.bytes.subarray(0, 3)).toEqual(BOM);
    const [header, example] = template.bytes.subarray(3).toString('utf8').split('\n');
    expect(header).toMatch(/^internalCode;name;description;brandInternalCode;categoryInternalCode;/);
    expect(example).toContain(';sí;');
    await accessible(page, 'imports with the template');

    // The Excel file, uploaded as it is (no separator named).
    await page.getByLabel('Archivo (.csv o .jsonl)').setInputFiles({ name: 'productos.csv', mimeType: 'text/csv', buffer: EXCEL });
    await page.getByRole('button', { name: 'Subir e importar' }).click();
    await page.waitForURL(/\/console\/imports\/[0-9a-f-]{36}/);
    await page.getByTestId('progress-text').filter({ hasText: '5 de 5 filas procesadas' }).waitFor();
    // The counts as a sum: read = applied + failed + to process; failed = refused when read + failed when applied.
    await expect.poll(() => page.getByTestId('counts-sum').textContent()).toBe('5 Filas leídas = 3 Aplicadas + 2 Fallidas + 0 Por procesar');
    expect(await page.getByTestId('failed-sum').textContent()).toBe('2 Fallidas = 1 Rechazadas al leer + 1 Fallidas al aplicar');
    await page.locator('[data-line="6"]').waitFor();
    await accessible(page, 'the Excel import');
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/console-excel-import.png`, fullPage: true });

    // The failed rows: a byte-order mark, the upload's `;`, the reasons in Spanish.
    const failed = await downloaded(page, 'Descargar las filas fallidas');
    expect(failed.name).toBe('productos.failed.csv');
    expect(failed.bytes.subarray(0, 3)).toEqual(BOM);
    const text = failed.bytes.subarray(3).toString('utf8');
    expect(text.split('\n')[0]).toBe('internalCode;name;brandInternalCode;categoryInternalCode;enabled;minUnits;_line;_error_code;_error_field;_error_message');
    expect(text).toContain('Falta un dato obligatorio. Campo: name.');
    expect(text).toContain('La marca no existe.');
  }, 240_000);
});
