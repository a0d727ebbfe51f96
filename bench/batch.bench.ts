// npm run bench:batch — price entries through POST /batch/pricelist against COPY.
//
// On PostgreSQL (BENCH_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
// it creates a scratch database, starts the real service as PostgreSQL deployments run it
// (the API in this process on 127.0.0.1, port 0, and `npm run worker` in a process of its
// own; BENCH_TOPOLOGY=one-process runs both here, as `npm start` does), seeds a
// supplier's catalog, then runs
// BENCH_ROUNDS rounds (default 3), each of them:
//   - COPY:    loads the N rows into a bare table shaped like price_entries (the baseline);
//   - service: submits the same N entries, for a new price list, in requests of 50,000
//              and waits until every batch is processed (entries/s = N / first submit ->
//              last batch done).
// Each round writes N new rows to both tables, so both grow alike. A round's ratio
// compares its service run with the COPY just before it, and the figure is the median
// round: on a shared machine one run of either can be slowed by a neighbour for a second. Every result is checked (row count, exact sum of prices, no
// failed item) before any number is printed: a benchmark that does not check its result
// proves nothing.
// Targets (issue 18): service ÷ COPY ≥ 0.35; the 202 of a 50,000-item request well under 1 s.
// The last line is `ratio=<x>` for scripts.
//
// BENCH_ENTRIES (default 1000000, the load) sets N. BATCH_SIZE, BATCH_CHUNK_SIZE, WORKER_CONCURRENCY
// and WORKER_POLL_MS are passed to the service when set, for experiments.
import type pg from 'pg';
import { call, checkBatches, checkpoint, copyIn, createSupplier, envInt, fmtInt, fmtMs, median, ranges, type RunningService, type Supplier, table, topologyFromEnv, waitForBatches, withBenchService } from './lib.ts';
import { entryOf, PACKAGE_SIZES, PER_REQUEST, productCode, seedCatalog } from './price-load.ts';

const ENTRIES = envInt('BENCH_ENTRIES', 1_000_000);
const PRODUCTS = Math.ceil(ENTRIES / PACKAGE_SIZES);
const priceListOf = (round: number) => `BENCH-LIST-${round + 1}`;
const TARGET_RATIO = 0.35;
const ROUNDS = envInt('BENCH_ROUNDS', 3);

const centsText = (c: number) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
const expectedCents = (() => {
  let sum = 0;
  for (let i = 0; i < ENTRIES; i++) sum += entryOf(i).cents;
  return sum;
})();

const log = (message: string) => console.log(`[bench] ${message}`);


/**
 * Statistics for the freshly seeded tables. Autovacuum would gather them within a minute
 * of a real catalog load; without them the planner resolves product codes by reading the
 * supplier's whole catalog (a bitmap scan on supplier_id), which measures the seeding,
 * not the steady state.
 */
async function analyze(pool: pg.Pool) {
  await pool.query('analyze products, price_lists, brands, categories');
}

/** One round's request bodies, serialized and encoded before the clock starts (the client's JSON encoding is not the service's cost). */
function priceListBodies(list: string): Buffer[] {
  return ranges(ENTRIES, PER_REQUEST).map(([start, end]) => {
    const products = [];
    for (let i = start; i < end; i++) {
      const e = entryOf(i);
      products.push({ priceListInternalCode: list, productInternalCode: productCode(e.p), units: e.units, price: e.cents / 100 });
    }
    return Buffer.from(JSON.stringify({ upsert: { products } }));
  });
}

/** The baseline: the same columns, key and defaults as price_entries, logged like it; no foreign keys or checks. */
async function createCopyTable(pool: pg.Pool) {
  await pool.query(`create table bench_copy_entries (
      supplier_id bigint not null,
      price_list_id bigint not null,
      product_id bigint not null,
      units int not null,
      price numeric(18,4) not null,
      updated_at timestamptz not null default now(),
      primary key (supplier_id, price_list_id, product_id, units))`);
}

