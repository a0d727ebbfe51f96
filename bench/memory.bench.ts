// npm run bench:memory — the service's peak memory while it loads 1,000,000 price entries.
//
// On PostgreSQL (BENCH_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
// it creates a scratch database and starts the service as a child process (`cli.ts serve`:
// API and worker in one process, as `npm start` runs it), so the figures are the
// service's alone, not the client's. It seeds 100,000 products, then sends the entries in
// requests of 50,000 (10 package sizes per product), one after another, and waits for
// every batch. The peak resident set (VmHWM of /proc/<pid>/status, the kernel's own
// high-water mark, so no sampling can miss a peak) is read after the first 20 % of the
// entries and again at the end: memory is bounded when loading five times as much does
// not raise the peak much (growth under 1.3×). The load is checked (row count, every batch
// processed without a failed item) before any number is printed.
// The last line is `peak_rss_mb=<x> peak_rss_at_20pct_mb=<y> growth=<z>` for scripts.
import { postgresPool } from '../src/db/database.ts';
import { call, checkBatches, createSupplier, envInt, fmtInt, fmtMs, memoryOf, startServiceProcess, table, waitForBatches } from './lib.ts';

const ENTRIES = envInt('BENCH_MEMORY_ENTRIES', 1_000_000);
const PER_REQUEST = 50_000;
const SIZES = 10;
const PRODUCTS = Math.ceil(ENTRIES / SIZES);
const TARGET_GROWTH = 1.3;
const log = (message: string) => console.log(`[bench] ${message}`);
const productCode = (p: number) => `P${String(p).padStart(7, '0')}`;

const service = await startServiceProcess(log);
try {
  const s = await createSupplier(service, 'MEMORY');
  const as = { headers: s.headers };
  await call(service.baseUrl, 'PUT', '/category', { ...as, body: { internalCode: 'C', name: 'C' }, expect: 200 });
  await waitForBatches(service, s, (await call(service.baseUrl, 'POST', '/batch/brand', { ...as, body: [{ internalCode: 'B', name: 'B' }], expect: 202 })).body.batchId);
  await call(service.baseUrl, 'POST', '/pricelist', { ...as, body: { internalCode: 'PL' }, expect: 200 });
  let started = performance.now();
  const seeded: string[] = [];
  for (let from = 0; from < PRODUCTS; from += PER_REQUEST) {
    const upsert = Array.from({ length: Math.min(PER_REQUEST, PRODUCTS - from) }, (_, i) => ({ internalCode: productCode(from + i), name: `Product ${from + i}`, brandInternalCode: 'B', categoryInternalCode: 'C' }));
    seeded.push(...(await call(service.baseUrl, 'POST', '/batch/product', { ...as, body: { upsert }, expect: 202 })).body.batchId);
  }
  checkBatches('products', await waitForBatches(service, s, seeded));
  const afterSeed = memoryOf(service.pid);
  log(`seeded ${fmtInt(PRODUCTS)} products in ${fmtMs(performance.now() - started)}; peak so far ${afterSeed.peakMb.toFixed(0)} MiB`);

  started = performance.now();
  const ids: string[] = [];
  let at20: ReturnType<typeof memoryOf> | undefined;
  for (let from = 0; from < ENTRIES; from += PER_REQUEST) {
    // Built one request at a time: this process's memory is not what is measured, but it
    // shares the machine.
    const products = Array.from({ length: Math.min(PER_REQUEST, ENTRIES - from) }, (_, k) => {
      const i = from + k;
      return { priceListInternalCode: 'PL', productInternalCode: productCode(Math.floor(i / SIZES)), units: (i % SIZES) + 1, price: (100 + (i % 997)) / 100 };
    });
    const batchIds = (await call(service.baseUrl, 'POST', '/batch/pricelist', { ...as, body: { upsert: { products } }, expect: 202 })).body.batchId as string[];
    ids.push(...batchIds);
    if (at20 === undefined && from + PER_REQUEST >= ENTRIES / 5) {
      checkBatches('first 20 %', await waitForBatches(service, s, ids));
      at20 = memoryOf(service.pid);
    }
  }
  checkBatches('price entries', await waitForBatches(service, s, ids));
  const ms = performance.now() - started;
  const end = memoryOf(service.pid);
  const pool = postgresPool(service.databaseUrl, 1);
  const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from price_entries where supplier_id = $1', [s.id]);
  await pool.end();
  if (rows[0]!.n !== ENTRIES) throw new Error(`price_entries holds ${rows[0]!.n} rows, expected ${ENTRIES}`);
  const growth = end.peakMb / at20!.peakMb;
  console.log('');
  console.log(
    table(
      ['measure', 'value', 'target'],
      [
        ['price entries loaded (verified)', fmtInt(ENTRIES), ''],
        ['load time', fmtMs(ms), ''],
        ['peak RSS after seeding products', `${afterSeed.peakMb.toFixed(0)} MiB`, ''],
        [`peak RSS after ${fmtInt(ENTRIES / 5)} entries`, `${at20!.peakMb.toFixed(0)} MiB`, ''],
        [`peak RSS after ${fmtInt(ENTRIES)} entries`, `${end.peakMb.toFixed(0)} MiB`, ''],
        ['RSS at the end', `${end.rssMb.toFixed(0)} MiB`, ''],
        ['growth of the peak for 5× the entries', `${growth.toFixed(2)}×`, `< ${TARGET_GROWTH}× ${growth < TARGET_GROWTH ? 'met' : 'MISSED'}`],
      ],
    ),
  );
  console.log(`peak_rss_mb=${end.peakMb.toFixed(0)} peak_rss_at_20pct_mb=${at20!.peakMb.toFixed(0)} growth=${growth.toFixed(2)}`);
} finally {
  await service.stop();
}
