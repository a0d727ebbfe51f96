// npm run bench:refresh — the daily price refresh: a price list sent again with few changes.
//
// On PostgreSQL (BENCH_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
// it creates a scratch database, starts the real service as bench:batch does (the API in
// this process, `npm run worker` apart; BENCH_TOPOLOGY=one-process runs both here), seeds a
// supplier's catalog (N / 10 products),
// then runs BENCH_ROUNDS rounds (default 3), each with a new price list:
//   - load:    submits N price entries for the list through POST /batch/pricelist in
//              requests of 50,000 and waits until every batch is processed;
//   - refresh: submits the same N entries again, one in ten with a new price, the same way.
// Both are timed from the first submit to the last batch done, after a CHECKPOINT. The
// figures: the refresh's time ÷ the load's (target ≤ 0.6: a refresh should cost what
// changed, not what was sent), and the rows of price_entries PostgreSQL rewrote during the
// refresh ÷ the changed entries (target ≤ 1.2). Rows rewritten are the delta of n_tup_upd
// in pg_stat_user_tables, which counts HOT updates already (n_tup_hot_upd is the part of
// them that was HOT; adding the two would count a HOT update twice). Statistics reach
// pg_stat_user_tables from the service's connections when they go idle, so the script
// polls until they settle. The printed round is the median one by time ratio (a neighbour
// on a shared machine slows either phase of one round); CPU seconds of Node and of the
// database's backends are printed too, steadier than the clock on a shared machine.
// Every result is checked before any number is printed: row count and exact sum of
// prices after each phase, every batch processed with no failed item, and exactly the
// changed rows carrying an updated_at from the refresh.
// The last line is `refresh_ratio=<x> rewritten_per_changed=<y> ...` for scripts.
//
// BENCH_REFRESH_ENTRIES (default 1000000) sets N. For experiments: BENCH_FILLFACTOR sets
// price_entries' fillfactor before the first load; BATCH_SIZE, BATCH_CHUNK_SIZE,
// WORKER_CONCURRENCY and WORKER_POLL_MS are passed to the service when set.
import fs from 'node:fs';
import type pg from 'pg';
import { call, checkBatches, createSupplier, envInt, fmtInt, fmtMs, median, ranges, type RunningService, type Supplier, table, topologyFromEnv, waitForBatches, withBenchService } from './lib.ts';
import { entryOf, PACKAGE_SIZES, PER_REQUEST, productCode, seedCatalog } from './price-load.ts';

const ENTRIES = envInt('BENCH_REFRESH_ENTRIES', 1_000_000);
const PRODUCTS = Math.ceil(ENTRIES / PACKAGE_SIZES);
const CHANGED_EVERY = 10; // one entry in ten gets a new price
const FILLFACTOR = process.env.BENCH_FILLFACTOR ? envInt('BENCH_FILLFACTOR', 100) : undefined;
const ROUNDS = envInt('BENCH_ROUNDS', 3);
const listOf = (round: number) => `BENCH-REFRESH-${round + 1}`;
const TARGET_TIME = 0.6;
const TARGET_REWRITES = 1.2;

/** Spread over every product and page: entry i changes when i % 10 is 7 (its price goes up a cent). */
const changes = (i: number) => i % CHANGED_EVERY === 7;
const centsOf = (i: number, refreshed: boolean) => entryOf(i).cents + (refreshed && changes(i) ? 1 : 0);
const CHANGED = Array.from({ length: ENTRIES }, (_, i) => i).filter(changes).length;
const sumCents = (refreshed: boolean) => {
  let sum = 0;
  for (let i = 0; i < ENTRIES; i++) sum += centsOf(i, refreshed);
  return sum;
};

