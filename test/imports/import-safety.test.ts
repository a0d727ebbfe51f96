// File imports that hold (issue #29): a JSON line the database cannot store is a refused row
// (as its batch route refuses it), never a 500, and no log line carries the rows; the
// failed-rows CSV is safe to open in a spreadsheet and reads back as it was; a supplier
// runs at most two imports at once (429 and Retry-After after that); the file is taken as
// bytes (idempotency still recognises it, the size limit still holds without a declared
// length); a refused row keeps at most 1 KB of text.
import { PassThrough, Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/http/logging.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;
let logLines: string[];

const CSV = { 'content-type': 'text/csv' };
const JSONL = { 'content-type': 'application/x-ndjson' };

function upload(who: TestSupplier, kind: string, file: string | PassThrough, headers: Record<string, string> = CSV, query = '') {
  return t.request({ method: 'POST', url: `/import/${kind}${query}`, headers: { ...who.headers, ...headers }, payload: file });
}

async function accepted(res: { statusCode: number; body: string; json: () => unknown }) {
  expect(res.statusCode, res.body).toBe(202);
  return res.json() as { id: string; counts: Record<string, number>; batchIds: string[] };
}

async function finished(who: TestSupplier, id: string) {
  for (let i = 0; i < 2000; i++) {
    const view = (await as(t, who, 'GET', `/import/${id}`)).json();
    if (view.status !== 'processing') return view;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`import ${id} still processing`);
}

const failures = async (who: TestSupplier, id: string) => (await as(t, who, 'GET', `/import/${id}/failures`)).json();
const failedFile = async (who: TestSupplier, id: string) => (await as(t, who, 'GET', `/import/${id}/failures/file`)).body;

beforeAll(async () => {
  logLines = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  // The service's own log settings (redaction included), every level, to this stream.
  t = await createTestApp({ logger: { ...loggerOptions({ logLevel: 'trace', logFormat: 'json' }), stream } });
  s = await t.supplier();
  expect((await as(t, s, 'PUT', '/category', { internalCode: 'C-1', name: 'Bebidas' })).statusCode).toBe(200);
  await t.runBatch(s, '/batch/brand', { upsert: [{ internalCode: 'B-1', name: 'Cola Co' }] });
  expect((await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-1', name: 'Main' })).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('a JSON line the database cannot store', () => {
  it('is a refused row with the reason its batch route gives for the same value, never a 500, and no log line carries the rows', async () => {
    logLines.length = 0;
    const lines = [
      '{"internalCode":"B-NUL","name":"a\\u0000b ROW-MARK-1"}',
      '{"internalCode":"B-SUR","name":"x\\ud800y ROW-MARK-2"}',
      '{"internalCode":"B-NOTE","name":"fine ROW-MARK-3","_note":"\\u0000"}',
      '{"internalCode":"B-KEY","name":"fine ROW-MARK-4","a\\u0000":1}',
      '{"internalCode":"B-OK","name":"stored ROW-MARK-5"}',
    ];
    const imported = await accepted(await upload(s, 'brands', lines.join('\n'), JSONL, '?name=marcas.jsonl'));
    expect(imported.counts).toMatchObject({ rowsRead: 5, refused: 4, sent: 1 });

    // What POST /batch/brand answers for the same values, item by item.
    const route = async (line: string) => (await as(t, s, 'POST', '/batch/brand', { upsert: [JSON.parse(line)] })).json().errors[0];
    const page = await failures(s, imported.id);
    expect(page.data.map((f: { line: number }) => f.line)).toEqual([1, 2, 3, 4]);
    for (const [i, failure] of page.data.entries()) {
      const said = await route(lines[i]!);
      expect(said.pointer, lines[i]).toMatch(/^\/upsert\/0\//);
      // A key holding NUL is named as the file writes it (its JSON escape): no column stores the character.
      const field = said.pointer.slice('/upsert/0/'.length).replace('\u0000', '\\u0000');
      expect(failure.problems, lines[i]).toEqual([{ code: said.code, field, message: said.message }]);
    }
    expect(page.data[0].problems[0]).toEqual({ code: 'INVALID_VALUE', field: 'name', message: 'must not contain the NUL character' });
    expect(page.data[1].problems[0]).toEqual({ code: 'INVALID_VALUE', field: 'name', message: 'must be valid Unicode (a lone surrogate is not)' });
    // Kept as the line's text, escapes and all.
    expect(page.data[0]).toMatchObject({ values: null, text: lines[0] });
    expect(page.data[1]).toMatchObject({ values: null, text: lines[1] });

    const back = (await failedFile(s, imported.id)).trim().split('\n').map((l) => JSON.parse(l));
    expect(back[0]).toEqual({ _raw: lines[0], _line: 1, _error_code: 'INVALID_VALUE', _error_field: 'name', _error_message: 'name: must not contain the NUL character' });
    expect(back.map((b) => b._error_field)).toEqual(['name', 'name', '_note', 'a\\u0000']);

    await finished(s, imported.id);
    expect((await as(t, s, 'GET', '/brand/B-OK')).statusCode).toBe(200);
    const logged = logLines.join('');
    for (let i = 1; i <= 5; i++) expect(logged).not.toContain(`ROW-MARK-${i}`);
  });

  it('leaves the rows out of the log even when the database refuses the statement that stores them', async () => {
    // A real failure of the statement that stores the rows (not a mock): a constraint no part meets.
    await sql`alter table import_parts add constraint no_parts_h4 check (part < 0) not valid`.execute(t.deps.db);
    try {
      logLines.length = 0;
      const res = await upload(s, 'brands', 'internalCode,name\nB-LOG,SECRET-ROW-CONTENT\n');
      expect(res.statusCode).toBe(500);
      const logged = logLines.join('');
      expect(logged).toContain('no_parts_h4');
      expect(logged).not.toContain('SECRET-ROW-CONTENT');
    } finally {
      await sql`alter table import_parts drop constraint no_parts_h4`.execute(t.deps.db);
    }
  });
});

describe('the failed-rows CSV in a spreadsheet', () => {
  it("writes cells that would run as formulas behind a ' and reads them back as they were, so fix-and-upload keeps working", async () => {
    // As the cells are meant: a value that itself starts with ' and then = is written with one more ' (README's rule).
    const rows = [
      ['=HYPERLINK("http://evil.test","x")', 'Uno', 'B-404'],
      ['P-2', "'=already quoted", 'B-404'],
      ['P-3', '@SUM(A1:A9)', 'B-404'],
      ['P-4', "'plain quote", 'B-404'],
      ['P-5', '-2+3', 'B-404'],
    ];
    const csv = [
      'internalCode,name,brandInternalCode,categoryInternalCode',
      '"=HYPERLINK(""http://evil.test"",""x"")",Uno,B-404,C-1',
      "P-2,''=already quoted,B-404,C-1",
      'P-3,@SUM(A1:A9),B-404,C-1',
      "P-4,'plain quote,B-404,C-1",
      'P-5,-2+3,B-404,C-1',
    ].join('\n');
    const first = await accepted(await upload(s, 'products', csv, CSV, '?name=productos.csv'));
    expect((await finished(s, first.id)).counts).toMatchObject({ failedWhenApplied: 5 });
    const firstValues = (await failures(s, first.id)).data.map((f: { values: Record<string, string> }) => [f.values.internalCode, f.values.name, f.values.brandInternalCode]);
    expect(firstValues).toEqual(rows);

    const file = await failedFile(s, first.id);
    const cells = parse(file, { relax_quotes: true }) as string[][];
    // No cell of the file starts with what a spreadsheet runs.
    for (const cell of cells.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    expect(cells.slice(1).map((r) => r.slice(0, 2))).toEqual([
      [`'=HYPERLINK("http://evil.test","x")`, 'Uno'],
      ['P-2', "''=already quoted"],
      ['P-3', "'@SUM(A1:A9)"],
      ['P-4', "'plain quote"],
      ['P-5', "'-2+3"],
    ]);

    // Uploaded again as it is: read back to exactly the original cells.
    const again = await accepted(await upload(s, 'products', file, CSV, '?name=productos.failed.csv'));
    await finished(s, again.id);
    const values = (await failures(s, again.id)).data.map((f: { values: Record<string, string> }) => [f.values.internalCode, f.values.name, f.values.brandInternalCode]);
    expect(values).toEqual(rows);
  });

  it('leaves a negative number in a numeric column as a number, and it reads back the same', async () => {
    const first = await accepted(await upload(s, 'prices', 'priceListInternalCode,productInternalCode,units,price\nPL-1,P-X,1,-5\n'));
    const file = await failedFile(s, first.id);
    expect(file.split('\n')[1]).toBe('PL-1,P-X,1,-5,2,OUT_OF_RANGE,price,price: must be >= 0');
    const again = await accepted(await upload(s, 'prices', file));
    expect((await failures(s, again.id)).data[0]).toMatchObject({ values: { price: '-5' }, problems: [{ code: 'OUT_OF_RANGE', field: 'price' }] });
  });
});

describe('a refused row', () => {
  it('keeps at most its first 1 KB of text, so a failures page stays small', async () => {
    const long = 'x'.repeat(5000);
    const jsonl = [JSON.stringify({ internalCode: 'B-LONG', name: long }), `{"internalCode": "B-BAD", "name": "${long}"`].join('\n');
    const imported = await accepted(await upload(s, 'brands', jsonl, JSONL));
    expect(imported.counts).toMatchObject({ refused: 2 });
    const page = await failures(s, imported.id);
    for (const f of page.data) {
      expect(f.values).toBeNull();
      expect(Buffer.byteLength(f.text)).toBeLessThanOrEqual(1024 + 3);
      expect(f.text.endsWith('…')).toBe(true);
    }
    expect(page.data[0].problems[0]).toMatchObject({ code: 'INVALID_LENGTH', field: 'name' });
    expect(page.data[0].text.startsWith('{"internalCode":"B-LONG","name":"xxx')).toBe(true);
    const stored = await sql<{ n: number }>`select max(octet_length(originals::text))::int as n from import_parts where import_id = ${imported.id}`.execute(t.deps.db);
    expect(stored.rows[0]!.n).toBeLessThan(2 * 1024 + 100);

    // A CSV row too: a wrong number of cells no longer repeats them in the reason.
    const csv = `internalCode,name\nB-W,${'y'.repeat(3000)},extra\nB-L,${'z'.repeat(3000)}\n`;
    const rows = await accepted(await upload(s, 'brands', csv));
    const csvPage = await failures(s, rows.id);
    expect(csvPage.data.map((f: { problems: { code: string; message: string }[] }) => f.problems[0])).toEqual([
      { code: 'INVALID_ROW', field: null, message: '3 cells where the header has 2' },
      expect.objectContaining({ code: 'INVALID_LENGTH', field: 'name' }),
    ]);
    for (const f of csvPage.data) expect(Buffer.byteLength(f.text)).toBeLessThanOrEqual(1024 + 3);
    // In the failed-rows file its cells are empty (so uploading it as it is refuses it again, never sends part of it), and the reason says why.
    const file = await failedFile(s, rows.id);
    const back = parse(file, { columns: true }) as Record<string, string>[];
    expect(back.map((r) => [r.internalCode, r.name, r._line])).toEqual([
      ['', '', '2'],
      ['', '', '3'],
    ]);
    expect(back[0]!._error_message).toContain('longer than 1024 bytes and is not repeated here');
    const again = await accepted(await upload(s, 'brands', file));
    expect(again.counts).toMatchObject({ rowsRead: 2, refused: 2, sent: 0 });
  });
});

describe('imports running at once', () => {
  const PRICES = 'priceListInternalCode,productInternalCode,units,price\n';

  it('lets a supplier run two; a third is 429 with Retry-After before its file is read; others are not affected; slots come back', async () => {
    const other = await t.supplier();
    await as(t, other, 'POST', '/pricelist', { internalCode: 'PL-1', name: 'Main' });
    // Two uploads whose files are still arriving.
    const bodies = [new PassThrough(), new PassThrough()];
    const running = bodies.map((body) => upload(s, 'prices', body));
    for (const body of bodies) body.write(PRICES);
    await new Promise((r) => setTimeout(r, 50));

    const third = await upload(s, 'prices', `${PRICES}PL-1,P-X,1,1\n`);
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBe('5');
    expect(third.json()).toMatchObject({ code: 'RATE_LIMITED', detail: 'this supplier already has 2 file imports running; retry after 5 s' });
    await accepted(await upload(other, 'prices', `${PRICES}PL-1,P-X,1,1\n`));

    // One ends, one is abandoned halfway: both give their slot back.
    bodies[0]!.end('PL-1,P-X,1,1\n');
    await accepted(await running[0]!);
    bodies[1]!.destroy(new Error('the client went away'));
    expect((await running[1]!.catch((error: Error) => ({ statusCode: 0, error }))).statusCode).not.toBe(202);
    await new Promise((r) => setTimeout(r, 20));
    const next = await Promise.all([upload(s, 'prices', `${PRICES}PL-1,P-X,1,1\n`), upload(s, 'prices', `${PRICES}PL-1,P-X,2,1\n`)]);
    expect(next.map((r) => r.statusCode)).toEqual([202, 202]);
  });
});

describe('the file as bytes', () => {
  it('is recognised by its Idempotency-Key: the same file replays, another file is refused', async () => {
    const key = { 'idempotency-key': 'import-h4-1' };
    const file = 'internalCode,name\nB-IDEM,Idem\n';
    const first = await accepted(await upload(s, 'brands', file, { ...CSV, ...key }));
    const replay = await upload(s, 'brands', file, { ...CSV, ...key });
    expect(replay.statusCode).toBe(202);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().id).toBe(first.id);
    const other = await upload(s, 'brands', 'internalCode,name\nB-IDEM,Otra\n', { ...CSV, ...key });
    expect(other.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('is refused with 413 past MAX_IMPORT_BYTES even when no length is declared, storing nothing', async () => {
    const small = await createTestApp({ env: { MAX_IMPORT_BYTES: '65536' } });
    try {
      const z = await small.supplier();
      const body = new PassThrough();
      const answer = small.request({ method: 'POST', url: '/import/brands', headers: { ...z.headers, ...CSV }, payload: body });
      body.write('internalCode,name\n');
      for (let i = 0; i < 5000; i++) body.write(`B-${i},Brand number ${i}\n`);
      body.end();
      const res = await answer;
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      expect((await as(small, z, 'GET', '/import')).json().total).toBe(0);
    } finally {
      await small.close();
    }
  });
});
