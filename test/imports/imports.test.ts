// File imports through the API (src/modules/imports/README.md): a CSV or JSON Lines file
// of any import kind, read by the service with the integrator CLI's mapping, sent as
// ordinary batches; its failed rows with their lines and reasons, and as a file that,
// fixed, uploads again. Tenancy and scopes of these routes are also in test/hardening
// (the matrices walk the route table).
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_KINDS } from '../../src/integrator/kinds.ts';
import { retentionKinds } from '../../src/modules/retention/retention.job.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { memberSession } from '../helpers/console.ts';

let t: TestApp;
let s: TestSupplier;

const CSV = { 'content-type': 'text/csv' };
const JSONL = { 'content-type': 'application/x-ndjson' };

function upload(app: TestApp, who: TestSupplier, kind: string, file: string, headers: Record<string, string> = CSV, query = '') {
  return app.request({ method: 'POST', url: `/import/${kind}${query}`, headers: { ...who.headers, ...headers }, payload: file });
}

async function accepted(res: { statusCode: number; body: string; json: () => unknown }) {
  expect(res.statusCode, res.body).toBe(202);
  return res.json() as ImportView;
}

interface ImportView {
  id: string;
  kind: string;
  fileName: string;
  format: string;
  status: string;
  uploadedBy: { kind: string; id: string };
  counts: { rowsRead: number; refused: number; sent: number; applied: number; failedWhenApplied: number; failed: number; pending: number };
  batchIds: string[];
}