const log = (message: string) => console.log(`[bench] ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A phase's request bodies, serialized and encoded before the clock starts (the client's JSON encoding is not the service's cost). */
function bodies(list: string, refreshed: boolean): Buffer[] {
  return ranges(ENTRIES, PER_REQUEST).map(([start, end]) => {
    const products = [];
    for (let i = start; i < end; i++) {
      const e = entryOf(i);
      products.push({ priceListInternalCode: list, productInternalCode: productCode(e.p), units: e.units, price: centsOf(i, refreshed) / 100 });
    }
    return Buffer.from(JSON.stringify({ upsert: { products } }));
  });
}

/** Tries a CHECKPOINT so one phase's dirty pages are not flushed on the next one's clock; needs superuser or pg_checkpoint. */
async function checkpoint(pool: pg.Pool) {
  await pool.query('checkpoint').catch((error: Error) => log(`CHECKPOINT skipped (${error.message}); timings may be noisier`));
}

interface TableStats {
  ins: number;
  upd: number;
  hot: number;
  dead: number;
}

async function readStats(pool: pg.Pool): Promise<TableStats> {
  // Flushes this connection's own counts; the service's connections flush theirs when idle.
  await pool.query('select pg_stat_force_next_flush()').catch(() => {});
  const { rows } = await pool.query(
    `select n_tup_ins::bigint as ins, n_tup_upd::bigint as upd, n_tup_hot_upd::bigint as hot, n_dead_tup::bigint as dead
     from pg_stat_user_tables where relname = 'price_entries'`,
  );
  const r = rows[0];
  return { ins: Number(r.ins), upd: Number(r.upd), hot: Number(r.hot), dead: Number(r.dead) };
}

/**
 * The table's statistics once they have settled: at least `atLeast` (what the phase must
 * have produced) and the same in two reads 1.5 s apart, or whatever they are after 60 s.
 */
async function settledStats(pool: pg.Pool, atLeast: (s: TableStats) => boolean): Promise<TableStats> {
  const deadline = Date.now() + 60_000;
  let last = await readStats(pool);
  for (;;) {
    await sleep(1_500);
    const now = await readStats(pool);
    if ((atLeast(now) && JSON.stringify(now) === JSON.stringify(last)) || Date.now() > deadline) return now;
    last = now;
  }
}

async function verifyRows(pool: pg.Pool, supplierId: number, list: string, what: string, refreshed: boolean) {
  const { rows } = await pool.query<{ n: number; cents: string }>(
    `select count(*)::int as n, (sum(e.price) * 100)::bigint as cents
     from price_entries e join price_lists l on l.id = e.price_list_id
     where e.supplier_id = $1 and l.internal_code = $2`,
    [supplierId, list],
  );
  const { n, cents } = rows[0]!;
  if (n !== ENTRIES) throw new Error(`${what}: the list holds ${n} rows, expected ${ENTRIES}`);
  const expected = sumCents(refreshed);
  if (Number(cents) !== expected) throw new Error(`${what}: prices sum to ${cents} cents, expected ${expected}`);
}

/**
 * CPU seconds of this database's PostgreSQL backends over a phase, when the server runs
 * on this machine (/proc): sampled every 250 ms by backend pid, so a backend that
 * exits meanwhile keeps what it had used at its last sample. undefined when unreadable.
 */
function backendCpu(pool: pg.Pool) {
  const ticks = new Map<number, { first: number; last: number }>();
  const read = (pid: number) => {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (1/100 s)
    } catch {
      return undefined;
    }
  };
  let readable = true;
  const sample = async (isFirst: boolean) => {
    const { rows } = await pool.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database()');
    for (const { pid } of rows) {
      const t = read(pid);
      if (t === undefined) {
        readable = false;
        continue;
      }
      const known = ticks.get(pid);
      if (known) known.last = t;
      else ticks.set(pid, { first: isFirst ? t : 0, last: t });
    }
  };
  let timer: NodeJS.Timeout | undefined;
  let pending = sample(true);
  timer = setInterval(() => {
    pending = pending.then(() => sample(false)).catch(() => {});
  }, 250);
  return async (): Promise<number | undefined> => {
    clearInterval(timer);
    await pending;
    await sample(false);
    if (!readable) return undefined;
    let total = 0;
    for (const { first, last } of ticks.values()) total += last - first;
    return total / 100;
  };
}

const walLsn = async (pool: pg.Pool) => (await pool.query<{ l: string }>('select pg_current_wal_lsn()::text as l')).rows[0]!.l;

interface Phase {
  /** CPU seconds: this process (service and client) and the database's backends. */
  nodeCpuS: number;
  pgCpuS: number | undefined;
  /** WAL the whole server wrote during the phase (other databases' work included). */
  walBytes: number;
  ms: number;
  acceptMs: number[];
  batchIds: string[];
  /** The database's clock when the phase started. */
  startedAt: Date;
  chunkMedianMs: number;
  chunkItems: number;
}

async function runPhase(service: RunningService, supplier: Supplier, pool: pg.Pool, list: string, refreshed: boolean): Promise<Phase> {
  const what = `${list} ${refreshed ? 'refresh' : 'load'}`;
  const payloads = bodies(list, refreshed);
  await checkpoint(pool);
  const startedAt = (await pool.query<{ now: Date }>('select clock_timestamp() as now')).rows[0]!.now;
  const walBefore = await walLsn(pool);
  const stopCpu = backendCpu(pool);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const ids: string[] = [];
  const acceptMs: number[] = [];
  for (const rawBody of payloads) {
    const accepted = await call(service.baseUrl, 'POST', '/batch/pricelist', { rawBody, headers: supplier.headers, expect: 202 });
    acceptMs.push(accepted.ms);
    ids.push(...accepted.body.batchId);
  }
  const statuses = await waitForBatches(service, supplier, ids, { pollMs: 20 });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const pgCpuS = await stopCpu();
  const walBytes = Number((await pool.query('select pg_wal_lsn_diff(pg_current_wal_lsn(), $1) as n', [walBefore])).rows[0].n);
  checkBatches(what, statuses);
  const total = statuses.reduce((sum, s) => sum + s.total, 0);
  if (total !== ENTRIES) throw new Error(`${what}: the batches hold ${total} items, expected ${ENTRIES}`);
  await verifyRows(pool, supplier.id, list, what, refreshed);
  // One chunk's time: consecutive chunk stamps of a batch (now() of each chunk's transaction).
  const { rows } = await pool.query(
    `with stamps as (
       select s.at, lag(s.at) over (partition by b.id order by s.k) as prev
       from batches b, unnest(b.chunk_finished_at) with ordinality as s(at, k) where b.id = any($1::uuid[]))
     select (select percentile_cont(0.5) within group (order by extract(epoch from at - prev) * 1000) from stamps where prev is not null) as chunk_ms,
            (select max(chunk_size) from batches where id = any($1::uuid[])) as chunk_items`,
    [ids],
  );
  return {
    nodeCpuS: (used.user + used.system) / 1e6,
    walBytes,
    pgCpuS,
    ms,
    acceptMs,
    batchIds: ids,
    startedAt,
    chunkMedianMs: rows[0].chunk_ms === null ? Number.NaN : Number(rows[0].chunk_ms),
    chunkItems: Number(rows[0].chunk_items),
  };
}

interface Round {
  load: Phase;
  refresh: Phase;
  rewritten: number;
  hot: number;
}

const timeRatio = (r: Round) => r.refresh.ms / r.load.ms;
const cpuOf = (p: Phase) => (p.pgCpuS === undefined ? Number.NaN : p.nodeCpuS + p.pgCpuS);
/** The round whose time ratio is the median one (the lower middle for an even count): its figures are printed. */
const medianRound = (rounds: Round[]) => [...rounds].sort((a, b) => timeRatio(a) - timeRatio(b))[(rounds.length - 1) >> 1]!;

async function runRound(service: RunningService, supplier: Supplier, pool: pg.Pool, round: number): Promise<Round> {
  const list = listOf(round);
  const load = await runPhase(service, supplier, pool, list, false);
  log(`round ${round + 1}: load ${fmtMs(load.ms)} (${load.batchIds.length} batches, verified)`);
  // As after a real load, before the next day's refresh: statistics (autovacuum's job;
  // ANALYZE only, no VACUUM: the load leaves nothing dead).
  await pool.query('analyze price_entries');
  const beforeRefresh = await settledStats(pool, (s) => s.ins >= ENTRIES * (round + 1));

  const refresh = await runPhase(service, supplier, pool, list, true);
  const afterRefresh = await settledStats(pool, (s) => s.upd - beforeRefresh.upd >= CHANGED);
  // Independent of the statistics: the rows carrying an updated_at from the refresh.
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from price_entries e join price_lists l on l.id = e.price_list_id
     where e.supplier_id = $1 and l.internal_code = $2 and e.updated_at >= $3`,
    [supplier.id, list, refresh.startedAt],
  );
  const stamped = rows[0]!.n;
  if (stamped !== CHANGED) throw new Error(`${list} refresh: ${stamped} rows carry an updated_at from the refresh, expected the ${CHANGED} changed`);
  const result = { load, refresh, rewritten: afterRefresh.upd - beforeRefresh.upd, hot: afterRefresh.hot - beforeRefresh.hot };
  log(`round ${round + 1}: refresh ${fmtMs(refresh.ms)} (verified), ratio ${timeRatio(result).toFixed(3)}, ${fmtInt(result.rewritten)} rows rewritten`);
  return result;
}

