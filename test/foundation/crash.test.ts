// A worker killed with SIGKILL in the middle of a large batch loses no item and applies
// none twice: another worker (or the restarted service) finishes it, and the result
// equals an uninterrupted run of the same batch.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createSupplier, waitForBatches } from '../../support/service.ts';
import { onPostgres } from '../helpers/database.ts';
import { freePort, http, processScope, waitFor, waitForReady } from '../helpers/process.ts';

const ADMIN = 'crash-test-admin-token-0123';
const PRODUCTS = 1500;
const UNITS = 10; // 15,000 price entries: three batches of 5,000
const { killableWorker } = processScope('crash');

/** A supplier created over HTTP; answers a caller that sends its headers. */
async function supplierClient(api: ReturnType<typeof http>, code: string) {
  const { headers } = await createSupplier(api, ADMIN, code, { name: code });
  return (method: string, url: string, body?: unknown) => api(method, url, body, headers);
}

/** The caller carries the supplier's headers already. */
const waitDone = (call: Awaited<ReturnType<typeof supplierClient>>, ids: string[]) => waitForBatches(call, {}, ids, { timeoutMs: 120_000, everyMs: 50 });

async function seed(call: Awaited<ReturnType<typeof supplierClient>>) {
  await call('PUT', '/category', { internalCode: 'C', name: 'C' });
  const brand = await call('POST', '/batch/brand', [{ internalCode: 'B', name: 'B' }]);
  const products = Array.from({ length: PRODUCTS }, (_, i) => ({ internalCode: `P${i}`, name: `P${i}`, brandInternalCode: 'B', categoryInternalCode: 'C' }));
  const product = await call('POST', '/batch/product', { upsert: products });
  await call('POST', '/pricelist', { internalCode: 'PL' });
  await waitDone(call, [...brand.body.batchId, ...product.body.batchId]);
}

// Every 97th entry names a product that does not exist, so failures are counted too.
const entries = Array.from({ length: PRODUCTS * UNITS }, (_, i) => ({
  priceListInternalCode: 'PL',
  productInternalCode: i % 97 === 0 ? `GHOST${i}` : `P${Math.floor(i / UNITS)}`,
  units: (i % UNITS) + 1,
  price: Number(((i % 1000) / 4 + 0.25).toFixed(2)),
}));
const expectedFailed = entries.filter((e) => e.productInternalCode.startsWith('GHOST')).length;

describe('crash safety', () => {
  it('finishes a batch whose worker was killed with SIGKILL, exactly as an uninterrupted run', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const common = { ADMIN_TOKEN: ADMIN, PORT: String(port), BATCH_CHUNK_SIZE: '100', BATCH_LEASE_SECONDS: '2', WORKER_POLL_MS: '50', RATE_LIMIT_RPS: '100000', RATE_LIMIT_BURST: '100000', DEMO_SUPPLIER: 'false' };
    // PostgreSQL: the API apart, worker processes killed and replaced; PGlite: the whole service on one folder.
    const startWorker = await killableWorker(common);
    let worker = startWorker();
    await waitForReady(baseUrl);
    const api = http(baseUrl);
    const victim = await supplierClient(api, 'VICTIM');
    const control = await supplierClient(api, 'CONTROL');
    await seed(victim);
    await seed(control);

    const submitted = await victim('POST', '/batch/pricelist', { upsert: { products: entries } });
    expect(submitted.status).toBe(202);
    const ids: string[] = submitted.body.batchId;
    expect(ids).toHaveLength(3);

    // Kill the worker once it is part-way through.
    const progress = await waitFor(
      'the worker to be part-way through',
      async () => {
        const statuses = await Promise.all(ids.map(async (id) => (await victim('GET', `/batch/${id}/status`)).body));
        const processed = statuses.reduce((n, s) => n + s.processed, 0);
        return processed >= 1000 ? processed : undefined;
      },
      60_000,
      5,
    );
    worker.proc.kill('SIGKILL');
    await worker.exited;
    expect(progress).toBeLessThan(entries.length);

    worker = startWorker();
    await waitForReady(baseUrl, onPostgres() ? undefined : worker);
    const afterCrash = await waitDone(victim, ids);

    const uninterrupted = await control('POST', '/batch/pricelist', { upsert: { products: entries } });
    const reference = await waitDone(control, uninterrupted.body.batchId);

    const counts = (list: { total: number; completed: number; failed: number; processed: number; status: string }[]) =>
      list.map(({ total, completed, failed, processed, status }) => ({ total, completed, failed, processed, status }));
    expect(counts(afterCrash)).toEqual(counts(reference));
    expect(afterCrash.reduce((n, s) => n + s.failed, 0)).toBe(expectedFailed);
    expect(afterCrash.reduce((n, s) => n + s.completed, 0)).toBe(entries.length - expectedFailed);

    const [crashed, clean] = await Promise.all([victim('GET', '/pricelist/PL'), control('GET', '/pricelist/PL')]);
    expect(crashed.body.products).toHaveLength(entries.length - expectedFailed);
    expect(crashed.body.products).toEqual(clean.body.products);

    // Every item is still there as it was sent (a price list batch's items are staged rows,
    // batch README "Staging"), each reported once.
    const sent: unknown[] = [];
    for (const id of ids) {
      const detail = (await victim('GET', `/batch/${id}/detail?take=5000`)).body.detail;
      expect(detail.filter((d: { status: string }) => d.status === 'processing')).toEqual([]);
      sent.push(...detail.map((d: { batchItem: string }) => JSON.parse(d.batchItem)));
    }
    expect(sent).toEqual(entries);
    if (onPostgres()) {
      // No staged row outlives its batch or is written twice: one staged item per item of the batches there are.
      const client = new pg.Client({ connectionString: startWorker.env.DATABASE_URL });
      await client.connect();
      try {
        const staged = await client.query<{ orphans: number; items: number; total: number }>(`
          select (select count(*) from batch_price_chunks s where not exists (select 1 from batches b where b.seq = s.batch_seq))::int as orphans,
                 (select sum(cardinality(units)) from batch_price_chunks)::int as items,
                 (select sum(total) from batches where endpoint = '/batch/pricelist')::int as total`);
        expect(staged.rows[0]).toEqual({ orphans: 0, items: entries.length * 2, total: entries.length * 2 });
      } finally {
        await client.end();
      }
    }
    worker.proc.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  });
});
