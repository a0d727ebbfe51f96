// npm run bench:catalog — products through POST /batch/product and stores through
// POST /batch/store, each against COPY of the same rows.
//
// On PostgreSQL (BENCH_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
// it creates a scratch database, starts the real service as bench:batch does (the API in
// this process, `npm run worker` apart; BENCH_TOPOLOGY=one-process runs both here), then
// loads the same products and stores once for a supplier of its own and forgets the figures
// (a warm-up: a fresh service's first round ran 20 – 25 % slower than the next, V8 still
// compiling the submit path and the pool's connections new; the HTTP benchmarks warm up
// for the same reason),
// then runs BENCH_ROUNDS rounds (default 3), each for a new supplier with a brand and a
// category, alternating the two measures so a slow spell of the machine meets both:
//   - COPY:    loads the N products and the N stores into bare tables shaped like
//              products and stores (same columns, defaults and keys; no foreign keys or
//              checks), the median of BENCH_COPY_RUNS runs each (default 3);
//   - service: submits the same products, then the same stores, in requests of 50,000
//              items and waits until every batch is processed (items/s = N / first
//              submit -> last batch done).
// Every result is checked (row counts, an exact sum, every batch processed with no failed
// item) before any number is printed. A round's ratio is its service rate ÷ its COPY rate;
// the figure is the median round's, per kind.
// The last line is `products_ratio=<x> stores_ratio=<y>` (median rounds) for scripts.
//
// BENCH_PRODUCTS and BENCH_STORES (default 50000 each) set N. BATCH_SIZE, BATCH_CHUNK_SIZE,
// WORKER_CONCURRENCY and WORKER_POLL_MS are passed to the service when set, for experiments.
import type pg from 'pg';
import { copyValue } from '../src/db/copy.ts';
import { call, checkBatches, checkpoint, copyIn, createSupplier, envInt, fmtInt, fmtMs, median, ranges, type RunningService, type Supplier, table, topologyFromEnv, waitForBatches, withBenchService } from './lib.ts';

const PRODUCTS = envInt('BENCH_PRODUCTS', 50_000);
const STORES = envInt('BENCH_STORES', 50_000);
const PER_REQUEST = 50_000; // the contract's largest batch request
const COPY_RUNS = envInt('BENCH_COPY_RUNS', 3);
const ROUNDS = envInt('BENCH_ROUNDS', 3);
const BRAND = 'BENCH-BRAND';
const CATEGORY = 'BENCH-CAT';

const log = (message: string) => console.log(`[bench] ${message}`);


// The rows, as the API receives them and as COPY receives them: the same values.
const productCode = (i: number) => `P${String(i + 1).padStart(7, '0')}`;
const displayProducts = [
  { units: 1, name: 'Unidad', default: true },
  { units: 24, name: 'Caja x24' },
];
const displayProductsJson = JSON.stringify(displayProducts);
const product = (i: number) => ({
  internalCode: productCode(i),
  name: `Producto ${i + 1} 350 ml`,
  description: `Descripción del producto ${i + 1}`,
  brandInternalCode: BRAND,
  categoryInternalCode: CATEGORY,
  ean: String(7_700_000_000_000 + i),
  displayProducts,
});

const storeCode = (i: number) => `S${String(i + 1).padStart(7, '0')}`;
/** Drop size in whole cents: 0.01 .. 999,999.99, summed exactly to check what was stored. */
const dropCents = (i: number) => 1 + ((i * 7919) % 99_999_999);
const centsText = (c: number) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
const store = (i: number) => ({
  internalCode: storeCode(i),
  name: `Tienda ${i + 1}`,
  legalName: `Tienda ${i + 1} S.A.S.`,
  legalId: `900${String(i).padStart(6, '0')}-1`,
  ownerName: `Propietario ${i + 1}`,
  phone: `+573${String(100_000_000 + i)}`,
  email: `tienda${i + 1}@example.com`,
  addresses: [{ street: `Calle ${(i % 200) + 1} # ${(i % 90) + 1}-${(i % 50) + 1}`, city: 'Bogotá', country: 'CO', latitude: 4.6, longitude: -74.08, default: true }],
  settings: { dropSize: dropCents(i) / 100 },
});
const expectedDropCents = (() => {
  let sum = 0;
  for (let i = 0; i < STORES; i++) sum += dropCents(i);
  return sum;
})();

/** The request bodies, serialized and encoded before the clock starts (the client's JSON encoding is not the service's cost). */
function bodies(total: number, item: (i: number) => object): Buffer[] {
  return ranges(total, PER_REQUEST).map(([start, end]) => {
    const upsert = [];
    for (let i = start; i < end; i++) upsert.push(item(i));
    return Buffer.from(JSON.stringify({ upsert }));
  });
}

async function seed(service: RunningService, supplier: Supplier) {
  const as = { headers: supplier.headers };
  await call(service.baseUrl, 'PUT', '/category', { ...as, body: { internalCode: CATEGORY, name: 'Bench category' }, expect: 200 });
  const brand = await call(service.baseUrl, 'POST', '/batch/brand', { ...as, body: { upsert: [{ internalCode: BRAND, name: 'Bench brand' }] }, expect: 202 });
  checkBatches('brand seed', await waitForBatches(service, supplier, brand.body.batchId));
}

