// POST /batch/pricelist: prices and store links, item failures, ordering and validation.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { ISO } from '../helpers/fixtures.ts';

let t: TestApp;
let s: TestSupplier;
beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  expect((await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'All' })).statusCode).toBe(200);
  await t.runBatch(s, '/batch/brand', [{ internalCode: 'B', name: 'Brand' }]);
  const upsert = ['P-1', 'P-2', 'P-3'].map((code) => ({ internalCode: code, name: code, brandInternalCode: 'B', categoryInternalCode: 'C' }));
  await t.runBatch(s, '/batch/product', { upsert });
  // No store endpoint exists yet: one store row, written as POST /batch/store will write it.
  await t.deps.db.insertInto('stores').values({ supplier_id: s.id, internal_code: 'S-KNOWN', name: 'Known store' }).execute();
});
afterAll(() => t.close());

const entry = (l: string, p: string, units: number, price: number) => ({ priceListInternalCode: l, productInternalCode: p, units, price });
const link = (l: string, st: string) => ({ priceListInternalCode: l, storeInternalCode: st });

let lists = 0;
/** A new empty price list of its own for each test, so no test depends on another's writes. */
async function newList() {
  const code = `PL-${++lists}`;
  expect((await as(t, s, 'POST', '/pricelist', { internalCode: code })).statusCode).toBe(200);
  return code;
}
const submit = (body: unknown) => t.submitBatch(s, '/batch/pricelist', body);
async function run(body: unknown) {
  const [id] = await submit(body);
  const [status] = await t.waitForBatches(s, [id!]);
  const detail = (await as(t, s, 'GET', `/batch/${id}/detail`)).json().detail;
  return { id: id!, status, detail };
}
const list = async (code: string) => (await as(t, s, 'GET', `/pricelist/${code}`)).json();
const prices = async (code: string) => (await list(code)).products.map((e: any) => [e.productInternalCode, e.units, e.price]);
const stores = async (code: string) => (await list(code)).stores.map((x: any) => x.storeInternalCode);
async function refused(body: unknown) {
  const res = await as(t, s, 'POST', '/batch/pricelist', body);
  expect(res.statusCode, res.body).toBe(402);
  return res.json();
}

