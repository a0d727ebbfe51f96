// Files as a spreadsheet in Spanish (Colombia) saves them (issue 34; src/modules/imports/README.md,
// "Files from a spreadsheet"): Excel's "CSV UTF-8" with a byte-order mark, `;` between cells,
// CRLF, decimal commas and sí/no/VERDADERO/FALSO, read without naming the separator; the
// failed-rows file for a person (Accept-Language) starts with a byte-order mark, keeps the
// upload's `;` and says its reasons in Spanish, Portuguese or English; a template per kind.
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_KINDS } from '../../src/integrator/kinds.ts';
import { decimalComma, spreadsheetBoolean } from '../../src/modules/imports/imports.spreadsheet.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;
const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/excel/${name}`, import.meta.url));

const upload = (kind: string, file: Buffer | string) => t.request({ method: 'POST', url: `/import/${kind}?name=${kind}.csv`, headers: { ...s.headers, 'content-type': 'text/csv' }, payload: file });

async function finished(id: string) {
  for (let i = 0; i < 2000; i++) {
    const view = (await as(t, s, 'GET', `/import/${id}`)).json();
    if (view.status !== 'processing') return view;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`import ${id} still processing`);
}

const fileFor = (id: string, language?: string) => as(t, s, 'GET', `/import/${id}/failures/file`, undefined, language ? { 'accept-language': language } : {});

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  expect((await as(t, s, 'PUT', '/category', { internalCode: 'C-1', name: 'Despensa' })).statusCode).toBe(200);
  await t.runBatch(s, '/batch/brand', { upsert: [{ internalCode: 'B-1', name: 'Marca' }] });
  expect((await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-1', name: 'Principal' })).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('a CSV saved by Excel in es-CO', () => {
  let productsImport: string;

  it('is read: the byte-order mark, ; found on the header line, sí/no/VERDADERO/FALSO, a quoted ; in a cell', async () => {
    const res = await upload('products', fixture('productos-es-CO.csv'));
    expect(res.statusCode, res.body).toBe(202);
    productsImport = res.json().id;
    const view = await finished(productsImport);
    // 6 rows: XL-6 has no name (refused), XL-5 names a brand nobody has (fails when applied).
    expect(view.counts).toMatchObject({ rowsRead: 6, refused: 1, sent: 5, applied: 4, failedWhenApplied: 1, failed: 2, pending: 0 });
    const product = async (code: string) => (await as(t, s, 'GET', `/product/${code}`)).json();
    expect(await product('XL-1')).toMatchObject({ name: 'Gaseosa cola 350 ml', enabled: true, minUnits: 1 });
    expect(await product('XL-2')).toMatchObject({ name: 'Arroz; bolsa 1 kg', enabled: false, minUnits: 2 });
    expect((await product('XL-3')).enabled).toBe(true);
    expect((await product('XL-4')).enabled).toBe(false);
  });

  it('reads decimal commas in a ;-separated file (1.234,75 is 1234.75)', async () => {
    const res = await upload('prices', fixture('precios-es-CO.csv'));
    expect(res.statusCode, res.body).toBe(202);
    const view = await finished(res.json().id);
    expect(view.counts).toMatchObject({ rowsRead: 3, refused: 1, applied: 2 });
    const failures = (await as(t, s, 'GET', `/import/${view.id}/failures`)).json().data;
    // -3,5 is read as the number -3.5, and refused as a negative price, not as a text.
    expect(failures).toMatchObject([{ line: 4, problems: [{ code: 'OUT_OF_RANGE', field: 'price' }] }]);
    const entries = (await as(t, s, 'GET', '/pricelist/PL-1/entries')).json().data;
    const prices = entries.flatMap((e: { internalCode?: string; productInternalCode?: string; units: number; price: number }) => [[e.productInternalCode ?? e.internalCode, e.units, e.price]]);
    expect(prices).toEqual(expect.arrayContaining([['XL-1', 1, 2500.5], ['XL-1', 12, 1234.75]]));
  });

  it('a comma-separated file keeps the decimal point, and a comma there is no decimal mark', async () => {
    expect(decimalComma('12,5')).toBe(12.5);
    expect(decimalComma('1.234')).toBeUndefined();
    expect(decimalComma('1,2,3')).toBeUndefined();
    expect(['sí', 'SI', 'Sim', 'verdadeiro'].map(spreadsheetBoolean)).toEqual([true, true, true, true]);
    expect(['no', 'NÃO', 'nao', 'Falso', 'maybe'].map(spreadsheetBoolean)).toEqual([false, false, false, false, undefined]);
    const res = await upload('prices', 'priceListInternalCode,productInternalCode,units,price\nPL-1,XL-3,1,"7,5"\nPL-1,XL-3,6,7.25\n');
    const view = await finished(res.json().id);
    expect(view.counts).toMatchObject({ rowsRead: 2, refused: 1, applied: 1 });
  });

  it('gives the failed rows back with a byte-order mark, the upload\'s ; and the reasons in the member\'s language', async () => {
    const es = await fileFor(productsImport, 'es-CO,es;q=0.9');
    expect(es.statusCode, es.body).toBe(200);
    expect(es.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = parse(es.rawPayload, { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.internalCode, r._line, r._error_code, r._error_field])).toEqual([
      ['XL-5', '6', 'UNKNOWN_BRAND', ''],
      ['XL-6', '7', 'REQUIRED', 'name'],
    ]);
    expect(rows[0]!.enabled).toBe('Si');
    expect(rows[1]!._error_message).toMatch(/^Falta un dato obligatorio\. Campo: name\. Detalle: /);
    expect(rows[0]!._error_message).toMatch(/^La marca no existe\./);
    const pt = parse((await fileFor(productsImport, 'pt-BR')).rawPayload, { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
    expect(pt[1]!._error_message).toMatch(/^Falta um dado obrigatório\. Campo: name\. Detalhe: /);
    const en = parse((await fileFor(productsImport, 'en-US')).rawPayload, { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
    expect(en[1]!._error_message).toMatch(/^A required value is missing\. Field: name\. Detail: /);
    // A script that names no language gets the file as before: no mark, the CLI's reasons.
    const plain = await fileFor(productsImport);
    expect(plain.rawPayload[0]).toBe('i'.charCodeAt(0));
    expect(plain.body.split('\r\n')[0] ?? '').not.toContain('Falta');
  });

  it('fixed, the failed-rows file uploads again as it is', async () => {
    const file = (await fileFor(productsImport, 'es')).body.replace('XL-6;;', 'XL-6;Harina 1 kg;').replace(';B-404;', ';B-1;');
    const res = await upload('products', file);
    expect(res.statusCode, res.body).toBe(202);
    expect((await finished(res.json().id)).counts).toMatchObject({ rowsRead: 2, applied: 2, failed: 0 });
  });
});

describe('templates', () => {
  it('one per kind: a byte-order mark, the columns the importer reads and one example row that uploads', async () => {
    for (const kind of IMPORT_KINDS) {
      const res = await as(t, s, 'GET', `/import/kinds/${kind.name}/template`, undefined, { 'accept-language': 'es-CO' });
      expect(res.statusCode, `${kind.name}: ${res.body}`).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toContain(`${kind.name}.template.csv`);
      expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      const [header, example, ...rest] = parse(res.rawPayload, { bom: true, delimiter: ';' }) as string[][];
      expect(rest).toEqual([]);
      expect(example!.length).toBe(header!.length);
      // The columns are the kind's own: the importer takes the template as it is (no unknown column).
      const back = await t.request({ method: 'POST', url: `/import/${kind.name}`, headers: { ...s.headers, 'content-type': 'text/csv' }, payload: res.rawPayload });
      expect(back.statusCode, `${kind.name}: ${back.body}`).toBe(202);
    }
    const products = await as(t, s, 'GET', '/import/kinds/prices/template', undefined, { 'accept-language': 'es' });
    expect(products.body).toBe('\uFEFFpriceListInternalCode;productInternalCode;units;price\nCOD-1;COD-1;12;12,5\n');
    const english = await as(t, s, 'GET', '/import/kinds/products/template', undefined, { 'accept-language': 'en' });
    expect(english.body.split('\n')[0]).toMatch(/^\uFEFFinternalCode,name,/);
    expect(english.body.split('\n')[1]).toContain(',yes,');
    const pt = await as(t, s, 'GET', '/import/kinds/products/template', undefined, { 'accept-language': 'pt-BR' });
    expect(pt.body.split('\n')[1]).toContain(';sim;');
    expect((await as(t, s, 'GET', '/import/kinds/nothing/template')).statusCode).toBe(400);
  });
});
