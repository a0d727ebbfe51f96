// npm run bench:store-catalog — a store user browsing the catalogue of a realistic
// supplier (bench/store-supplier.ts: 10,000 products in 3 sizes, 20 price lists, 200
// stores, 500 promotions), against a bare Fastify route answering the same body.
//
// On PostgreSQL (BENCH_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
// it creates a scratch database, starts the real service in this process and loads the
// supplier through the batch API. `wrk` (installed with apt-get when missing) then sends
// `GET /app/stores/{id}/catalog?take=50` with the user's token from BENCH_CONNECTIONS
// (default 32) connections; with the same settings, a bare Fastify route in this process
// answering the very body of that page. The two alternate in BENCH_ROUNDS rounds (default
// 5) of BENCH_SECONDS seconds each (default 5), after a warm-up of each that is not counted
// (BENCH_WARMUP_SECONDS, default 2); each side's figure is its median round.
// Targets (issue 18): service ÷ bare ≥ 0.20, p99 ≤ 50 ms. The last line is
// `catalog_per_s=<x> bare_per_s=<y> p99_ms=<z> ratio=<r>` for scripts.
import Fastify from 'fastify';
import { sleep } from '../support/wait.ts';
import { call, envInt, fmtInt, table, withBenchService } from './lib.ts';
import { loadStoreSupplier } from './store-supplier.ts';
import { ensureWrk, warmUp, wrk, type WrkResult } from './wrk.ts';

const SECONDS = envInt('BENCH_SECONDS', 5);
const ROUNDS = envInt('BENCH_ROUNDS', 5);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 32);
const TARGET = 0.2;
const TARGET_P99_MS = 50;
const log = (message: string) => console.log(`[bench] ${message}`);
/** The service runs in this process: requests wrk left in flight must finish before the next load starts. */
const settle = () => sleep(1000);

ensureWrk();
await withBenchService(log, async ({ service }) => {
  const { storeId, token } = await loadStoreSupplier(service, log);
  const path = `/app/stores/${storeId}/catalog?take=50`;
  const headers = { authorization: `Bearer ${token}` };
  const sample = await call(service.baseUrl, 'GET', path, { headers, expect: 200 });
  const body = sample.body;
  if (body.data?.length !== 50 || !body.data.some((p: { promotions: unknown[] }) => p.promotions.length > 0)) {
    throw new Error(`unexpected catalog page: ${JSON.stringify(body).slice(0, 300)}`);
  }
  log(`first page answered in ${sample.ms.toFixed(0)} ms: ${body.total} products for the store, ${JSON.stringify(body).length} bytes`);

  const bare = Fastify({ logger: false });
  bare.get('/fixed', async () => body);
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/fixed`;
  await warmUp([{ url: service.baseUrl + path, headers, connections: CONNECTIONS }, { url: bareUrl, connections: CONNECTIONS }], settle);
  const rounds: { service: WrkResult; bare: WrkResult }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const served = await wrk({ url: service.baseUrl + path, headers, seconds: SECONDS, connections: CONNECTIONS });
    await settle();
    const baseline = await wrk({ url: bareUrl, seconds: SECONDS, connections: CONNECTIONS });
    for (const [what, r] of [['service', served], ['bare', baseline]] as const) {
      if (r.failures > 0) throw new Error(`${what}: ${r.failures} answers were not 2xx (of ${r.requests})`);
    }
    log(`round ${round}/${ROUNDS}: catalog ${fmtInt(served.perSecond)}/s (p99 ${served.p99Ms.toFixed(1)} ms), bare ${fmtInt(baseline.perSecond)}/s: ${(served.perSecond / baseline.perSecond).toFixed(3)}`);
    rounds.push({ service: served, bare: baseline });
  }
  await bare.close();
  const medianOf = (pick: (r: (typeof rounds)[number]) => WrkResult) => rounds.map(pick).sort((a, b) => a.perSecond - b.perSecond)[rounds.length >> 1]!;
  const served = medianOf((r) => r.service);
  const baseline = medianOf((r) => r.bare);
  const ratio = served.perSecond / baseline.perSecond;
  const p99 = [...rounds.map((r) => r.service.p99Ms)].sort((a, b) => a - b)[rounds.length >> 1]!;
  console.log('');
  console.log(
    table(
      ['measure', 'value', 'target'],
      [
        ['GET /app/stores/{id}/catalog?take=50', `${fmtInt(served.perSecond)} requests/s`, ''],
        ['  p50 / p99 (median round)', `${served.p50Ms.toFixed(1)} ms / ${p99.toFixed(1)} ms`, `p99 ≤ ${TARGET_P99_MS} ms ${p99 <= TARGET_P99_MS ? 'met' : 'MISSED'}`],
        ['bare Fastify route, same body', `${fmtInt(baseline.perSecond)} requests/s`, ''],
        ['  p50 / p99', `${baseline.p50Ms.toFixed(1)} ms / ${baseline.p99Ms.toFixed(1)} ms`, ''],
        ['body bytes', fmtInt(JSON.stringify(body).length), ''],
        ['rounds (service ÷ bare each)', rounds.map((r) => (r.service.perSecond / r.bare.perSecond).toFixed(3)).join(', '), ''],
        ['ratio service ÷ bare (medians)', ratio.toFixed(3), `≥ ${TARGET} ${ratio >= TARGET ? 'met' : 'MISSED'}`],
      ],
    ),
  );
  console.log(`catalog_per_s=${Math.round(served.perSecond)} bare_per_s=${Math.round(baseline.perSecond)} p99_ms=${p99.toFixed(1)} ratio=${ratio.toFixed(3)}`);
});