/** Polls GET /import/{id} until its batches are done (what the console does). */
async function finished(app: TestApp, who: TestSupplier, id: string): Promise<ImportView> {
  for (let i = 0; i < 2000; i++) {
    const res = await as(app, who, 'GET', `/import/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json() as ImportView;
    if (view.status !== 'processing') return view;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`import ${id} still processing`);
}

async function failures(app: TestApp, who: TestSupplier, id: string, query = '') {
  const res = await as(app, who, 'GET', `/import/${id}/failures${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function failedFile(app: TestApp, who: TestSupplier, id: string) {
  const res = await as(app, who, 'GET', `/import/${id}/failures/file`);
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  expect((await as(t, s, 'PUT', '/category', { internalCode: 'C-1', name: 'Bebidas' })).statusCode).toBe(200);
  await t.runBatch(s, '/batch/brand', { upsert: [{ internalCode: 'B-1', name: 'Cola Co' }] });
  expect((await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-1', name: 'Main' })).statusCode).toBe(200);
});
afterAll(() => t.close());

// Line 1 is the header. Line 3: a brand nobody has (fails when applied); line 4: no name
// (refused as the batch route would: REQUIRED); line 5: bad JSON in a cell; line 6: a row
// with too few cells; lines 7-8: one record over two lines (its line is its last).
const PRODUCTS = [
  'internalCode,name,brandInternalCode,categoryInternalCode,displayProducts,_note',
  'P-1,Cola 350,B-1,C-1,"[{""units"":1,""name"":""Unit"",""default"":true}]",fine',
  'P-2,Agua,B-404,C-1,,unknown brand',
  'P-3,,B-1,C-1,,no name',
  'P-4,Jugo,B-1,C-1,"[{""units"":1",bad json',
  'P-5,Té,B-1',
  'P-6,"Papas',
  'grandes",B-1,C-1,,two lines',
  '',
].join('\n');

describe('a CSV import', () => {
  let first: ImportView;

  it('answers 202 with the import once its rows and batches are stored; unmappable and invalid rows are refused at once', async () => {
    first = await accepted(await upload(t, s, 'products', PRODUCTS, CSV, '?name=products.csv'));
    expect(first).toMatchObject({
      kind: 'products',
      format: 'csv',
      fileName: 'products.csv',
      uploadedBy: { kind: 'credential', id: s.clientId },
      counts: { rowsRead: 6, refused: 3, sent: 3 },
    });
    expect(first.batchIds).toHaveLength(1);
    // Stored before the answer: the batch is an ordinary one, already there.
    const status = await as(t, s, 'GET', `/batch/${first.batchIds[0]}/status`);
    expect(status.json()).toMatchObject({ endpoint: '/batch/product', total: 3 });
  });

  it('completes with failures: the counts add up, and the batch is an ordinary batch', async () => {
    const done = await finished(t, s, first.id);
    expect(done.status).toBe('completed_with_failures');
    expect(done.counts).toEqual({ rowsRead: 6, refused: 3, sent: 3, applied: 2, failedWhenApplied: 1, failed: 4, pending: 0 });
    const detail = (await as(t, s, 'GET', `/batch/${first.batchIds[0]}/detail`)).json();
    expect(detail.detail.map((d: { code: string; status: string }) => [d.code, d.status])).toEqual([
      ['P-1', 'completed'],
      ['P-2', 'failed'],
      ['P-6', 'completed'],
    ]);
    const p6 = await as(t, s, 'GET', '/product/P-6');
    expect(p6.json().name).toBe('Papas\ngrandes');
  });

  it('lists the failed rows in line order with their values and reasons, paged', async () => {
    const page = await failures(t, s, first.id);
    expect(page).toMatchObject({ page: 1, total: 4, totalPages: 1 });
    expect(page.data.map((f: { line: number }) => f.line)).toEqual([3, 4, 5, 6]);
    const [brand, name, json, cells] = page.data;
    expect(brand).toEqual({
      line: 3,
      values: { internalCode: 'P-2', name: 'Agua', brandInternalCode: 'B-404', categoryInternalCode: 'C-1', displayProducts: '' },
      text: 'P-2,Agua,B-404,C-1,,unknown brand',
      problems: [{ code: 'UNKNOWN_BRAND', field: null, message: 'brand B-404 does not exist' }],
    });
    expect(name.problems).toEqual([{ code: 'REQUIRED', field: 'name', message: 'name is required' }]);
    expect(json.problems).toEqual([{ code: 'INVALID_ROW', field: 'displayProducts', message: expect.stringContaining('displayProducts is not valid JSON') }]);
    expect(cells).toMatchObject({ line: 6, values: { internalCode: 'P-5', name: 'Té', brandInternalCode: 'B-1' }, problems: [{ code: 'INVALID_ROW', message: expect.stringContaining('3 cells where the header has 6') }] });
    const second = await failures(t, s, first.id, '?take=3&page=2');
    expect(second).toMatchObject({ page: 2, take: 3, total: 4, totalPages: 2 });
    expect(second.data.map((f: { line: number }) => f.line)).toEqual([6]);
  });

  it('gives exactly the failed rows back as a CSV file that, fixed, uploads again and applies', async () => {
    const res = await failedFile(t, s, first.id);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="products.failed.csv"; filename*=UTF-8''products.failed.csv`);
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(['internalCode', 'name', 'brandInternalCode', 'categoryInternalCode', 'displayProducts', '_line', '_error_code', '_error_field', '_error_message']);
    expect(rows.map((r) => [r.internalCode, r._line, r._error_code, r._error_field])).toEqual([
      ['P-2', '3', 'UNKNOWN_BRAND', ''],
      ['P-3', '4', 'REQUIRED', 'name'],
      ['P-4', '5', 'INVALID_ROW', 'displayProducts'],
      ['P-5', '6', 'INVALID_ROW', ''],
    ]);
    const fixed = res.body
      .replace('B-404', 'B-1')
      .replace('P-3,,', 'P-3,Limonada,')
      .replace('"[{""units"":1"', '"[{""units"":1,""name"":""Unit""}]"')
      .replace('P-5,Té,B-1,,', 'P-5,Té,B-1,C-1,');
    const again = await accepted(await upload(t, s, 'products', fixed, CSV, '?name=products.failed.csv'));
    expect(again.counts).toMatchObject({ rowsRead: 4, refused: 0, sent: 4 });
    const done = await finished(t, s, again.id);
    expect(done).toMatchObject({ status: 'completed', counts: { applied: 4, failed: 0, pending: 0 } });
    expect((await failures(t, s, again.id)).total).toBe(0);
    for (const code of ['P-2', 'P-3', 'P-4', 'P-5']) expect((await as(t, s, 'GET', `/product/${code}`)).statusCode, code).toBe(200);
  });

  it('lists imports newest first, filtered by kind', async () => {
    const list = (await as(t, s, 'GET', '/import?kind=products')).json();
    expect(list.total).toBeGreaterThanOrEqual(2);
    expect(list.data[0].fileName).toBe('products.failed.csv');
    expect(list.data.at(-1).id).toBe(first.id);
    expect((await as(t, s, 'GET', '/import?kind=stores')).json().total).toBe(0);
  });

  it('records who uploaded it in the audit log, and the batches as sent by the upload', async () => {
    const entries = await t.deps.db.selectFrom('audit_entries').select(['entity', 'entity_id', 'actor_id', 'detail', 'operation']).where('entity', '=', 'import').execute();
    expect(entries.find((e) => e.entity_id === first.id)).toMatchObject({ actor_id: s.clientId, operation: 'POST /import/products', detail: expect.objectContaining({ batchIds: first.batchIds }) });
  });
});

describe('a JSON Lines import', () => {
  it('refuses lines that are not items, fails unknown products when applied, and gives back a JSON Lines file to fix', async () => {
    await t.runBatch(s, '/batch/product', { upsert: [{ internalCode: 'Q-1', name: 'Q', brandInternalCode: 'B-1', categoryInternalCode: 'C-1' }] });
    const lines = [
      JSON.stringify({ priceListInternalCode: 'PL-1', productInternalCode: 'Q-1', units: 1, price: 1000 }),
      '',
      JSON.stringify({ priceListInternalCode: 'PL-1', productInternalCode: 'NOPE', units: 1, price: 500, _comment: 'kept' }),
      '{"priceListInternalCode": "PL-1",',
      JSON.stringify({ priceListInternalCode: 'PL-1', productInternalCode: 'Q-1', units: 6, price: -1 }),
    ].join('\n');
    const imported = await accepted(await upload(t, s, 'prices', lines, JSONL, '?name=precios.jsonl'));
    expect(imported).toMatchObject({ format: 'jsonl', counts: { rowsRead: 4, refused: 2, sent: 2 } });
    const done = await finished(t, s, imported.id);
    expect(done).toMatchObject({ status: 'completed_with_failures', counts: { applied: 1, failedWhenApplied: 1, failed: 3 } });
    const page = await failures(t, s, imported.id);
    expect(page.data.map((f: { line: number; problems: { code: string; field: string | null }[] }) => [f.line, f.problems[0]!.code, f.problems[0]!.field])).toEqual([
      [3, 'UNKNOWN_PRODUCT', null],
      [4, 'INVALID_ROW', null],
      [5, 'OUT_OF_RANGE', 'price'],
    ]);
    expect(page.data[0].values).toEqual({ priceListInternalCode: 'PL-1', productInternalCode: 'NOPE', units: 1, price: 500 });
    expect(page.data[1]).toMatchObject({ values: null, text: '{"priceListInternalCode": "PL-1",' });

    const res = await failedFile(t, s, imported.id);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('filename="precios.failed.jsonl"');
    const back = res.body.trim().split('\n').map((l) => JSON.parse(l));
    expect(back).toEqual([
      { priceListInternalCode: 'PL-1', productInternalCode: 'NOPE', units: 1, price: 500, _line: 3, _error_code: 'UNKNOWN_PRODUCT', _error_field: null, _error_message: 'product NOPE does not exist' },
      { _raw: '{"priceListInternalCode": "PL-1",', _line: 4, _error_code: 'INVALID_ROW', _error_field: null, _error_message: expect.stringContaining('not valid JSON') },
      { priceListInternalCode: 'PL-1', productInternalCode: 'Q-1', units: 6, price: -1, _line: 5, _error_code: 'OUT_OF_RANGE', _error_field: 'price', _error_message: 'price: must be >= 0' },
    ]);
    const fixed = [
      { ...back[0], productInternalCode: 'Q-1', units: 12 },
      { priceListInternalCode: 'PL-1', productInternalCode: 'Q-1', units: 24, price: 20000 },
      { ...back[2], price: 5000 },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const again = await accepted(await upload(t, s, 'prices', fixed, { 'content-type': 'application/jsonl' }));
    expect(again.fileName).toBe('prices.jsonl');
    expect(await finished(t, s, again.id)).toMatchObject({ status: 'completed', counts: { rowsRead: 3, applied: 3, failed: 0 } });
    const entries = (await as(t, s, 'GET', '/pricelist/PL-1/entries')).json();
    expect(entries.data.map((e: { units: number; price: number }) => [e.units, e.price])).toEqual([
      [1, 1000],
      [6, 5000],
      [12, 500],
      [24, 20000],
    ]);
  });

  it('takes ?format over the media type, a delimiter, and promotions by their type column, removes with ?remove=true', async () => {
    const semicolons = 'internalCode;name;brandInternalCode;categoryInternalCode\nR-1;Uno;B-1;C-1\n';
    const asText = await accepted(await upload(t, s, 'products', semicolons, JSONL, '?format=csv&delimiter=%3B'));
    expect(asText).toMatchObject({ format: 'csv', counts: { rowsRead: 1, sent: 1 } });
    expect((await finished(t, s, asText.id)).status).toBe('completed');
    const prices = 'priceListInternalCode,productInternalCode,units\nPL-1,Q-1,24\n';
    const removed = await accepted(await upload(t, s, 'prices', prices, CSV, '?remove=true'));
    expect(await finished(t, s, removed.id)).toMatchObject({ status: 'completed', counts: { applied: 1 } });
    const entries = (await as(t, s, 'GET', '/pricelist/PL-1/entries')).json();
    expect(entries.data.map((e: { units: number }) => e.units)).toEqual([1, 6, 12]);
  });
});

describe('what an upload refuses', () => {
  it('answers 404 naming a kind that does not exist, and 400 naming the column, the query field or the problem', async () => {
    const nope = await upload(t, s, 'nope', 'a\n1\n');
    expect(nope.statusCode).toBe(404);
    expect(nope.json().detail).toContain('/import/nope');
    const kinds = (await as(t, s, 'GET', '/import/kinds')).json();
    expect(kinds.map((k: { name: string }) => k.name)).toEqual(['brands', 'products', 'stores', 'prices', 'pricelist-stores', 'stock', 'stock-grouper-stores', 'promotion-grouper-stores', 'promotions']);
    expect(kinds.find((k: { name: string }) => k.name === 'prices')).toMatchObject({
      endpoint: '/batch/pricelist',
      scope: 'supplier/pricelist.bulkwrite',
      write: [{ node: 'upsert.products', type: null, columns: ['priceListInternalCode*', 'productInternalCode*', 'units*', 'price*'] }],
      remove: [{ node: 'remove.products' }],
    });

    const column = await upload(t, s, 'brands', 'internalCode,nmae\nB-9,Nine\n');
    expect(column.statusCode).toBe(400);
    expect(column.json()).toMatchObject({ code: 'INVALID_VALUE', errors: [{ pointer: '', code: 'INVALID_VALUE', message: 'unknown column(s) for brands: nmae' }] });
    const type = await upload(t, s, 'promotions', 'internalCode,name\nX,Y\n');
    expect(type.json()).toMatchObject({ code: 'REQUIRED', detail: expect.stringContaining('promotions needs a type column') });
    const remove = await upload(t, s, 'products', 'internalCode\nP-1\n', CSV, '?remove=true');
    expect(remove.json()).toMatchObject({ code: 'INVALID_VALUE', errors: [{ pointer: '/query/remove' }] });
    const empty = await upload(t, s, 'products', '');
    expect(empty.json()).toMatchObject({ status: 400, code: 'REQUIRED' });
    const header = await upload(t, s, 'products', 'internalCode,name,brandInternalCode,categoryInternalCode\n');
    expect(header.json()).toMatchObject({ status: 400, code: 'REQUIRED', detail: 'products.csv holds no rows' });
    const quote = await upload(t, s, 'brands', 'internalCode,name\n"B-1,Never closed\n');
    expect(quote.json()).toMatchObject({ status: 400, code: 'INVALID_FORMAT' });
    const format = await upload(t, s, 'brands', 'internalCode,name\n', CSV, '?format=xml');
    expect(format.json()).toMatchObject({ status: 400, errors: [{ pointer: '/query/format' }] });
    const json = await upload(t, s, 'brands', JSON.stringify({ upsert: [] }), { 'content-type': 'application/json' });
    expect(json.statusCode).toBe(415);
    expect(json.json().detail).toContain('text/csv');
    const nul = await upload(t, s, 'brands', 'internalCode,name\nB-1,a\u0000b\n');
    expect(nul.statusCode).toBe(400);
    expect(await t.deps.db.selectFrom('imports').select('id').where('kind', '=', 'brands').execute()).toEqual([]);
  });

  it('refuses rows nesting too deep one by one, never the service', async () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const file = [JSON.stringify({ internalCode: 'B-D', name: 'Deep' }), `{"internalCode":"B-E","name":"x","weight":${deep(100_000)}}`].join('\n');
    const imported = await accepted(await upload(t, s, 'brands', file, JSONL));
    expect(imported.counts).toMatchObject({ rowsRead: 2, refused: 1, sent: 1 });
    expect((await failures(t, s, imported.id)).data[0].problems[0].message).toContain('deeper than 60 levels');
  });

  it('checks the scope of the kind’s batch endpoint (403 naming it), and batch.read for the reads', async () => {
    const reader = await t.credential(s, ['supplier/batch.read']);
    const refused = await upload(t, reader, 'prices', 'priceListInternalCode,productInternalCode,units,price\nPL-1,Q-1,1,1\n');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe('this operation needs the scope supplier/pricelist.bulkwrite');
    expect((await as(t, reader, 'GET', '/import')).statusCode).toBe(200);
    const writer = await t.credential(s, ['supplier/pricelist.bulkwrite']);
    const imported = await accepted(await upload(t, writer, 'prices', 'priceListInternalCode,productInternalCode,units,price\nPL-1,Q-1,1,1100\n'));
    expect((await as(t, writer, 'GET', `/import/${imported.id}`)).json().detail).toBe('this operation needs the scope supplier/batch.read');
    await finished(t, s, imported.id);
  });

  it('has one upload route per import kind, each needing the scope of the batch endpoint its rows go through', () => {
    const uploads = t.app.guardedRoutes.filter((r) => r.method === 'POST' && r.url.startsWith('/import/'));
    expect(uploads.map((r) => r.url)).toEqual(IMPORT_KINDS.map((k) => `/import/${k.name}`));
    for (const kind of IMPORT_KINDS) {
      const route = uploads.find((r) => r.url === `/import/${kind.name}`)!;
      expect(route, kind.name).toMatchObject({ auth: 'supplier', scope: t.deps.batches.get(kind.endpoint).route.scope, audit: 'import' });
    }
    for (const url of ['/import', '/import/kinds', '/import/:id', '/import/:id/failures', '/import/:id/failures/file']) {
      expect(t.app.guardedRoutes.find((r) => r.method === 'GET' && r.url === url), url).toMatchObject({ auth: 'supplier', scope: 'supplier/batch.read' });
    }
  });

  it('never answers a 5xx to an odd file, and refuses what it cannot read with problem details', async () => {
    const cell = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('', '"', '""', '[', '{"a":', '[1,2]', '{"units":1,"name":"U"}', 'A|B', 'yes', '-1', '1e999', '\u0000', ' x ', '\n'));
    const csv = fc.array(fc.array(cell, { minLength: 1, maxLength: 7 }), { minLength: 1, maxLength: 6 }).map((rows) => rows.map((r) => r.join(',')).join('\n'));
    const header = fc.constantFrom('internalCode,name', 'internalCode,name,settings.dropSize,addresses,promotionGrouperCodes,enabled', 'type,internalCode,name,products.internalCode,start,end,enabled');
    const file = fc.oneof(fc.string({ maxLength: 200 }), fc.tuple(header, csv).map(([h, body]) => `${h}\n${body}`), fc.array(fc.json(), { maxLength: 4 }).map((lines) => lines.join('\n')));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('brands', 'stores', 'promotions', 'prices'), file, fc.constantFrom(CSV, JSONL), async (kind, text, headers) => {
        const res = await upload(t, s, kind, text, headers);
        expect(res.statusCode, `${kind} ${JSON.stringify(text)}: ${res.body}`).toBeLessThan(500);
        if (res.statusCode >= 400) expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        else expect(res.statusCode).toBe(202);
      }),
      { numRuns: Number(process.env.HOSTILE_RUNS ?? 40) },
    );
  });

  it("answers another supplier's import exactly as one nobody has", async () => {
    const other = await t.supplier();
    const mine = (await as(t, s, 'GET', '/import?take=1')).json().data[0].id as string;
    const nobody = '00000000-0000-4000-8000-00000000dead';
    for (const suffix of ['', '/failures', '/failures/file']) {
      const theirs = await as(t, other, 'GET', `/import/${mine}${suffix}`);
      const missing = await as(t, other, 'GET', `/import/${nobody}${suffix}`);
      expect(theirs.statusCode, suffix).toBe(404);
      expect(theirs.json().detail.replace(mine, '<id>')).toBe(missing.json().detail.replace(nobody, '<id>'));
    }
    expect((await as(t, other, 'GET', '/import')).json().total).toBe(0);
  });
});

describe('from the console', () => {
  it("names the member who uploaded; a viewer reads imports but cannot upload", async () => {
    const manager = await memberSession(t, s, 'gerente@import.test', 'manager');
    const imported = await accepted(await upload(t, manager, 'brands', 'internalCode,name\nB-M,Marca\n', CSV, '?name=marcas.csv'));
    expect(imported.uploadedBy).toEqual({ kind: 'person', id: 'gerente@import.test' });
    const viewer = await memberSession(t, s, 'lector@import.test', 'viewer');
    expect((await upload(t, viewer, 'brands', 'internalCode,name\nB-V,Marca\n')).statusCode).toBe(403);
    expect((await as(t, viewer, 'GET', `/import/${imported.id}`)).json().uploadedBy.id).toBe('gerente@import.test');
    await finished(t, s, imported.id);
  });
});

describe('limits and chunks', () => {
  let small: TestApp;
  let z: TestSupplier;
  beforeAll(async () => {
    small = await createTestApp({ env: { MAX_IMPORT_BYTES: '65536', MAX_BATCH_REQUEST_ITEMS: '2000', BATCH_SIZE: '1500' } });
    z = await small.supplier();
    await small.runBatch(z, '/batch/brand', { upsert: [{ internalCode: 'B-1', name: 'B' }] });
    await as(small, z, 'PUT', '/category', { internalCode: 'C-1', name: 'C' });
    await small.runBatch(z, '/batch/product', { upsert: [{ internalCode: 'P', name: 'P', brandInternalCode: 'B-1', categoryInternalCode: 'C-1' }] });
    await as(small, z, 'POST', '/pricelist', { internalCode: 'L', name: 'L' });
  });
  afterAll(() => small?.close());

  it('refuses a file over MAX_IMPORT_BYTES with 413, storing nothing', async () => {
    const big = 'internalCode,name\n' + Array.from({ length: 5000 }, (_, i) => `B-${i},Brand number ${i}`).join('\n');
    expect(big.length).toBeGreaterThan(65536);
    const res = await upload(small, z, 'brands', big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', detail: expect.stringContaining('MAX_IMPORT_BYTES: 65536 bytes') });
    expect((await as(small, z, 'GET', '/import')).json().total).toBe(0);
  });

  it('sends requests of at most MAX_BATCH_REQUEST_ITEMS, batches of BATCH_SIZE, and traces each failure to its line across them', async () => {
    // 2,500 rows: requests of 2,000 and 500, batches of 1,500, 500 and 500; rows stored in parts of 1,000.
    const bad = new Set([0, 1200, 1600, 2300, 2499]);
    const rows = Array.from({ length: 2500 }, (_, i) => `L,${bad.has(i) ? `GONE-${i}` : 'P'},${i + 1},${i + 1}`);
    const imported = await accepted(await upload(small, z, 'prices', `priceListInternalCode,productInternalCode,units,price\n${rows.join('\n')}\n`));
    expect(imported.batchIds).toHaveLength(3);
    const sizes = await Promise.all(imported.batchIds.map(async (id) => (await as(small, z, 'GET', `/batch/${id}/status`)).json().total));
    expect(sizes).toEqual([1500, 500, 500]);
    const done = await finished(small, z, imported.id);
    expect(done.counts).toEqual({ rowsRead: 2500, refused: 0, sent: 2500, applied: 2495, failedWhenApplied: 5, failed: 5, pending: 0 });
    const page = await failures(small, z, imported.id);
    expect(page.data.map((f: { line: number; values: { productInternalCode: string } }) => [f.line, f.values.productInternalCode])).toEqual(
      [...bad].map((i) => [i + 2, `GONE-${i}`]),
    );
    const parts = await sql<{ n: number }>`select count(*)::int as n from import_parts where import_id = ${imported.id}`.execute(small.deps.db);
    expect(parts.rows[0]!.n).toBe(4);
  });

  it('goes with its batches when the retention job removes them', async () => {
    const before = await small.deps.db.selectFrom('imports').select('id').execute();
    expect(before.length).toBeGreaterThan(0);
    await sql`update batches set finished_at = now() - interval '40 days'`.execute(small.deps.db);
    await sql`update imports set created_at = now() - interval '40 days'`.execute(small.deps.db);
    const ctx = { db: small.deps.db, storage: undefined as never };
    const sweep = (name: string) => retentionKinds.find((k) => k.name === name)!.sweep(ctx, 30, 5000);
    expect(await sweep('import parts')).toBe(4);
    expect(await sweep('imports')).toBe(before.length);
    await sweep('batch item results');
    await sweep('staged batch items');
    await sweep('batches');
    expect(await small.deps.db.selectFrom('import_parts').select('part').execute()).toEqual([]);
  });
});
