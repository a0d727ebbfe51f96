// POST /batch/pricelist sent again (the daily refresh): an entry whose price did not change
// is applied without being rewritten (no new row version, its updatedAt kept), a changed
// one is rewritten, every item still has its outcome, and a later price still wins.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { onPostgres } from '../helpers/database.ts';

let t: TestApp;
let s: TestSupplier;
const PRODUCTS = Array.from({ length: 20 }, (_, i) => `R-${String(i + 1).padStart(2, '0')}`);
beforeAll(async () => {
  // Chunks of 20 items: the refresh below spans chunks with changes, a chunk with none and
  // a chunk with a new entry, each its own statement.
  t = await createTestApp({ env: { BATCH_CHUNK_SIZE: '20' } });
  s = await t.supplier();
  expect((await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'All' })).statusCode).toBe(200);
  await t.runBatch(s, '/batch/brand', [{ internalCode: 'B', name: 'Brand' }]);
  const upsert = PRODUCTS.map((code) => ({ internalCode: code, name: code, brandInternalCode: 'B', categoryInternalCode: 'C' }));
  const { statuses } = await t.runBatch(s, '/batch/product', { upsert });
  expect(statuses).toMatchObject([{ status: 'processed', failed: 0 }]);
});
afterAll(() => t.close());

const entry = (l: string, p: string, units: number, price: number) => ({ priceListInternalCode: l, productInternalCode: p, units, price });
type Entry = ReturnType<typeof entry>;

let lists = 0;
async function newList() {
  const code = `RL-${++lists}`;
  expect((await as(t, s, 'POST', '/pricelist', { internalCode: code })).statusCode).toBe(200);
  return code;
}
async function run(body: unknown) {
  const [id, ...more] = await t.submitBatch(s, '/batch/pricelist', body);
  expect(more).toEqual([]);
  const [status] = await t.waitForBatches(s, [id!]);
  const detail = (await as(t, s, 'GET', `/batch/${id}/detail`)).json().detail;
  return { status, detail };
}
const prices = async (code: string) => (await as(t, s, 'GET', `/pricelist/${code}`)).json().products.map((e: any) => [e.productInternalCode, e.units, e.price]);
/** updatedAt per product/units, from the paged entries read (by cursor). */
async function stamps(code: string) {
  const out = new Map<string, string>();
  let after: string | null = '';
  while (after !== null) {
    const body: any = (await as(t, s, 'GET', `/pricelist/${code}/entries?take=50${after ? `&after=${after}` : ''}`)).json();
    for (const e of body.data) out.set(`${e.productInternalCode}/${e.units}`, e.updatedAt);
    after = body.next;
  }
  return out;
}
/** The row version of each entry of the list: xmin changes exactly when the row is rewritten. */
async function versions(code: string) {
  const { rows } = await sql<{ k: string; xmin: string }>`
    select p.internal_code || '/' || e.units as k, e.xmin::text as xmin
    from price_entries e join products p on p.id = e.product_id join price_lists l on l.id = e.price_list_id
    where e.supplier_id = ${s.id} and l.supplier_id = ${s.id} and l.internal_code = ${code}`.execute(t.deps.db);
  return new Map(rows.map((r) => [r.k, r.xmin]));
}
/** Rows of price_entries PostgreSQL has counted as updated in this test's database (HOT updates included). */
async function updatedRows() {
  const { rows } = await sql<{ n: string }>`select n_tup_upd::text as n from pg_stat_user_tables where relname = 'price_entries'`.execute(t.deps.db);
  return Number(rows[0]!.n);
}
const key = (e: Entry) => `${e.productInternalCode}/${e.units}`;
const sorted = (entries: Entry[]) =>
  entries.map((e) => [e.productInternalCode, e.units, e.price]).sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : (a[1] as number) - (b[1] as number)));

