// The integrator's pure parts, without a service: CSV cell conversion, tracing failed items
// back to rows, the failed-rows file's spreadsheet protection, progress rendering, backoff
// and Retry-After parsing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoff, DEFAULT_RETRY, retryAfterMs } from '../../src/client/transport.ts';
import { CsvMapper } from '../../src/integrator/csv-mapping.ts';
import { FailedRows, protectCell, unprotectCell } from '../../src/integrator/failures.ts';
import { openSource } from '../../src/integrator/readers.ts';
import { UsageError } from '../../src/integrator/settings.ts';
import { traceFailures } from '../../src/integrator/importer.ts';
import { findKind } from '../../src/integrator/kinds.ts';
import { ProgressDisplay } from '../../src/integrator/progress.ts';
import type { SourceRow } from '../../src/integrator/rows.ts';

const kind = (name: string) => findKind(name)!;

describe('CSV mapping', () => {
  it('converts cells by the API type of their field and leaves empty cells out', () => {
    const stores = new CsvMapper(kind('stores'), kind('stores').write, ['internalCode', 'name', 'enabled', 'settings.dropSize', 'promotionGrouperCodes', 'phone', '_comment']);
    expect(stores.row(2, ['S-1', 'Tienda', 'No', '1500.5', ' A | B ', '', 'x'])).toMatchObject({
      node: ['upsert'],
      item: { internalCode: 'S-1', name: 'Tienda', enabled: false, settings: { dropSize: 1500.5 }, promotionGrouperCodes: ['A', 'B'] },
    });
    // Not a number: sent as it is, for the service to name the field.
    expect(stores.row(3, ['S-2', '007', 'maybe', 'lots', '["C"]', '+573001234567', '']).item).toEqual({
      internalCode: 'S-2',
      name: '007',
      enabled: 'maybe',
      settings: { dropSize: 'lots' },
      promotionGrouperCodes: ['C'],
      phone: '+573001234567',
    });
  });

  it('refuses unknown columns up front, and rows it cannot turn into an item', () => {
    expect(() => new CsvMapper(kind('prices'), kind('prices').write, ['priceListInternalCode', 'product', 'units', 'price'])).toThrow(UsageError);
    expect(() => new CsvMapper(kind('promotions'), kind('promotions').write, ['internalCode'])).toThrow(/type column/);
    const products = new CsvMapper(kind('products'), kind('products').write, ['internalCode', 'displayProducts']);
    expect(products.row(2, ['P-1', '{"units":1'])).toMatchObject({ error: { code: 'INVALID_ROW', field: 'displayProducts' } });
    expect(products.row(3, ['P-1', 'Unit'])).toMatchObject({ error: { code: 'INVALID_ROW', message: expect.stringContaining('takes JSON') } });
    expect(products.row(4, ['P-1'])).toMatchObject({ error: { code: 'INVALID_ROW' } });
  });
});

describe("the failed-rows CSV's spreadsheet protection (CSV injection)", () => {
  const dangerous = fc.constantFrom('=', '+', '-', '@', '\t', '\r');
  const cell = fc.oneof(
    fc.string(),
    fc.tuple(fc.stringMatching(/^'{0,3}$/), dangerous, fc.string()).map(([quotes, d, rest]) => quotes + d + rest),
    fc.constantFrom('-5', '+3.5', '-1e3', '-', "'", "'-5", "''=x", '=1+1', '@SUM(A1)', '-2+3'),
  );

  it('writes no cell a spreadsheet would run, except plain numbers, and reads every cell back as it was', () => {
    fc.assert(
      fc.property(cell, (value) => {
        const written = protectCell(value);
        expect(unprotectCell(written)).toBe(value);
        if (/^[=+\-@\t\r]/.test(written)) expect(written).toMatch(/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/);
      }),
      { numRuns: 2000 },
    );
    expect(['=1+1', "'=x", '-2+3', '@SUM(A1)', '\tx', "'abc", '-5'].map(protectCell)).toEqual(["'=1+1", "''=x", "'-2+3", "'@SUM(A1)", "'\tx", "'abc", '-5']);
  });

  it('holds through the file the CLI writes and reads: a fixed failed-rows file gives back the original cells', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-protect-'));
    try {
      const header = ['internalCode', 'name', 'weight'];
      const rows = [
        ['=HYPERLINK("http://x","y")', "'=already quoted", '-5'],
        ['@SUM(A1)', "'plain quote", '+1'],
        ['B-3', '-2+3', '\tindented'],
      ];
      const failed = new FailedRows(path.join(dir, 'brands.failed.csv'), 'csv', header);
      for (const [i, cells] of rows.entries()) await failed.add({ line: i + 2, original: cells }, { code: 'X', message: '=not a formula either' });
      const written = (await failed.close())!;
      const text = fs.readFileSync(written, 'utf8');
      expect(text.split('\n')[1]).toBe(`"'=HYPERLINK(""http://x"",""y"")",''=already quoted,-5,2,X,,'=not a formula either`);
      const source = await openSource(written, 'csv', kind('brands'), kind('brands').write);
      const back: unknown[] = [];
      for await (const row of source.rows) back.push((row.original as string[]).slice(0, 3));
      expect(back).toEqual(rows);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('traceFailures', () => {
  const row = (line: number, item: unknown): SourceRow => ({ line, original: item, node: ['upsert'], item });

  it('walks the rows in order, so equal items map to their own lines', () => {
    const rows = [row(2, { a: 1 }), row(3, { a: 2, note: 'dropped by the service' }), row(4, { a: 1 }), row(5, { a: 2 })];
    const failure = (item: unknown) => ({ item, batchId: 'b', code: '', endpoint: '', action: '', batchItem: '', status: 'failed' as const, errorCode: 'X', message: 'm', finishedAt: null });
    const traced = traceFailures(rows, [failure({ a: 2, defaulted: true }), failure({ a: 1 }), failure({ a: 9 })]);
    expect(traced.map((t) => t.row?.line)).toEqual([3, 4, undefined]);
  });
});

describe('progress', () => {
  it('redraws one line on a terminal and prints plain lines elsewhere', () => {
    let tty = '';
    let now = 0;
    const onTerminal = new ProgressDisplay({ write: (t: string) => (tty += t), isTTY: true }, { enabled: true, intervalMs: 5000, now: () => now });
    const state = { rowsRead: 10, readingDone: false, sent: 10, processed: 5, failed: 1 };
    onTerminal.update(state);
    now += 50;
    onTerminal.update({ ...state, processed: 6 }); // within 100 ms: not drawn
    onTerminal.finish({ ...state, processed: 10, readingDone: true });
    expect(tty).toBe(
      '\r[############------------]  50%  5/10 applied  1 failed  reading… 10 rows\x1b[K' + '\r[########################] 100%  10/10 applied  1 failed  10 rows read\x1b[K\n',
    );

    let log = '';
    const inLog = new ProgressDisplay({ write: (t: string) => (log += t) }, { enabled: true, intervalMs: 5000, now: () => now });
    inLog.update(state);
    now += 1000;
    inLog.update(state);
    expect(log.split('\n').filter(Boolean)).toHaveLength(1);
  });
});

describe('retry timing', () => {
  it('reads Retry-After as seconds or a date, and backs off exponentially within bounds', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThan(8000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
    for (let attempt = 0; attempt < 8; attempt++) {
      const ceiling = Math.min(DEFAULT_RETRY.maxDelayMs, DEFAULT_RETRY.minDelayMs * 2 ** attempt);
      const delay = backoff(attempt, DEFAULT_RETRY);
      expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
      expect(delay).toBeLessThanOrEqual(ceiling);
    }
  });
});