async function verify(pool: pg.Pool, what: string, query: string, params: unknown[], expected: Record<string, number>) {
  const { rows } = await pool.query(query, params);
  for (const [key, value] of Object.entries(expected)) {
    if (Number(rows[0][key]) !== value) throw new Error(`${what}: ${key} is ${rows[0][key]}, expected ${value}`);
  }
}

const productCheck = (from: string) =>
  `select count(*)::int as n,
     count(*) filter (where ean is not null and description is not null and jsonb_array_length(display_products) = 2)::int as complete
   from ${from} where supplier_id = $1`;
const storeCheck = (from: string) =>
  `select count(*)::int as n, (sum(drop_size) * 100)::bigint as cents,
     count(*) filter (where phone is not null and email is not null and jsonb_array_length(addresses) = 1)::int as complete
   from ${from} where supplier_id = $1`;

interface CopyResult {
  /** Median of the runs: one COPY lasts well under a second, so one run is at the mercy of a noisy machine. */
  ms: number;
  runs: number[];
}

async function copyRuns(pool: pg.Pool, what: string, tableName: string, columns: string, chunks: () => Iterable<string>, expectedRows: number, check: () => Promise<void>): Promise<CopyResult> {
  const runs: number[] = [];
  for (let run = 0; run < COPY_RUNS; run++) {
    await pool.query(`truncate ${tableName}`);
    await checkpoint(pool, log);
    const started = performance.now();
    const rows = await copyIn(pool, `copy ${tableName} (${columns}) from stdin`, chunks());
    runs.push(performance.now() - started);
    if (rows !== expectedRows) throw new Error(`COPY ${what} reported ${rows} rows, expected ${expectedRows}`);
    await check();
  }
  return { ms: median(runs), runs };
}

/**
 * A scratch table with the columns, defaults and identity of the live one, and its one
 * key (supplier_id, internal_code), but none of its foreign keys or other indexes: COPY
 * into it measures the load itself.
 */
async function copyTableOf(pool: pg.Pool, table: string, scratch: string) {
  await pool.query(`drop table if exists ${scratch}`);
  await pool.query(`create table ${scratch} (like ${table} including defaults including identity, unique (supplier_id, internal_code))`);
}

async function copyProducts(pool: pg.Pool, supplierId: number): Promise<CopyResult> {
  const ids = await pool.query<{ brand: number; category: number }>(
    `select (select id from brands where supplier_id = $1 and internal_code = $2) as brand,
            (select id from categories where supplier_id = $1 and internal_code = $3) as category`,
    [supplierId, BRAND, CATEGORY],
  );
  const { brand, category } = ids.rows[0]!;
  await copyTableOf(pool, 'products', 'bench_copy_products');
  function* chunks() {
    for (const [start, end] of ranges(PRODUCTS, 5_000)) {
      let text = '';
      for (let i = start; i < end; i++) {
        const p = product(i);
        text += [supplierId, p.internalCode, p.name, p.description, brand, category, p.ean, displayProductsJson].map(copyValue).join('\t') + '\n';
      }
      yield text;
    }
  }
  return copyRuns(pool, 'products', 'bench_copy_products', 'supplier_id, internal_code, name, description, brand_id, category_id, ean, display_products', chunks, PRODUCTS, () =>
    verify(pool, 'COPY products', productCheck('bench_copy_products'), [supplierId], { n: PRODUCTS, complete: PRODUCTS }),
  );
}

async function copyStores(pool: pg.Pool, supplierId: number): Promise<CopyResult> {
  await copyTableOf(pool, 'stores', 'bench_copy_stores');
  function* chunks() {
    for (const [start, end] of ranges(STORES, 5_000)) {
      let text = '';
      for (let i = start; i < end; i++) {
        const s = store(i);
        text +=
          [supplierId, s.internalCode, s.name, s.legalName, s.legalId, s.ownerName, s.phone, s.email, JSON.stringify(s.addresses), centsText(dropCents(i))]
            .map(copyValue)
            .join('\t') + '\n';
      }
      yield text;
    }
  }
  return copyRuns(pool, 'stores', 'bench_copy_stores', 'supplier_id, internal_code, name, legal_name, legal_id, owner_name, phone, email, addresses, drop_size', chunks, STORES, () =>
    verify(pool, 'COPY stores', storeCheck('bench_copy_stores'), [supplierId], { n: STORES, cents: expectedDropCents, complete: STORES }),
  );
}

interface ServiceResult {
  ms: number;
  acceptMs: number[];
  batches: number;
}

