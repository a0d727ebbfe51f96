// npm run bench:promotion-read — authenticated GET /promotion/{code} against a bare
// Fastify route, in one run.
//
// On PostgreSQL (BENCH_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
// it creates a scratch database, starts the real service in this process, and creates a
// supplier with a multiple discount over 20 products in three tiers behind a promotion
// grouper. A load generator in another process (bench/http-load.ts) then reads that
// promotion with the supplier's API key and bearer token from BENCH_CONNECTIONS (default
// 16) connections; with the same generator and settings, a bare Fastify route in this
// process answering a fixed JSON of the same size. The two alternate in BENCH_ROUNDS
// rounds (default 3) sharing BENCH_SECONDS (default 15), and each side's figure is its
// median round.
// Every answer must be 200; the promotion's body is checked before the load starts.
// Target (issue 18): service ÷ bare ≥ 0.30. The last line is
// `promotion_reads_per_s=<x> bare_per_s=<y> ratio=<z>` for scripts.
import Fastify from 'fastify';
import { httpLoad, type LoadResult } from './http-load.ts';
import { call, createSupplier, envInt, fmtInt, table, waitForBatches, withBenchService } from './lib.ts';

const SECONDS = envInt('BENCH_SECONDS', 15);
const ROUNDS = envInt('BENCH_ROUNDS', 3);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 16);
const TARGET = 0.3;
const log = (message: string) => console.log(`[bench] ${message}`);

await withBenchService(log, async ({ service }) => {
  const s = await createSupplier(service, 'READS');
  const base = service.baseUrl;
  const as = { headers: s.headers };
  await call(base, 'PUT', '/category', { ...as, body: { internalCode: 'C', name: 'C' }, expect: 200 });
  const products = Array.from({ length: 20 }, (_, i) => `P${i}`);
  await call(base, 'POST', '/grouper/promotion', { ...as, body: { internalCode: 'G1', name: 'Grouper' }, expect: 200 });
  await waitForBatches(service, s, (await call(base, 'POST', '/batch/brand', { ...as, body: [{ internalCode: 'B', name: 'B' }], expect: 202 })).body.batchId);
  const catalog = (await call(base, 'POST', '/batch/product', { ...as, body: { upsert: products.map((code) => ({ internalCode: code, name: code, brandInternalCode: 'B', categoryInternalCode: 'C' })) }, expect: 202 })).body.batchId;
  await waitForBatches(service, s, catalog);
  await call(base, 'PUT', '/promotion/discount/multiple', {
    ...as,
    body: {
      internalCode: 'PROMO-1',
      name: 'Twenty products together',
      start: '2020-01-01',
      end: '2099-12-31',
      enabled: true,
      products: products.map((internalCode) => ({ internalCode })),
      promotionGrouperCodes: ['G1'],
      discountTiersData: [
        { min: 5, max: 9, discountPercentage: 3 },
        { min: 10, max: 19, discountPercentage: 5 },
        { min: 20, discountPercentage: 8 },
      ],
    },
    expect: 200,
  });
  const sample = await call(base, 'GET', '/promotion/PROMO-1', { ...as, expect: 200 });
  if (sample.body.internalCode !== 'PROMO-1' || sample.body.products?.length !== 20) {
    throw new Error(`unexpected promotion body: ${JSON.stringify(sample.body).slice(0, 300)}`);
  }
  const fixed = sample.body; // the bare route answers the same JSON, so both send as many bytes

  const bare = Fastify({ logger: false });
  bare.get('/fixed', async () => fixed);
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/fixed`;
  // The two loads alternate in ROUNDS rounds of SECONDS / ROUNDS each, and each side's
  // figure is its median round: a shared machine's speed drifts within a run, and one long
  // phase each would hand the drift to one side of the ratio.
  const rounds: { reads: LoadResult; bare: LoadResult }[] = [];
  const seconds = Math.max(1, Math.round(SECONDS / ROUNDS));
  for (let round = 1; round <= ROUNDS; round++) {
    log(`round ${round}/${ROUNDS}: GET /promotion/PROMO-1, then the bare route, ${seconds} s each from ${CONNECTIONS} connections`);
    const reads = await httpLoad({ url: `${base}/promotion/PROMO-1`, headers: s.headers, seconds, connections: CONNECTIONS });
    const baseline = await httpLoad({ url: bareUrl, seconds, connections: CONNECTIONS });
    for (const [what, r] of [['service', reads], ['bare', baseline]] as const) {
      if (r.failures > 0 || r.requests === 0) throw new Error(`${what}: ${r.failures} answers were not 200 (${r.requests} were)`);
    }
    rounds.push({ reads, bare: baseline });
  }
  await bare.close();
  const medianOf = (pick: (r: (typeof rounds)[number]) => LoadResult) => [...rounds].map(pick).sort((a, b) => a.perSecond - b.perSecond)[rounds.length >> 1]!;
  const reads = medianOf((r) => r.reads);
  const baseline = medianOf((r) => r.bare);
  const ratio = reads.perSecond / baseline.perSecond;
  console.log('');
  console.log(
    table(
      ['measure', 'value', 'target'],
      [
        ['GET /promotion/{code}, authenticated', `${fmtInt(reads.perSecond)} requests/s`, ''],
        ['  p50 / p99', `${reads.p50Ms.toFixed(1)} ms / ${reads.p99Ms.toFixed(1)} ms`, ''],
        ['bare Fastify route, same body', `${fmtInt(baseline.perSecond)} requests/s`, ''],
        ['  p50 / p99', `${baseline.p50Ms.toFixed(1)} ms / ${baseline.p99Ms.toFixed(1)} ms`, ''],
        ['body bytes', fmtInt(reads.bodyBytes), ''],
        ['rounds (service ÷ bare each)', rounds.map((r) => (r.reads.perSecond / r.bare.perSecond).toFixed(3)).join(', '), ''],
        ['ratio service ÷ bare (medians)', ratio.toFixed(3), `≥ ${TARGET} ${ratio >= TARGET ? 'met' : 'MISSED'}`],
      ],
    ),
  );
  console.log(`promotion_reads_per_s=${Math.round(reads.perSecond)} bare_per_s=${Math.round(baseline.perSecond)} ratio=${ratio.toFixed(3)}`);
});