async function runCopy(pool: pg.Pool, supplierId: number, list: string): Promise<number> {
  const listId = (await pool.query<{ id: number }>('select id from price_lists where supplier_id = $1 and internal_code = $2', [supplierId, list])).rows[0]!.id;
  const products = await pool.query<{ id: number; internal_code: string }>('select id, internal_code from products where supplier_id = $1', [supplierId]);
  const productId = new Map(products.rows.map((r) => [r.internal_code, r.id]));
  const idOf = (p: number) => {
    const id = productId.get(productCode(p));
    if (id === undefined) throw new Error(`product ${productCode(p)} was not seeded`);
    return id;
  };
  function* chunks() {
    for (const [start, end] of ranges(ENTRIES, 5_000)) {
      let text = '';
      for (let i = start; i < end; i++) {
        const e = entryOf(i);
        text += `${supplierId}\t${listId}\t${idOf(e.p)}\t${e.units}\t${centsText(e.cents)}\n`;
      }
      yield text;
    }
  }
  await checkpoint(pool, log);
  const started = performance.now();
  const rows = await copyIn(pool, 'copy bench_copy_entries (supplier_id, price_list_id, product_id, units, price) from stdin', chunks());
  const ms = performance.now() - started;
  if (rows !== ENTRIES) throw new Error(`COPY reported ${rows} rows, expected ${ENTRIES}`);
  await verifyRows(pool, 'COPY', 'select count(*)::int as n, (sum(price) * 100)::bigint as cents from bench_copy_entries where price_list_id = $1', [listId]);
  return ms;
}

async function verifyRows(pool: pg.Pool, what: string, query: string, params: unknown[]) {
  const { rows } = await pool.query<{ n: number; cents: number }>(query, params);
  const { n, cents } = rows[0]!;
  if (n !== ENTRIES) throw new Error(`${what}: the table holds ${n} rows, expected ${ENTRIES}`);
  if (Number(cents) !== expectedCents) throw new Error(`${what}: prices sum to ${cents} cents, expected ${expectedCents}`);
}

interface ServiceResult {
  ms: number;
  acceptMs: number[];
  batchIds: string[];
}

async function runService(service: RunningService, supplier: Supplier, pool: pg.Pool, list: string): Promise<ServiceResult> {
  const bodies = priceListBodies(list);
  await checkpoint(pool, log);
  const started = performance.now();
  const ids: string[] = [];
  const acceptMs: number[] = [];
  for (const rawBody of bodies) {
    const accepted = await call(service.baseUrl, 'POST', '/batch/pricelist', { rawBody, headers: supplier.headers, expect: 202 });
    acceptMs.push(accepted.ms);
    ids.push(...accepted.body.batchId);
  }
  const statuses = await waitForBatches(service, supplier, ids, { pollMs: 20 });
  const ms = performance.now() - started;
  checkBatches('price entries', statuses);
  const total = statuses.reduce((sum, s) => sum + s.total, 0);
  if (total !== ENTRIES) throw new Error(`the batches hold ${total} items, expected ${ENTRIES}`);
  await verifyRows(
    pool,
    'service',
    `select count(*)::int as n, (sum(e.price) * 100)::bigint as cents
     from price_entries e join price_lists l on l.id = e.price_list_id
     where e.supplier_id = $1 and l.internal_code = $2`,
    [supplier.id, list],
  );
  return { ms, acceptMs, batchIds: ids };
}

interface WorkerBreakdown {
  firstWaitMs: number;
  spanMs: number;
  chunkMedianMs: number;
  chunkItems: number;
  loadMedianMs: number;
}

/**
 * Where the worker's time went in one round, from its batches' own timestamps (database
 * clock). The stamps are now() of each chunk's transaction, i.e. its start: stamp k -
 * stamp k-1 is one whole chunk, stamp 0 - started_at is loading the batch's items after
 * the claim.
 */
async function workerBreakdown(pool: pg.Pool, batchIds: string[]): Promise<WorkerBreakdown> {
  const { rows } = await pool.query(
    `with b as (
       select * from batches where id = any($1::uuid[])),
     stamps as (
       select b.id, s.at, s.k, lag(s.at) over (partition by b.id order by s.k) as prev, b.started_at
       from b, unnest(b.chunk_finished_at) with ordinality as s(at, k))
     select
       extract(epoch from (select min(started_at) - min(created_at) from b)) * 1000 as first_wait_ms,
       extract(epoch from (select max(finished_at) - min(started_at) from b)) * 1000 as span_ms,
       (select percentile_cont(0.5) within group (order by extract(epoch from at - prev) * 1000) from stamps where prev is not null) as chunk_ms,
       (select percentile_cont(0.5) within group (order by extract(epoch from at - started_at) * 1000) from stamps where k = 1) as load_ms,
       (select max(chunk_size) from b) as chunk_items`,
    [batchIds],
  );
  const r = rows[0];
  return {
    firstWaitMs: Number(r.first_wait_ms),
    spanMs: Number(r.span_ms),
    chunkMedianMs: r.chunk_ms === null ? Number.NaN : Number(r.chunk_ms), // null: every batch is one chunk
    chunkItems: Number(r.chunk_items),
    loadMedianMs: Number(r.load_ms),
  };
}