describe('upsert.products', () => {
  it('sets exact decimal prices per product and package size', async () => {
    const a = await newList();
    const { status, detail } = await run({
      upsert: { products: [entry(a, 'P-2', 24, 1234.5678), entry(a, 'P-1', 12, 10.5), entry(a, 'P-1', 1, 0), entry(a, 'P-3', 1, 0.0001)], stores: [] },
    });
    expect(status).toMatchObject({ endpoint: '/batch/pricelist', status: 'processed', total: 4, processed: 4, completed: 4, failed: 0 });
    expect(detail[0]).toEqual({
      code: `${a}/P-2/24`,
      endpoint: '/batch/pricelist',
      action: 'upsert.products',
      batchItem: `{"priceListInternalCode":"${a}","productInternalCode":"P-2","units":24,"price":1234.5678}`,
      status: 'completed',
      errorCode: null,
      message: null,
      finishedAt: expect.stringMatching(ISO),
    });
    const pl = await list(a);
    expect(pl.products).toEqual([entry(a, 'P-1', 1, 0), entry(a, 'P-1', 12, 10.5), entry(a, 'P-2', 24, 1234.5678), entry(a, 'P-3', 1, 0.0001)]);
    expect(pl.stores).toEqual([]);
  });

  it('accepts the largest price and refuses a larger one', async () => {
    const a = await newList();
    // 15 significant digits: the most a JSON number keeps exactly on its way through a double.
    await run({ upsert: { products: [entry(a, 'P-3', 1, 99999999999), entry(a, 'P-3', 2, 99999999999.9999)] } });
    expect(await prices(a)).toEqual([['P-3', 1, 99999999999], ['P-3', 2, 99999999999.9999]]);
    expect((await refused({ upsert: { products: [entry(a, 'P-1', 1, 100000000000)] } })).errors).toMatchObject([{ pointer: '/upsert/products/0/price', code: 'OUT_OF_RANGE' }]);
  });

  it('a later price for the same product and units wins, in one request and across batches', async () => {
    const a = await newList();
    await run({ upsert: { products: [entry(a, 'P-1', 6, 1), entry(a, 'P-1', 6, 2), entry(a, 'P-1', 3, 9)] } });
    expect(await prices(a)).toEqual([['P-1', 3, 9], ['P-1', 6, 2]]);
    // Accepted back to back, applied in acceptance order.
    const first = await submit({ upsert: { products: [entry(a, 'P-1', 6, 100.25)] } });
    const second = await submit({ upsert: { products: [entry(a, 'P-1', 6, 12345678901.2345)] } });
    const third = await submit({ upsert: { products: [entry(a, 'P-1', 3, 7.7)] } });
    await t.waitForBatches(s, [...first, ...second, ...third]);
    expect(await prices(a)).toEqual([['P-1', 3, 7.7], ['P-1', 6, 12345678901.2345]]);
  });

  it('new and existing entries in any mix: the plain insert tried first gives way to the upsert, nothing lost or doubled', async () => {
    // The worker tries a plain INSERT first while a supplier's entries have been new, and
    // falls back to the upsert when one exists (repository, writeStagedEntries). Every
    // step here is checked against the result the upsert alone would give.
    const a = await newList();
    const step = async (products: ReturnType<typeof entry>[]) => {
      const { status } = await run({ upsert: { products } });
      expect(status).toMatchObject({ status: 'processed', failed: 0, completed: products.length });
    };
    await step([entry(a, 'P-1', 1, 1), entry(a, 'P-1', 2, 2), entry(a, 'P-1', 3, 3)]); // all new
    await step([entry(a, 'P-1', 1, 10), entry(a, 'P-2', 1, 5), entry(a, 'P-1', 3, 30)]); // an existing one first
    await step([entry(a, 'P-2', 2, 6), entry(a, 'P-2', 3, 7)]); // all new again, after a fallback
    await step([entry(a, 'P-3', 1, 8), entry(a, 'P-3', 2, 9), entry(a, 'P-1', 2, 20)]); // new rows written before the existing one must be undone and written once
    await step([entry(a, 'P-3', 3, 11)]);
    expect(await prices(a)).toEqual([
      ['P-1', 1, 10], ['P-1', 2, 20], ['P-1', 3, 30],
      ['P-2', 1, 5], ['P-2', 2, 6], ['P-2', 3, 7],
      ['P-3', 1, 8], ['P-3', 2, 9], ['P-3', 3, 11],
    ]);
  });

  it('fails unknown lists and products per item, applying the others', async () => {
    const a = await newList();
    const { status, detail } = await run({
      upsert: { products: [entry('PL-NOPE', 'P-1', 1, 1), entry(a, 'P-NOPE', 1, 1), entry(a, 'P-2', 1, 5.25)] },
    });
    expect(status).toMatchObject({ status: 'processed', total: 3, completed: 1, failed: 2 });
    expect(detail.map((d: any) => [d.code, d.action, d.status, d.errorCode, d.message])).toEqual([
      ['PL-NOPE/P-1/1', 'upsert.products', 'failed', 'UNKNOWN_PRICE_LIST', 'price list PL-NOPE does not exist'],
      [`${a}/P-NOPE/1`, 'upsert.products', 'failed', 'UNKNOWN_PRODUCT', 'product P-NOPE does not exist'],
      [`${a}/P-2/1`, 'upsert.products', 'completed', null, null],
    ]);
    expect(await prices(a)).toEqual([['P-2', 1, 5.25]]);
  });
});

