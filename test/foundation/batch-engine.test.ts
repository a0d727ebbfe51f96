import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchWorker } from '../../src/modules/batch/batch.worker.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { StatementCounter } from '../helpers/database.ts';

let t: TestApp;
let s: TestSupplier;
const quiet = { info() {}, warn() {}, error: (o: object, m: string) => console.error(m, o) };

function worker(t: TestApp, options: Partial<ConstructorParameters<typeof BatchWorker>[2]> = {}, db = t.deps.db) {
  return new BatchWorker(db, t.deps.batches, { concurrency: 1, pollMs: 10, leaseSeconds: 30, logger: quiet, ...options });
}

async function seedCatalog(t: TestApp, s: TestSupplier, products: number) {
  await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'C' });
  const brand = await as(t, s, 'POST', '/batch/brand', [{ internalCode: 'B', name: 'B' }]);
  const items = Array.from({ length: products }, (_, i) => ({ internalCode: `P${i}`, name: `P${i}`, brandInternalCode: 'B', categoryInternalCode: 'C' }));
  const product = await as(t, s, 'POST', '/batch/product', { upsert: items });
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  return [...brand.json().batchId, ...product.json().batchId];
}

const entry = (p: number, units: number, price: number) => ({ priceListInternalCode: 'PL', productInternalCode: `P${p}`, units, price });

/**
 * Runs two workers while a (50 items) is held after its first chunk of 25: b, whose keys
 * are disjoint from a's, must finish meanwhile; c, whose keys meet both, must not start
 * until a is done. Then lets a go and waits for all three. The checks wait for a to reach
 * its hold as well as for b to finish: on a slow machine b can finish before a's first
 * chunk commits. Whatever fails, a is let go and the workers stop, so no worker of this
 * test outlives it and takes the next test's batches.
 */
async function heldBesideDisjoint(a: string, b: string, c: string) {
  let release!: () => void;
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const holding = new Promise<void>((resolve) => (reached = resolve));
  const w = worker(t, {
    concurrency: 2,
    onChunk: (id, cursor) => {
      if (id !== a || cursor !== 25) return undefined;
      reached();
      return held;
    },
  });
  w.start();
  try {
    const [[doneB]] = await Promise.all([t.waitForBatches(s, [b]), holding]);
    expect(doneB).toMatchObject({ status: 'processed', completed: 50 });
    expect((await as(t, s, 'GET', `/batch/${a}/status`)).json()).toMatchObject({ status: 'processing', processed: 25 });
    expect((await as(t, s, 'GET', `/batch/${c}/status`)).json()).toMatchObject({ status: 'processing', processed: 0, startedAt: null });
    release();
    await t.waitForBatches(s, [a, c]);
  } finally {
    release();
    await w.stop();
  }
}

beforeAll(async () => {
  // Small batches and chunks make splitting and progress observable with few items.
  t = await createTestApp({ worker: false, env: { BATCH_SIZE: '100', BATCH_CHUNK_SIZE: '25', MAX_BATCH_REQUEST_ITEMS: '1000' } });
  s = await t.supplier();
  const w = worker(t);
  w.start();
  await t.waitForBatches(s, await seedCatalog(t, s, 300));
  await w.stop();
});
afterAll(() => t.close());

