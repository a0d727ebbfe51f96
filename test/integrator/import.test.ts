// The integrator CLI against the real service over HTTP: files with good and bad rows of
// each kind, the failed-rows file, status and wait. Most runs call main() in this process
// (fast); one spawns the `surtido` bin as a real process.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSurtidoClient, type SurtidoClient } from 'surtido/client';
import { main } from '../../src/integrator/cli.ts';
import { startService, type Credentials, type RunningService } from '../client/helpers.ts';

let service: RunningService;
let credentials: Credentials;
let client: SurtidoClient;
let env: Record<string, string>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-cli-'));

beforeAll(async () => {
  // Every CLI run logs in anew: more than the default 10 logins a minute per API key.
  service = await startService({ env: { LOGIN_RATE_LIMIT_PER_MINUTE: '1000' } });
  credentials = await service.credentials();
  env = {
    SURTIDO_URL: service.baseUrl,
    SURTIDO_API_KEY: credentials.apiKey,
    SURTIDO_CLIENT_ID: credentials.clientId,
    SURTIDO_CLIENT_SECRET: credentials.clientSecret,
  };
  client = createSurtidoClient({ baseUrl: service.baseUrl, ...credentials });
  await client.put('/category', { body: { internalCode: 'C-1', name: 'Drinks' } });
});
afterAll(async () => {
  await service.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const target = path.join(dir, name);
  fs.writeFileSync(target, text);
  return target;
}

async function cli(args: string[], extraEnv: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { ...env, ...extraEnv }, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t), isTTY: false } });
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}

const importJson = (kind: string, input: string, ...flags: string[]) => cli(['import', kind, input, '--json', '--poll-ms', '20', ...flags]);
const csvRows = (target: string) => parse(fs.readFileSync(target, 'utf8'), { columns: true }) as Record<string, string>[];