describe('remove.products', () => {
  it('removes one package size with units, and every size without', async () => {
    const a = await newList();
    const b = await newList();
    await run({ upsert: { products: [entry(a, 'P-1', 1, 1), entry(a, 'P-1', 6, 6), entry(a, 'P-1', 12, 12), entry(a, 'P-2', 1, 2), entry(b, 'P-1', 6, 60)] } });
    const one = await run({ remove: { products: [{ priceListInternalCode: a, productInternalCode: 'P-1', units: 6 }] } });
    expect(one.detail).toMatchObject([{ code: `${a}/P-1/6`, action: 'remove.products', status: 'completed' }]);
    expect(await prices(a)).toEqual([['P-1', 1, 1], ['P-1', 12, 12], ['P-2', 1, 2]]);

    const all = await run({ remove: { products: [{ priceListInternalCode: a, productInternalCode: 'P-1', price: 3 }] } });
    expect(all.detail).toMatchObject([{ code: `${a}/P-1`, action: 'remove.products', status: 'completed', errorCode: null }]);
    expect(await prices(a)).toEqual([['P-2', 1, 2]]);
    expect(await prices(b)).toEqual([['P-1', 6, 60]]);

    // Removing what is not there succeeds: re-sending is harmless.
    const again = await run({ remove: { products: [{ priceListInternalCode: a, productInternalCode: 'P-1' }] } });
    expect(again.status).toMatchObject({ status: 'processed', completed: 1, failed: 0 });
  });

  it('fails unknown lists and products per item', async () => {
    const a = await newList();
    await run({ upsert: { products: [entry(a, 'P-2', 1, 2)] } });
    const { detail } = await run({
      remove: { products: [{ priceListInternalCode: 'PL-NOPE', productInternalCode: 'P-2' }, { priceListInternalCode: a, productInternalCode: 'P-NOPE', units: 1 }] },
    });
    expect(detail.map((d: any) => [d.code, d.status, d.errorCode])).toEqual([
      ['PL-NOPE/P-2', 'failed', 'UNKNOWN_PRICE_LIST'],
      [`${a}/P-NOPE/1`, 'failed', 'UNKNOWN_PRODUCT'],
    ]);
    expect(await prices(a)).toEqual([['P-2', 1, 2]]);
  });
});

describe('store links', () => {
  it('assigns stores; a store not known yet completes with a message', async () => {
    const a = await newList();
    const { status, detail } = await run({ upsert: { products: [], stores: [link(a, 'S-KNOWN'), link(a, 'S-FUTURE'), link(a, 's-lower')] } });
    expect(status).toMatchObject({ status: 'processed', completed: 3, failed: 0 });
    expect(detail.map((d: any) => [d.code, d.action, d.status, d.errorCode, d.message])).toEqual([
      [`${a}/S-KNOWN`, 'upsert.stores', 'completed', null, null],
      [`${a}/S-FUTURE`, 'upsert.stores', 'completed', null, 'store S-FUTURE is not known yet; the link takes effect when it is created'],
      [`${a}/s-lower`, 'upsert.stores', 'completed', null, 'store s-lower is not known yet; the link takes effect when it is created'],
    ]);
    // By code, byte order (upper case first) whatever the database's locale.
    expect(await list(a)).toMatchObject({ stores: [link(a, 'S-FUTURE'), link(a, 'S-KNOWN'), link(a, 's-lower')] });
  });

  it('moves a store to the list it is assigned to last: a store has one price list', async () => {
    const [a, b] = [await newList(), await newList()];
    await run({ upsert: { stores: [link(a, 'S-MOVE')] } });
    await run({ upsert: { stores: [link(b, 'S-MOVE')] } });
    expect(await stores(a)).toEqual([]);
    expect(await stores(b)).toEqual(['S-MOVE']);
    await run({ upsert: { stores: [link(a, 'S-TWICE'), link(b, 'S-TWICE')] } });
    expect(await stores(a)).toEqual([]);
    expect(await stores(b)).toEqual(['S-MOVE', 'S-TWICE']);
  });

  it('unassigns stores; removing from a list the store is not on changes nothing', async () => {
    const [a, b] = [await newList(), await newList()];
    await run({ upsert: { stores: [link(a, 'S-OUT'), link(b, 'S-STAY')] } });
    const { detail } = await run({ remove: { stores: [link(a, 'S-OUT'), link(a, 'S-STAY'), link('PL-NOPE', 'S-STAY')] } });
    expect(detail.map((d: any) => [d.code, d.action, d.status, d.errorCode])).toEqual([
      [`${a}/S-OUT`, 'remove.stores', 'completed', null],
      [`${a}/S-STAY`, 'remove.stores', 'completed', null],
      ['PL-NOPE/S-STAY', 'remove.stores', 'failed', 'UNKNOWN_PRICE_LIST'],
    ]);
    expect(await stores(a)).toEqual([]);
    expect(await stores(b)).toEqual(['S-STAY']);
  });

  it('fails an assignment to an unknown list', async () => {
    const { detail } = await run({ upsert: { stores: [link('PL-NOPE', 'S-X')] } });
    expect(detail).toMatchObject([{ code: 'PL-NOPE/S-X', status: 'failed', errorCode: 'UNKNOWN_PRICE_LIST', message: 'price list PL-NOPE does not exist' }]);
  });
});