describe('accepting a batch', () => {
  it('splits a request into batches of BATCH_SIZE in submission order, stored before the 202', async () => {
    const products = Array.from({ length: 250 }, (_, i) => entry(i, 1, i));
    const res = await as(t, s, 'POST', '/batch/pricelist', { upsert: { products } });
    expect(res.statusCode).toBe(202);
    const ids: string[] = res.json().batchId;
    expect(ids).toHaveLength(3);
    const statuses = await Promise.all(ids.map((id) => as(t, s, 'GET', `/batch/${id}/status`)));
    expect(statuses.map((r) => r.json().total)).toEqual([100, 100, 50]);
    for (const r of statuses) {
      expect(r.json()).toMatchObject({ endpoint: '/batch/pricelist', status: 'processing', processed: 0, completed: 0, failed: 0, startedAt: null, finishedAt: null });
    }
    // Nothing has run yet: every item reads as processing, in submission order.
    const detail = (await as(t, s, 'GET', `/batch/${ids[2]}/detail`)).json();
    expect(detail.detail).toHaveLength(50);
    expect(detail.detail[0]).toEqual({
      code: 'PL/P200/1',
      endpoint: '/batch/pricelist',
      action: 'upsert.products',
      batchItem: JSON.stringify(entry(200, 1, 200)),
      status: 'processing',
      errorCode: null,
      message: null,
      finishedAt: null,
    });
    const w = worker(t);
    w.start();
    const done = await t.waitForBatches(s, ids);
    await w.stop();
    expect(done.map((d) => d.status)).toEqual(['processed', 'processed', 'processed']);
  });

  it('refuses more than MAX_BATCH_REQUEST_ITEMS items, or none, with 402', async () => {
    const products = Array.from({ length: 1001 }, (_, i) => entry(i % 300, 1 + Math.floor(i / 300), 1));
    const res = await as(t, s, 'POST', '/batch/pricelist', { upsert: { products } });
    expect(res.statusCode).toBe(402);
    expect(res.json().code).toBe('TOO_MANY_ITEMS');
    const empty = await as(t, s, 'POST', '/batch/pricelist', { upsert: { products: [], stores: [] } });
    expect(empty.statusCode).toBe(402);
    expect(empty.json().errors[0].code).toBe('EMPTY_BATCH');
  });
});