interface Round {
  copyMs: number;
  service: ServiceResult;
  worker: WorkerBreakdown;
}

const roundRatio = (r: Round) => r.copyMs / r.service.ms;
/** The round whose ratio is the median one (the lower middle for an even count): its figures are printed. */
const medianRound = (rounds: Round[]) => [...rounds].sort((a, b) => roundRatio(a) - roundRatio(b))[(rounds.length - 1) >> 1]!;

async function main() {
  log(`${fmtInt(ENTRIES)} price entries (${fmtInt(PRODUCTS)} products × ${PACKAGE_SIZES} package sizes), ${fmtInt(PER_REQUEST)} per request, ${ROUNDS} round(s)`);
  const topology = topologyFromEnv('apart');
  await withBenchService(log, async ({ service, pool }) => {
    const supplier = await createSupplier(service, 'BENCH');
    const t = performance.now();
    await seedCatalog(service, supplier, PRODUCTS, Array.from({ length: ROUNDS }, (_, round) => ({ internalCode: priceListOf(round), name: `Bench list ${round + 1}` })));
    await analyze(pool);
    await createCopyTable(pool);
    log(`seeded ${fmtInt(PRODUCTS)} products and ${ROUNDS} price list(s) in ${fmtMs(performance.now() - t)}`);

    const rounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const list = priceListOf(round);
      const copyMs = await runCopy(pool, supplier.id, list);
      const run = await runService(service, supplier, pool, list);
      const worker = await workerBreakdown(pool, run.batchIds);
      rounds.push({ copyMs, service: run, worker });
      log(`round ${round + 1}: COPY ${fmtMs(copyMs)}, service ${fmtMs(run.ms)} (${run.batchIds.length} batches; both verified), ratio ${(copyMs / run.ms).toFixed(3)}`);
    }

    const typical = medianRound(rounds);
    const { worker } = typical;
    const copyRate = ENTRIES / (typical.copyMs / 1000);
    const serviceRate = ENTRIES / (typical.service.ms / 1000);
    const ratio = serviceRate / copyRate;
    const acceptMs = rounds.flatMap((r) => r.service.acceptMs);
    const maxAccept = Math.max(...acceptMs);
    const of = ROUNDS === 1 ? '' : `, median round of ${ROUNDS}`;

    console.log('');
    console.log(
      table(
        ['measure', 'value', 'target'],
        [
          [`COPY into a bare table${of}`, `${fmtInt(copyRate)} entries/s`, ''],
          [`service, submit -> all processed${of}`, `${fmtInt(serviceRate)} entries/s`, ''],
          ['ratio service ÷ COPY', ratio.toFixed(3), `≥ ${TARGET_RATIO.toFixed(2)} ${ratio >= TARGET_RATIO ? 'met' : 'MISSED'}`],
          ['ratio per round', rounds.map((r) => roundRatio(r).toFixed(3)).join(' '), ''],
          [`202 of a ${fmtInt(PER_REQUEST)}-item request, first`, fmtMs(acceptMs[0]!), ''],
          [`202 of a ${fmtInt(PER_REQUEST)}-item request, median`, fmtMs(median(acceptMs)), ''],
          [`202 of a ${fmtInt(PER_REQUEST)}-item request, max`, fmtMs(maxAccept), `< 1 s ${maxAccept < 1000 ? 'met' : 'MISSED'}`],
          [`COPY, total time${of}`, fmtMs(typical.copyMs), ''],
          [`service, total time${of}`, fmtMs(typical.service.ms), ''],
          ['median round, submitting', fmtMs(typical.service.acceptMs.reduce((a, b) => a + b, 0)), ''],
          ['median round, first submit -> first claim', fmtMs(worker.firstWaitMs), ''],
          ['median round, first claim -> last batch done', fmtMs(worker.spanMs), ''],
          [`median round, one chunk of ${fmtInt(worker.chunkItems)} (median)`, Number.isNaN(worker.chunkMedianMs) ? 'n/a' : fmtMs(worker.chunkMedianMs), ''],
          ['median round, loading a batch (median)', fmtMs(worker.loadMedianMs), ''],
        ],
      ),
    );
    console.log(`ratio=${ratio.toFixed(3)}`);
  }, topology);
}

main().catch((error) => {
  console.error('[bench] failed:', error);
  process.exitCode = 1;
});