describe('import', () => {
  it('imports a clean CSV file: exit 0, a summary and no failed-rows file', async () => {
    const input = file('brands.csv', 'internalCode,name,weight,enabled\nB-1,Brand one,1,true\nB-2,"Brand, two",2,no\n');
    const run = await importJson('brands', input);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json()).toMatchObject({ kind: 'brands', endpoint: '/batch/brand', rowsRead: 2, sent: 2, completed: 2, failed: 0, failedFile: null, stopped: null });
    expect(run.json().batchIds).toHaveLength(1);
    expect(fs.existsSync(`${input}.failed.csv`)).toBe(false);
    expect(await client.get('/brand/{code}', { params: { path: { code: 'B-2' } } })).toMatchObject({ name: 'Brand, two', weight: 2, enabled: false });
  });

  it('products: good rows are applied, bad ones land in <file>.failed.csv with their reasons', async () => {
    const input = file(
      'products.csv',
      [
        'internalCode,name,brandInternalCode,categoryInternalCode,enabled,images,displayProducts,_note',
        'P-1,Cola,B-1,C-1,true,https://img.example/a.png|https://img.example/b.png,"[{""units"":1,""name"":""Unit"",""default"":true},{""units"":24,""name"":""Box""}]",ok',
        'P-2,Water,B-404,C-1,,,,unknown brand',
        'P-3,,B-1,C-1,,,,no name',
        'P-4,Juice,B-1,C-1,,,[not json,bad cell',
        'P-5,Soda,B-1',
        'P-6,Tea,B-1,C-1,false,,,ok',
        'P-7,Mate,B-1,C-404,,,,unknown category',
      ].join('\n') + '\n',
    );
    const run = await importJson('products', input, '--batch-size', '2');
    expect(run.code, run.stderr).toBe(2);
    expect(run.json()).toMatchObject({ rowsRead: 7, sent: 4, completed: 2, failed: 5, refusedBeforeSending: 3, failedWhenApplied: 2, failedFile: `${input}.failed.csv` });

    // In the order found: refused while reading or sending first, failed when applied as batches end.
    const failed = csvRows(`${input}.failed.csv`).sort((a, b) => Number(a._line) - Number(b._line));
    expect(failed.map((r) => [r.internalCode, r._line, r._error_code, r._error_field])).toEqual([
      ['P-2', '3', 'UNKNOWN_BRAND', ''],
      ['P-3', '4', 'REQUIRED', 'name'],
      ['P-4', '5', 'INVALID_ROW', 'displayProducts'],
      ['P-5', '6', 'INVALID_ROW', ''],
      ['P-7', '8', 'UNKNOWN_CATEGORY', ''],
    ]);
    expect(failed[0]!._error_message).toContain('B-404');
    // The original row comes back whole (meta columns of the input are dropped and rewritten).
    expect(failed[1]).toMatchObject({ name: '', brandInternalCode: 'B-1', categoryInternalCode: 'C-1' });
    expect(Object.keys(failed[1]!)).toEqual(['internalCode', 'name', 'brandInternalCode', 'categoryInternalCode', 'enabled', 'images', 'displayProducts', '_line', '_error_code', '_error_field', '_error_message']);

    const p1 = await client.get('/product/{code}', { params: { path: { code: 'P-1' } } });
    expect(p1).toMatchObject({ enabled: true, images: ['https://img.example/a.png', 'https://img.example/b.png'], displayProducts: [{ units: 1, name: 'Unit', default: true }, { units: 24, name: 'Box' }] });
    expect((await client.get('/product/{code}', { params: { path: { code: 'P-6' } } })).enabled).toBe(false);

    // Fixed in place, the failed-rows file imports as it is: its _ columns are ignored.
    const fixed = fs.readFileSync(`${input}.failed.csv`, 'utf8').replace('P-3,,', 'P-3,Lemonade,').replace('B-404', 'B-1').replace('C-404', 'C-1');
    const again = await importJson('products', file('products-fixed.csv', fixed));
    expect(again.json()).toMatchObject({ rowsRead: 5, completed: 3, failed: 2 });
  });

  it('prices from JSON Lines: failed lines keep their fields, plus the reason', async () => {
    await client.post('/pricelist', { body: { internalCode: 'PL-1' } });
    const lines = [
      { priceListInternalCode: 'PL-1', productInternalCode: 'P-1', units: 1, price: 10.5 },
      { priceListInternalCode: 'PL-1', productInternalCode: 'P-404', units: 1, price: 2, note: 'unknown product' },
      { priceListInternalCode: 'PL-1', productInternalCode: 'P-1', units: 24, price: -3 },
      'not json',
      { priceListInternalCode: 'PL-1', productInternalCode: 'P-1', units: 24, price: 240 },
    ];
    const input = file('prices.jsonl', lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n\n');
    const run = await importJson('prices', input);
    expect(run.code).toBe(2);
    expect(run.json()).toMatchObject({ rowsRead: 5, sent: 3, completed: 2, failed: 3 });
    const failed = fs.readFileSync(`${input}.failed.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(failed.sort((a, b) => a._line - b._line)).toEqual([
      { ...(lines[1] as object), _line: 2, _error_code: 'UNKNOWN_PRODUCT', _error_field: null, _error_message: 'product P-404 does not exist' },
      { priceListInternalCode: 'PL-1', productInternalCode: 'P-1', units: 24, price: -3, _line: 3, _error_code: 'OUT_OF_RANGE', _error_field: 'price', _error_message: 'price: must be >= 0' },
      { _raw: 'not json', _line: 4, _error_code: 'INVALID_ROW', _error_field: null, _error_message: expect.stringContaining('not valid JSON') },
    ]);
    const list = await client.get('/pricelist/{code}', { params: { path: { code: 'PL-1' } } });
    expect(list.products.map((p) => [p.productInternalCode, p.units, p.price])).toEqual([
      ['P-1', 1, 10.5],
      ['P-1', 24, 240],
    ]);
  });

  it('traces failures to their lines across many batches', async () => {
    const rows = Array.from({ length: 1200 }, (_, i) => `PL-1,${i === 700 ? 'P-404' : 'P-1'},${i + 100},${i}.25`);
    const input = file('many-prices.csv', ['priceListInternalCode,productInternalCode,units,price', ...rows].join('\n'));
    const run = await importJson('prices', input, '--batch-size', '500', '--max-in-flight', '2');
    expect(run.json()).toMatchObject({ rowsRead: 1200, sent: 1200, completed: 1199, failed: 1 });
    expect(run.json().batchIds).toHaveLength(3);
    expect(csvRows(`${input}.failed.csv`)).toEqual([
      { priceListInternalCode: 'PL-1', productInternalCode: 'P-404', units: '800', price: '700.25', _line: '702', _error_code: 'UNKNOWN_PRODUCT', _error_field: '', _error_message: expect.any(String) },
    ]);
  });

  it('stores, stock and promotions: dotted columns, JSON cells, lists and the type column', async () => {
    await client.post('/grouper/promotion', { body: { internalCode: 'SEG-A', name: 'A' } });
    await client.post('/grouper/promotion', { body: { internalCode: 'SEG-B', name: 'B' } });
    await client.post('/grouper/stock', { body: { internalCode: 'W-1', name: 'Warehouse' } });
    const stores = file(
      'stores.csv',
      'internalCode,name,settings.dropSize,addresses,promotionGrouperCodes,stockGrouperCode\n' +
        'S-1,Tienda,150000,"[{""street"":""Cra 1"",""city"":""Bogota"",""default"":true}]",SEG-A|SEG-B,W-1\n' +
        'S-2,Otra,,,SEG-404,\n',
    );
    const storeRun = await importJson('stores', stores);
    expect(storeRun.json()).toMatchObject({ completed: 1, failed: 1 });
    expect(csvRows(`${stores}.failed.csv`)[0]).toMatchObject({ internalCode: 'S-2', _error_code: 'UNKNOWN_GROUPER' });
    expect(await client.get('/store/{code}', { params: { path: { code: 'S-1' } } })).toMatchObject({
      settings: { dropSize: 150000 },
      addresses: [{ street: 'Cra 1', city: 'Bogota' }],
      promotionGrouperCodes: ['SEG-A', 'SEG-B'],
      stockGrouperCode: 'W-1',
    });

    const stock = file('stock.csv', 'grouperCode,productInternalCode,available,units\nW-1,P-1,false,24\nW-404,P-1,true,\n');
    expect((await importJson('stock', stock)).json()).toMatchObject({ completed: 1, failed: 1 });

    const promotions = file(
      'promotions.csv',
      [
        'type,internalCode,name,enabled,start,end,products.internalCode,discountTiersData,bonusTierData.quantityRequired,bonusTierData.quantityGiven',
        'DISCOUNT_SIMPLE,PR-1,Ten off,true,2026-01-01,2026-12-31,P-1,"[{""min"":1,""discountPercentage"":10}]",,',
        'BONUS_INDIVIDUAL,PR-2,Buy 10 get 1,yes,2026-01-01,2026-12-31,P-1,,10,1',
        'DISCOUNT_WHATEVER,PR-3,Nope,true,2026-01-01,2026-12-31,P-1,,,',
        'DISCOUNT_SIMPLE,PR-4,Mixed,true,2026-01-01,2026-12-31,P-1,"[{""min"":1,""discountPercentage"":5}]",3,',
        'DISCOUNT_SIMPLE,PR-5,Backwards,true,2026-12-31,2026-01-01,P-1,"[{""min"":1,""discountPercentage"":5}]",,',
      ].join('\n'),
    );
    const promoRun = await importJson('promotions', promotions);
    expect(promoRun.json()).toMatchObject({ rowsRead: 5, completed: 2, failed: 3 });
    expect(csvRows(`${promotions}.failed.csv`).map((r) => [r.internalCode, r._error_code, r._error_field])).toEqual([
      ['PR-3', 'INVALID_ROW', 'type'],
      ['PR-4', 'INVALID_ROW', 'bonusTierData.quantityRequired'],
      ['PR-5', 'INVALID_DATE_RANGE', ''],
    ]);
    expect(await client.get('/promotion/{code}', { params: { path: { code: 'PR-2' } } })).toMatchObject({
      type: 'BONUS_INDIVIDUAL',
      products: [{ internalCode: 'P-1' }],
      bonusTierData: { quantityRequired: 10, quantityGiven: 1 },
    });

    const removal = file('remove.csv', 'internalCode\nPR-1\n');
    expect((await importJson('promotions', removal, '--remove')).json()).toMatchObject({ completed: 1, failed: 0 });
    await expect(client.get('/promotion/{code}', { params: { path: { code: 'PR-1' } } })).rejects.toMatchObject({ status: 404 });
  });

  it('refuses an unknown column, a missing setting or an unknown kind before sending anything', async () => {
    const typo = await importJson('brands', file('typo.csv', 'internalCode,nmae\nB-9,x\n'));
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('unknown column(s) for brands: nmae');
    const noKey = await cli(['import', 'brands', file('ok.csv', 'internalCode,name\nB-9,x\n')], { SURTIDO_API_KEY: '' });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain('--api-key or SURTIDO_API_KEY');
    expect((await cli(['import', 'widgets', 'x.csv'])).stderr).toContain('kind must be one of');
    await expect(client.get('/brand/{code}', { params: { path: { code: 'B-9' } } })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('stops with exit 1 when the credentials lack the scope, and says re-running is harmless', async () => {
    const limited = await service.credentials(['supplier/catalog.read']);
    const run = await cli(['import', 'brands', file('scoped.csv', 'internalCode,name\nB-8,x\n')], { SURTIDO_API_KEY: limited.apiKey, SURTIDO_CLIENT_ID: limited.clientId, SURTIDO_CLIENT_SECRET: limited.clientSecret });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('stopped early: INSUFFICIENT_SCOPE');
    expect(run.stdout).toContain('run the import again');
  });
});

describe('status and wait', () => {
  it('report batches by id; wait lists the failed items and exits 2', async () => {
    const input = file('status.csv', 'grouperCode,productInternalCode,available\nW-1,P-1,true\nW-1,P-404,true\n');
    const ids: string[] = (await importJson('stock', input)).json().batchIds;
    const status = await cli(['status', ...ids]);
    expect(status.code).toBe(2);
    expect(status.stdout).toMatch(new RegExp(`${ids[0]}  /batch/stock/grouper  processed  total 2  processed 2  completed 1  failed 1`));
    const waited = await cli(['wait', ...ids, '--poll-ms', '20']);
    expect(waited.code).toBe(2);
    expect(waited.stdout).toContain('W-1/P-404');
    expect(waited.stdout).toContain('UNKNOWN_PRODUCT');
    expect(waited.stderr).toMatch(/\[#+\] 100%/);
    expect((await cli(['status', 'not-a-uuid'])).code).toBe(1);
  });
});

describe('the surtido bin', () => {
  it('runs as a process, with progress lines on stderr when not on a terminal', async () => {
    const input = file('bin-brands.csv', 'internalCode,name\nB-10,Ten\nB-11,Eleven\n');
    const child = spawn(process.execPath, [path.resolve('src/integrator/bin.js'), 'import', 'brands', input, '--poll-ms', '20', '--progress-interval-ms', '0'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('-> POST /batch/brand (brands)');
    expect(stdout).toMatch(/completed\s+2/);
    expect(stderr).toContain('2/2 applied');
  });
});