describe('one request with all four nodes', () => {
  it('applies every remove before every upsert', async () => {
    const a = await newList();
    await run({ upsert: { products: [entry(a, 'P-2', 1, 2), entry(a, 'P-3', 1, 1), entry(a, 'P-3', 2, 2)], stores: [link(a, 'S-BOTH')] } });
    const { status, detail } = await run({
      upsert: { products: [entry(a, 'P-3', 1, 3.5)], stores: [link(a, 'S-BOTH')] },
      remove: { products: [{ priceListInternalCode: a, productInternalCode: 'P-3' }], stores: [link(a, 'S-BOTH')] },
    });
    expect(status).toMatchObject({ total: 4, completed: 4, failed: 0 });
    expect(detail.map((d: any) => d.action)).toEqual(['remove.products', 'remove.stores', 'upsert.products', 'upsert.stores']);
    expect(await prices(a)).toEqual([['P-2', 1, 2], ['P-3', 1, 3.5]]);
    expect(await stores(a)).toEqual(['S-BOTH']);
  });
});

describe('structural validation (402, nothing queued)', () => {
  it('refuses prices with more than 4 decimals, negative prices and bad units, with pointers', async () => {
    const a = await newList();
    const problem = await refused({
      upsert: {
        products: [
          entry(a, 'P-1', 1, 1.23456),
          entry(a, 'P-1', 2, -1),
          entry(a, 'P-1', 0, 1),
          entry(a, 'P-1', 1.5, 1),
          { priceListInternalCode: a, productInternalCode: 'P-1', price: '10' },
          entry(a, 'P-2', 1, 5),
        ],
        stores: [{ priceListInternalCode: a }, link(a, 'S-V')],
      },
      remove: { products: [{ priceListInternalCode: a, productInternalCode: 'P-1', units: 0 }] },
    });
    expect(problem).toMatchObject({ status: 402, code: 'BATCH_VALIDATION_FAILED' });
    expect(problem.errors.map((e: any) => [e.pointer, e.code]).sort()).toEqual([
      ['/remove/products/0/units', 'OUT_OF_RANGE'],
      ['/upsert/products/0/price', 'INVALID_PRECISION'],
      ['/upsert/products/1/price', 'OUT_OF_RANGE'],
      ['/upsert/products/2/units', 'OUT_OF_RANGE'],
      ['/upsert/products/3/units', 'INVALID_TYPE'],
      ['/upsert/products/4/price', 'INVALID_TYPE'],
      ['/upsert/products/4/units', 'REQUIRED'],
      ['/upsert/stores/0/storeInternalCode', 'REQUIRED'],
    ]);
    // Nothing was queued: a later batch has run (a supplier's batches run in order), the list is still empty.
    await run({ upsert: { stores: [link(a, 'S-AFTER')] } });
    expect(await list(a)).toMatchObject({ products: [], stores: [link(a, 'S-AFTER')] });
  });

  it('names the single problem at the top level', async () => {
    const problem = await refused({ upsert: { products: [entry('PL-ANY', 'P-1', 1, 10.12345)] } });
    expect(problem).toMatchObject({
      code: 'INVALID_PRECISION',
      // The shared validator's message reads "at most undefined decimals" today (reported), hence no exact wording.
      errors: [{ pointer: '/upsert/products/0/price', code: 'INVALID_PRECISION', message: expect.stringContaining('decimals') }],
    });
  });

  it('refuses a request without items', async () => {
    for (const body of [{}, { upsert: {} }, { upsert: { products: [], stores: [] }, remove: { products: [], stores: [] } }]) {
      expect(await refused(body)).toMatchObject({ status: 402, errors: [{ pointer: '', code: 'EMPTY_BATCH' }] });
    }
    expect((await refused({ upsert: { products: 'x' } })).errors).toMatchObject([{ pointer: '/upsert/products', code: 'INVALID_TYPE' }]);
  });
});