describe('applying batches', () => {
  it('moves the counts while it runs, chunk by chunk', async () => {
    const products = Array.from({ length: 100 }, (_, i) => entry(i, 2, 5));
    products[30] = { ...products[30]!, productInternalCode: 'MISSING' };
    const [id] = (await as(t, s, 'POST', '/batch/pricelist', { upsert: { products } })).json().batchId;
    const seen: number[] = [];
    const w = worker(t, { onChunk: async () => void seen.push((await as(t, s, 'GET', `/batch/${id}/status`)).json().processed) });
    w.start();
    const [status] = await t.waitForBatches(s, [id]);
    await w.stop();
    expect(seen).toEqual([25, 50, 75, 100]);
    expect(status).toMatchObject({ status: 'processed', total: 100, processed: 100, completed: 99, failed: 1 });
    expect(new Date(status.finishedAt).getTime()).toBeGreaterThanOrEqual(new Date(status.startedAt).getTime());
    const failed = (await as(t, s, 'GET', `/batch/${id}/detail?status=failed`)).json();
    expect(failed.detail).toEqual([
      expect.objectContaining({ code: 'PL/MISSING/2', status: 'failed', errorCode: 'UNKNOWN_PRODUCT', message: 'product MISSING does not exist' }),
    ]);
    const page2 = (await as(t, s, 'GET', `/batch/${id}/detail?take=10&page=2`)).json();
    expect(page2).toMatchObject({ page: 2, take: 10, total: 100, totalPages: 10 });
    expect(page2.detail.map((d: { code: string }) => d.code)).toEqual(products.slice(10, 20).map((p) => `PL/${p.productInternalCode}/2`));
    expect(page2.detail.every((d: { finishedAt: string }) => typeof d.finishedAt === 'string')).toBe(true);
  });

  it('marks a batch failed when every item failed', async () => {
    const [id] = (await as(t, s, 'POST', '/batch/pricelist', { upsert: { products: [entry(1, 1, 1), entry(2, 1, 1)].map((e) => ({ ...e, priceListInternalCode: 'NOPE' })) } })).json().batchId;
    const w = worker(t);
    w.start();
    const [status] = await t.waitForBatches(s, [id]);
    await w.stop();
    expect(status).toMatchObject({ status: 'failed', total: 2, failed: 2, completed: 0 });
  });

  it("applies one supplier's batches in acceptance order, even with several workers", async () => {
    const ids: string[] = [];
    for (let round = 1; round <= 8; round++) {
      const products = Array.from({ length: 120 }, (_, i) => entry(i, 3, round));
      ids.push(...(await as(t, s, 'POST', '/batch/pricelist', { upsert: { products } })).json().batchId);
    }
    const workers = [worker(t, { concurrency: 2 }), worker(t, { concurrency: 2 })];
    workers.forEach((w) => w.start());
    await t.waitForBatches(s, ids);
    await Promise.all(workers.map((w) => w.stop()));
    const prices = (await as(t, s, 'GET', '/pricelist/PL')).json().products.filter((p: { units: number }) => p.units === 3);
    expect(prices).toHaveLength(120);
    expect(new Set(prices.map((p: { price: number }) => p.price))).toEqual(new Set([8]));
    const rows = await t.deps.db.selectFrom('batches').select(['id', 'started_at', 'finished_at']).where('id', 'in', ids).orderBy('seq').execute();
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.started_at!.getTime()).toBeGreaterThanOrEqual(rows[i - 1]!.finished_at!.getTime());
  });

  it('applies batches of one endpoint with disjoint keys side by side, and waits where keys meet', async () => {
    const run = (from: number, to: number, price: number) => Array.from({ length: to - from }, (_, i) => entry(from + i, 6, price));
    const submit = async (products: unknown[]) => (await as(t, s, 'POST', '/batch/pricelist', { upsert: { products } })).json().batchId[0] as string;
    const a = await submit(run(100, 150, 1)); // keys P100 .. P149
    const b = await submit(run(150, 200, 2)); // keys P150 .. P199: disjoint from a's
    const c = await submit([entry(120, 6, 3), entry(160, 6, 3)]); // meets both
    await heldBesideDisjoint(a, b, c);
    const rows = await t.deps.db.selectFrom('batches').select(['id', 'started_at', 'finished_at', 'key_min', 'key_max']).where('id', 'in', [a, b, c]).execute();
    const row = (id: string) => rows.find((r) => r.id === id)!;
    expect([row(a).key_min, row(a).key_max]).toEqual(['entry\u001fPL\u001fP100', 'entry\u001fPL\u001fP149']);
    expect(row(b).finished_at!.getTime()).toBeLessThan(row(a).finished_at!.getTime());
    expect(row(c).started_at!.getTime()).toBeGreaterThanOrEqual(row(a).finished_at!.getTime());
    const price = new Map<string, number>(
      (await as(t, s, 'GET', '/pricelist/PL')).json().products.filter((p: { units: number }) => p.units === 6).map((p: { productInternalCode: string; price: number }) => [p.productInternalCode, p.price]),
    );
    expect([price.get('P130'), price.get('P170'), price.get('P120'), price.get('P160')]).toEqual([1, 2, 3, 3]);
  });

  for (const endpoint of ['/batch/product', '/batch/store'] as const) {
    it(`applies ${endpoint} batches of disjoint codes side by side; one naming a code of both waits, and its fields win`, async () => {
      const prefix = endpoint === '/batch/product' ? 'SBS-P' : 'SBS-S';
      const code = (i: number) => `${prefix}${String(i).padStart(3, '0')}`;
      const item = (i: number, name: string) =>
        endpoint === '/batch/product'
          ? { internalCode: code(i), name, brandInternalCode: 'B', categoryInternalCode: 'C', ...(name === 'first' ? { description: 'kept' } : {}) }
          : { internalCode: code(i), name, ...(name === 'first' ? { ownerName: 'kept' } : {}) };
      const submit = async (items: unknown[]) => (await as(t, s, 'POST', endpoint, { upsert: items })).json().batchId[0] as string;
      const a = await submit(Array.from({ length: 50 }, (_, i) => item(i, 'first'))); // codes 000 .. 049
      const b = await submit(Array.from({ length: 50 }, (_, i) => item(50 + i, 'first'))); // 050 .. 099: disjoint from a's
      const c = await submit([item(20, 'last'), item(70, 'last')]); // meets both
      await heldBesideDisjoint(a, b, c);
      const read = async (i: number) => (await as(t, s, 'GET', `/${endpoint === '/batch/product' ? 'product' : 'store'}/${code(i)}`)).json();
      for (const i of [20, 70]) {
        // c's name, and what a or b sent and c left out is kept (the merge read the row a or b wrote).
        expect(await read(i)).toMatchObject({ name: 'last', ...(endpoint === '/batch/product' ? { description: 'kept' } : { ownerName: 'kept' }) });
      }
      expect((await read(30)).name).toBe('first');
    });
  }

  it('applies removes before upserts within one request', async () => {
    const body = { upsert: { products: [entry(7, 9, 70)] }, remove: { products: [{ priceListInternalCode: 'PL', productInternalCode: 'P7' }] } };
    const w = worker(t);
    w.start();
    await t.waitForBatches(s, (await as(t, s, 'POST', '/batch/pricelist', body)).json().batchId);
    await w.stop();
    const p7 = (await as(t, s, 'GET', '/pricelist/PL')).json().products.filter((p: { productInternalCode: string }) => p.productInternalCode === 'P7');
    expect(p7).toEqual([{ priceListInternalCode: 'PL', productInternalCode: 'P7', units: 9, price: 70 }]);
  });

  it('uses a bounded number of statements per chunk, never one per item', async () => {
    const counter = new StatementCounter();
    const products = Array.from({ length: 100 }, (_, i) => entry(i, 4, 1.25));
    const [id] = (await as(t, s, 'POST', '/batch/pricelist', { upsert: { products } })).json().batchId;
    // A long poll interval: the worker claims once, works, finds nothing more and sleeps.
    const w = worker(t, { pollMs: 60_000 }, t.deps.db.withPlugin(counter));
    w.start();
    await t.waitForBatches(s, [id]);
    await w.stop();
    // 4 chunks of 25 items; each chunk: lock, the write that resolves the codes itself (a
    // plain insert in a savepoint, and when an entry exists a rollback to it and the upsert:
    // 2 to 4 statements), 1 outcome insert at most, 1 advance; plus two claims and the load.
    expect(counter.count).toBeGreaterThanOrEqual(4 * 3);
    expect(counter.count).toBeLessThanOrEqual(4 * 7 + 3);
  });

  it('gives a batch another worker can finish when its worker stops mid-way', async () => {
    const products = Array.from({ length: 100 }, (_, i) => entry(i, 5, 2));
    const [id] = (await as(t, s, 'POST', '/batch/pricelist', { upsert: { products } })).json().batchId;
    let first: BatchWorker;
    const stopped = new Promise<void>((resolve) => {
      first = worker(t, { onChunk: (_id, cursor) => void (cursor === 50 && first.stop().then(resolve)) });
    });
    first!.start();
    try {
      await stopped;
    } finally {
      await first!.stop();
    }
    const mid = (await as(t, s, 'GET', `/batch/${id}/status`)).json();
    expect(mid).toMatchObject({ status: 'processing', processed: 50 });
    const lease = await t.deps.db.selectFrom('batches').select(['lease_owner']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(lease.lease_owner).toBeNull();
    const second = worker(t);
    second.start();
    const [done] = await t.waitForBatches(s, [id]);
    await second.stop();
    expect(done).toMatchObject({ status: 'processed', processed: 100, completed: 100 });
  });
});

describe('tenancy of batches', () => {
  it("answers 404 for another supplier's batch status and detail", async () => {
    const other = await t.supplier();
    const [id] = (await as(t, s, 'POST', '/batch/pricelist', { upsert: { products: [entry(1, 1, 1)] } })).json().batchId;
    expect((await as(t, other, 'GET', `/batch/${id}/status`)).statusCode).toBe(404);
    expect((await as(t, other, 'GET', `/batch/${id}/detail`)).statusCode).toBe(404);
    expect((await as(t, s, 'GET', `/batch/${id}/status`)).statusCode).toBe(200);
    expect((await as(t, s, 'GET', '/batch/not-a-uuid/status')).json()).toMatchObject({ status: 400, errors: [{ pointer: '/params/uuid' }] });
  });
});