async function main() {
  log(`${fmtInt(ENTRIES)} price entries (${fmtInt(PRODUCTS)} products × ${PACKAGE_SIZES} package sizes), ${fmtInt(PER_REQUEST)} per request; refresh changes ${fmtInt(CHANGED)}; ${ROUNDS} round(s)`);
  await withBenchService(log, async ({ service, pool }) => {
    const supplier = await createSupplier(service, 'BENCH');
    const t = performance.now();
    await seedCatalog(service, supplier, PRODUCTS, Array.from({ length: ROUNDS }, (_, round) => ({ internalCode: listOf(round), name: `Bench refresh list ${round + 1}` })));
    // Statistics for the freshly seeded tables (autovacuum would gather them within a minute).
    await pool.query('analyze products, price_lists, brands, categories');
    if (FILLFACTOR !== undefined) await pool.query(`alter table price_entries set (fillfactor = ${FILLFACTOR})`);
    log(`seeded ${fmtInt(PRODUCTS)} products in ${fmtMs(performance.now() - t)}${FILLFACTOR === undefined ? '' : `; price_entries fillfactor ${FILLFACTOR}`}`);

    const rounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) rounds.push(await runRound(service, supplier, pool, round));

    const typical = medianRound(rounds);
    const { load, refresh } = typical;
    const ratio = timeRatio(typical);
    const rewriteRatio = Math.max(...rounds.map((r) => r.rewritten)) / CHANGED; // the worst round
    const cpuRatio = median(rounds.map((r) => cpuOf(r.refresh) / cpuOf(r.load)));
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const chunk = (p: Phase) => (Number.isNaN(p.chunkMedianMs) ? 'n/a' : fmtMs(p.chunkMedianMs));
    const cpu = (p: Phase) => `${p.nodeCpuS.toFixed(1)} / ${p.pgCpuS?.toFixed(1) ?? 'n/a'}`;
    const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
    const of = ROUNDS === 1 ? '' : `, median round of ${ROUNDS}`;
    // The worker's own Node process is not this one when it runs apart.
    const nodeOf = service.topology === 'apart' ? 'API and client; the worker apart is not counted' : 'service and client';

    console.log('');
    console.log(
      table(
        ['measure', 'value', 'target'],
        [
          [`load, submit -> all processed${of}`, fmtMs(load.ms), ''],
          ['load, entries/s', fmtInt(ENTRIES / (load.ms / 1000)), ''],
          [`refresh (${fmtInt(CHANGED)} of ${fmtInt(ENTRIES)} changed), submit -> all processed`, fmtMs(refresh.ms), ''],
          ['refresh, entries/s', fmtInt(ENTRIES / (refresh.ms / 1000)), ''],
          ['refresh time ÷ load time', ratio.toFixed(3), `≤ ${TARGET_TIME} ${ratio <= TARGET_TIME ? 'met' : 'MISSED'}`],
          ['refresh time ÷ load time, per round', rounds.map((r) => timeRatio(r).toFixed(3)).join(' '), ''],
          ['rows rewritten in the refresh (n_tup_upd), per round', rounds.map((r) => fmtInt(r.rewritten)).join(' '), ''],
          ['  of them HOT (n_tup_hot_upd), per round', rounds.map((r) => fmtInt(r.hot)).join(' '), ''],
          ['rows rewritten ÷ rows changed (worst round)', rewriteRatio.toFixed(3), `≤ ${TARGET_REWRITES} ${rewriteRatio <= TARGET_REWRITES ? 'met' : 'MISSED'}`],
          ['refresh CPU ÷ load CPU, Node + PostgreSQL (median)', Number.isNaN(cpuRatio) ? 'n/a' : cpuRatio.toFixed(3), ''],
          [`load, CPU s: Node (${nodeOf}) / PostgreSQL backends`, cpu(load), ''],
          [`refresh, CPU s: Node (${nodeOf}) / PostgreSQL backends`, cpu(refresh), ''],
          ['WAL written, load / refresh (MiB, whole server)', `${mib(load.walBytes)} / ${mib(refresh.walBytes)}`, ''],
          ['submitting, load / refresh (sum of 202s)', `${fmtMs(sum(load.acceptMs))} / ${fmtMs(sum(refresh.acceptMs))}`, ''],
          [`one chunk of ${fmtInt(load.chunkItems)}, load / refresh (median)`, `${chunk(load)} / ${chunk(refresh)}`, ''],
          ['202 of a 50,000-item request, median (both phases)', fmtMs(median([...load.acceptMs, ...refresh.acceptMs])), ''],
        ],
      ),
    );
    console.log(
      `refresh_ratio=${ratio.toFixed(3)} rewritten_per_changed=${rewriteRatio.toFixed(3)} cpu_ratio=${cpuRatio.toFixed(3)} load_ms=${Math.round(load.ms)} refresh_ms=${Math.round(refresh.ms)} ` +
        `rewritten=${typical.rewritten} hot=${typical.hot} changed=${CHANGED} load_wal_mb=${mib(load.walBytes)} refresh_wal_mb=${mib(refresh.walBytes)}`,
    );
  }, topologyFromEnv('apart'));
}

main().catch((error) => {
  console.error('[bench] failed:', error);
  process.exitCode = 1;
});