async function runService(service: RunningService, supplier: Supplier, pool: pg.Pool, endpoint: string, requestBodies: Buffer[], expected: number): Promise<ServiceResult> {
  await checkpoint(pool, log);
  const started = performance.now();
  const ids: string[] = [];
  const acceptMs: number[] = [];
  for (const rawBody of requestBodies) {
    const accepted = await call(service.baseUrl, 'POST', endpoint, { rawBody, headers: supplier.headers, expect: 202 });
    acceptMs.push(accepted.ms);
    ids.push(...accepted.body.batchId);
  }
  const statuses = await waitForBatches(service, supplier, ids, { pollMs: 20 });
  const ms = performance.now() - started;
  checkBatches(endpoint, statuses);
  const total = statuses.reduce((sum, s) => sum + s.total, 0);
  if (total !== expected) throw new Error(`${endpoint}: the batches hold ${total} items, expected ${expected}`);
  return { ms, acceptMs, batches: ids.length };
}

interface Round {
  copy: CopyResult;
  service: ServiceResult;
}

const rate = (n: number, ms: number) => n / (ms / 1000);
/** Service rate ÷ COPY rate: the same rows, so COPY's time ÷ the service's. */
const ratioOf = (r: Round) => r.copy.ms / r.service.ms;
const medianRound = (rounds: Round[]) => [...rounds].sort((a, b) => ratioOf(a) - ratioOf(b))[(rounds.length - 1) >> 1]!;

async function main() {
  log(`${fmtInt(PRODUCTS)} products and ${fmtInt(STORES)} stores, ${fmtInt(PER_REQUEST)} items per request, ${ROUNDS} round(s)`);
  const productBodies = bodies(PRODUCTS, product);
  const storeBodies = bodies(STORES, store);
  await withBenchService(log, async ({ service, pool }) => {
    const warm = await createSupplier(service, 'BENCH-WARMUP');
    await seed(service, warm);
    const warmP = await runService(service, warm, pool, '/batch/product', productBodies, PRODUCTS);
    const warmS = await runService(service, warm, pool, '/batch/store', storeBodies, STORES);
    log(`warm-up (not counted): products ${fmtMs(warmP.ms)}, stores ${fmtMs(warmS.ms)}`);

    const products: Round[] = [];
    const stores: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Each round loads a supplier of its own: every code is new, as in the first round.
      const supplier = await createSupplier(service, `BENCH${round}`);
      await seed(service, supplier);

      const copyP = await copyProducts(pool, supplier.id);
      const serviceP = await runService(service, supplier, pool, '/batch/product', productBodies, PRODUCTS);
      await verify(pool, 'service products', productCheck('products'), [supplier.id], { n: PRODUCTS, complete: PRODUCTS });
      products.push({ copy: copyP, service: serviceP });
      const copyS = await copyStores(pool, supplier.id);
      const serviceS = await runService(service, supplier, pool, '/batch/store', storeBodies, STORES);
      await verify(pool, 'service stores', storeCheck('stores'), [supplier.id], { n: STORES, cents: expectedDropCents, complete: STORES });
      stores.push({ copy: copyS, service: serviceS });
      log(
        `round ${round + 1}: products COPY ${copyP.runs.map(fmtMs).join(', ')}, service ${fmtMs(serviceP.ms)} (${ratioOf(products.at(-1)!).toFixed(3)}); ` +
          `stores COPY ${copyS.runs.map(fmtMs).join(', ')}, service ${fmtMs(serviceS.ms)} (${ratioOf(stores.at(-1)!).toFixed(3)}); all verified`,
      );
    }

    const p = medianRound(products);
    const st = medianRound(stores);
    const accept = (rounds: Round[]) => {
      const all = rounds.flatMap((r) => r.service.acceptMs);
      return all.length === 1 ? fmtMs(all[0]!) : `${fmtMs(median(all))} median, ${fmtMs(Math.max(...all))} max`;
    };
    const of = ROUNDS === 1 ? '' : ` (median round of ${ROUNDS})`;

    console.log('');
    console.log(
      table(
        ['measure', 'products', 'stores'],
        [
          ['rows', fmtInt(PRODUCTS), fmtInt(STORES)],
          [`COPY into a bare table (median of ${COPY_RUNS})${of}`, `${fmtInt(rate(PRODUCTS, p.copy.ms))} rows/s`, `${fmtInt(rate(STORES, st.copy.ms))} rows/s`],
          [`service, submit -> all processed${of}`, `${fmtInt(rate(PRODUCTS, p.service.ms))} items/s`, `${fmtInt(rate(STORES, st.service.ms))} items/s`],
          [`ratio service ÷ COPY${of}`, ratioOf(p).toFixed(3), ratioOf(st).toFixed(3)],
          ['ratio per round', products.map((r) => ratioOf(r).toFixed(3)).join(' '), stores.map((r) => ratioOf(r).toFixed(3)).join(' ')],
          ['COPY, total time', fmtMs(p.copy.ms), fmtMs(st.copy.ms)],
          ['service, total time', fmtMs(p.service.ms), fmtMs(st.service.ms)],
          [`202 of a ${fmtInt(PER_REQUEST)}-item request, all rounds`, accept(products), accept(stores)],
          ['batches per round', String(p.service.batches), String(st.service.batches)],
        ],
      ),
    );
    console.log(`products_ratio=${ratioOf(p).toFixed(3)} stores_ratio=${ratioOf(st).toFixed(3)}`);
  }, topologyFromEnv('apart'));
}

main().catch((error) => {
  console.error('[bench] failed:', error);
  process.exitCode = 1;
});