describe('refresh: entries sent again', () => {
  it('rewrites only the entries whose price changed, and every item completes', async () => {
    const a = await newList();
    const first: Entry[] = PRODUCTS.flatMap((p, i) => [1, 6, 12].map((u) => entry(a, p, u, 100 + i * 10 + u + 0.25)));
    expect(first).toHaveLength(60);
    const load = await run({ upsert: { products: first } });
    expect(load.status).toMatchObject({ status: 'processed', total: 60, completed: 60, failed: 0 });
    expect(await prices(a)).toEqual(sorted(first));
    const before = await versions(a);
    const stampsBefore = await stamps(a);
    expect(before.size).toBe(60);
    const updatesBefore = onPostgres() ? await updatedRows() : 0;

    // The same 60 entries, every fourth of the first 40 with a new price (10 changes; the
    // last 20 items are a chunk without any), the rest resent as they are, then a new
    // entry and one naming no product.
    const changed = new Set<string>();
    const refresh = first.map((e, i) => {
      if (i % 4 !== 0 || i >= 40) return { ...e };
      changed.add(key(e));
      return { ...e, price: e.price + 1.5 };
    });
    expect(changed.size).toBe(10);
    const added = entry(a, PRODUCTS[0]!, 24, 7.77);
    const unknown = entry(a, 'R-NOPE', 1, 1);
    const { status, detail } = await run({ upsert: { products: [...refresh, added, unknown] } });

    // Every item has its outcome, in order; an unchanged entry is applied like any other.
    expect(status).toMatchObject({ status: 'processed', total: 62, processed: 62, completed: 61, failed: 1 });
    expect(detail).toHaveLength(62);
    expect(detail.map((d: any) => [d.code, d.action, d.status, d.errorCode])).toEqual([
      ...[...refresh, added].map((e) => [`${a}/${e.productInternalCode}/${e.units}`, 'upsert.products', 'completed', null]),
      [`${a}/R-NOPE/1`, 'upsert.products', 'failed', 'UNKNOWN_PRODUCT'],
    ]);
    // Exactly the new prices.
    expect(await prices(a)).toEqual(sorted([...refresh, added]));

    // Only the changed rows got a new row version; the unchanged kept theirs and their updatedAt.
    const after = await versions(a);
    const stampsAfter = await stamps(a);
    expect(after.size).toBe(61);
    const rewritten = [...before.keys()].filter((k) => after.get(k) !== before.get(k)).sort();
    expect(rewritten).toEqual([...changed].sort());
    for (const [k, stamp] of stampsBefore) {
      if (changed.has(k)) expect(stampsAfter.get(k)! > stamp, k).toBe(true);
      else expect(stampsAfter.get(k), k).toBe(stamp);
    }

    if (onPostgres()) {
      // PostgreSQL's own count of updated rows (statistics arrive within about a second
      // of the writing transaction going idle).
      const deadline = Date.now() + 15_000;
      while ((await updatedRows()) - updatesBefore < changed.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect((await updatedRows()) - updatesBefore).toBe(changed.size);
    }
  });

  it('a later price still wins, also when it is the price already stored', async () => {
    const a = await newList();
    const p = PRODUCTS[1]!;
    await run({ upsert: { products: [entry(a, p, 1, 10), entry(a, p, 2, 20)] } });
    const before = await versions(a);
    // Within one request the last item per entry is the one written: 10 -> 11 -> 10 leaves 10, untouched.
    const same = await run({ upsert: { products: [entry(a, p, 1, 11), entry(a, p, 1, 10), entry(a, p, 2, 20)] } });
    expect(same.status).toMatchObject({ status: 'processed', total: 3, completed: 3, failed: 0 });
    expect(await prices(a)).toEqual([[p, 1, 10], [p, 2, 20]]);
    expect(await versions(a)).toEqual(before);
    // Across batches, acceptance order: a change, then the old price again.
    const one = await t.submitBatch(s, '/batch/pricelist', { upsert: { products: [entry(a, p, 1, 12.5)] } });
    const two = await t.submitBatch(s, '/batch/pricelist', { upsert: { products: [entry(a, p, 1, 10)] } });
    const three = await t.submitBatch(s, '/batch/pricelist', { upsert: { products: [entry(a, p, 2, 20), entry(a, p, 2, 21)] } });
    const statuses = await t.waitForBatches(s, [...one, ...two, ...three]);
    expect(statuses.map((x) => [x.status, x.failed])).toEqual([['processed', 0], ['processed', 0], ['processed', 0]]);
    expect(await prices(a)).toEqual([[p, 1, 10], [p, 2, 21]]);
  });
});