describe('staging (batch README, "Staging")', () => {
  const count = async (query: ReturnType<typeof sql<{ n: number }>>) => (await query.execute(t.deps.db)).rows[0]!.n;
  const batches = () => count(sql<{ n: number }>`select count(*)::int as n from batches where supplier_id = ${s.id}`);
  const staged = () => count(sql<{ n: number }>`select count(*)::int as n from batch_price_chunks`);

  it('stores the items once, as their chunk arrays in the order sent, each code once per chunk, and nothing in the batch row', async () => {
    const a = await newList();
    const before = await staged();
    const { id, detail } = await run({ remove: { products: [{ priceListInternalCode: a, productInternalCode: 'P-1' }] }, upsert: { products: [entry(a, 'P-1', 6, 7.25), entry(a, 'P-9', 1, 1)], stores: [link(a, 'S-NEW')] } });
    expect(await staged()).toBe(before + 1);
    const row = await sql<{ items: unknown; seq: number }>`select items, seq from batches where id = ${id}`.execute(t.deps.db);
    expect(row.rows[0]!.items).toBeNull();
    const chunks = await sql<{ chunk: number; lists: string[]; list_ix: number[]; codes: string[]; code_ix: number[]; units: (number | null)[]; prices: (string | null)[] }>`
      select chunk, lists, list_ix, codes, code_ix, units, prices from batch_price_chunks where batch_seq = ${row.rows[0]!.seq} order by chunk`.execute(t.deps.db);
    expect(chunks.rows.map((c) => ({ ...c, prices: c.prices.map((p) => (p === null ? null : Number(p))) }))).toEqual([
      { chunk: 0, lists: [a], list_ix: [1, 1, 1, 1], codes: ['P-1', 'P-9', 'S-NEW'], code_ix: [1, 1, 2, 3], units: [null, 6, 1, null], prices: [null, 7.25, 1, null] },
    ]);
    expect(detail.map((d: any) => [d.action, d.status, d.errorCode])).toEqual([
      ['remove.products', 'completed', null],
      ['upsert.products', 'completed', null],
      ['upsert.products', 'failed', 'UNKNOWN_PRODUCT'],
      ['upsert.stores', 'completed', null],
    ]);
    expect(await prices(a)).toEqual([['P-1', 6, 7.25]]);
  });

  it('keeps codes exactly as sent whatever they hold: quotes, backslashes, braces, commas, spaces, NULL', async () => {
    const a = await newList();
    const codes = ['Q"uote', 'back\\slash', '{brace}', 'com,ma', 'in side', 'NULL', 'ñandú 🍋'];
    const { detail } = await run({ upsert: { products: codes.map((c, i) => entry(a, c, i + 1, i + 0.5)), stores: codes.map((c) => link(a, c)) } });
    expect(detail.map((d: any) => JSON.parse(d.batchItem))).toEqual([
      ...codes.map((c, i) => entry(a, c, i + 1, i + 0.5)),
      ...codes.map((c) => link(a, c)),
    ]);
    expect(detail.map((d: any) => d.errorCode)).toEqual([...codes.map(() => 'UNKNOWN_PRODUCT'), ...codes.map(() => null)]);
    expect(detail.slice(0, codes.length).map((d: any) => d.message)).toEqual(codes.map((c) => `product ${c} does not exist`));
  });

  it('leaves no row behind when the accepting transaction fails after the COPY: neither batch nor staged item', async () => {
    // A fault injected after the rows are staged (a trigger refusing one of them), as a crash
    // before the commit would be: the whole request goes, nothing is half accepted.
    await sql`create function refuse_boom() returns trigger language plpgsql as $$
              begin if 'BOOM' = any(new.codes) then raise exception 'injected fault'; end if; return new; end $$`.execute(t.deps.db);
    await sql`create trigger refuse_boom after insert on batch_price_chunks for each row execute function refuse_boom()`.execute(t.deps.db);
    try {
      const a = await newList();
      const [batchesBefore, stagedBefore] = [await batches(), await staged()];
      const products = Array.from({ length: 12_000 }, (_, i) => entry(a, i === 11_999 ? 'BOOM' : 'P-1', (i % 50) + 1, 1));
      const res = await as(t, s, 'POST', '/batch/pricelist', { upsert: { products } });
      expect(res.statusCode).toBe(500);
      expect([await batches(), await staged()]).toEqual([batchesBefore, stagedBefore]);
    } finally {
      await sql`drop trigger refuse_boom on batch_price_chunks`.execute(t.deps.db);
      await sql`drop function refuse_boom()`.execute(t.deps.db);
    }
  });
});
