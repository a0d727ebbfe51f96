// npm run bench:orders: concurrent store users place orders of 20 lines for BENCH_SECONDS
// (default 30) against the service on PostgreSQL; beside it, in the same run, the same
// load against a bare Fastify route answering a fixed JSON. Prints orders/s, latency
// percentiles and the ratio. The result is checked: every placement answered 200 and the
// database holds exactly that many orders.
import Fastify from 'fastify';
import { call, createScratchDatabase, createSupplier, envInt, fmtInt, serverUrl, startService, table, waitForBatches } from './lib.ts';

const SECONDS = envInt('BENCH_SECONDS', 30);
const CONCURRENCY = envInt('BENCH_CONCURRENCY', 16);
const LINES = 20;
const PRODUCTS = 200;
const STORES = 50;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Runs `CONCURRENCY` loops of `request` for `seconds`; answers the latencies of successes and the failures. */
async function load(seconds: number, request: (worker: number, n: number) => Promise<boolean>) {
  const latencies: number[] = [];
  let failures = 0;
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      for (let n = 0; performance.now() < deadline; n++) {
        const started = performance.now();
        if (await request(worker, n)) latencies.push(performance.now() - started);
        else failures++;
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), failures, seconds };
}

const scratch = await createScratchDatabase(serverUrl());
const service = await startService(scratch.url);
try {
  const s = await createSupplier(service, 'ORDERS');
  const admin = { authorization: `Bearer ${service.adminToken}` };
  const base = service.baseUrl;
  await call(base, 'PUT', '/category', { headers: s.headers, body: { internalCode: 'C', name: 'C' }, expect: 200 });
  const seed: string[] = [];
  seed.push(...(await call(base, 'POST', '/batch/brand', { headers: s.headers, body: [{ internalCode: 'B', name: 'B' }], expect: 202 })).body.batchId);
  await waitForBatches(service, s, seed);
  const products = Array.from({ length: PRODUCTS }, (_, i) => `P${i}`);
  seed.push(...(await call(base, 'POST', '/batch/product', { headers: s.headers, body: { upsert: products.map((code) => ({ internalCode: code, name: code, brandInternalCode: 'B', categoryInternalCode: 'C' })) }, expect: 202 })).body.batchId);
  await call(base, 'POST', '/pricelist', { headers: s.headers, body: { internalCode: 'PL' }, expect: 200 });
  await waitForBatches(service, s, seed);
  const stores = Array.from({ length: STORES }, (_, i) => ({ internalCode: `S${i}`, name: `Store ${i}`, priceListCode: 'PL' }));
  const more = [
    ...(await call(base, 'POST', '/batch/store', { headers: s.headers, body: { upsert: stores }, expect: 202 })).body.batchId,
    ...(await call(base, 'POST', '/batch/pricelist', { headers: s.headers, body: { upsert: { products: products.map((code, i) => ({ priceListInternalCode: 'PL', productInternalCode: code, units: 1, price: 1000 + i })) } }, expect: 202 })).body.batchId,
  ];
  await waitForBatches(service, s, more);
  // A realistic mix of promotions over the catalogue: discounts and bonuses of every kind.
  for (let i = 0; i < 20; i++) {
    const window = { start: '2020-01-01', end: '2099-12-31', enabled: true, name: `Promo ${i}` };
    const few = products.slice(i * 10, i * 10 + 5).map((code) => ({ internalCode: code }));
    await call(base, 'PUT', '/promotion/discount/multiple', { headers: s.headers, body: { ...window, internalCode: `D${i}`, products: few, discountTiersData: [{ min: 5, max: 19, discountPercentage: 5 }, { min: 20, discountPercentage: 10 }] }, expect: 200 });
    await call(base, 'PUT', '/promotion/bonus/crossed', { headers: s.headers, body: { ...window, internalCode: `G${i}`, products: few, bonusTierData: { quantityRequired: 10, quantityGiven: 1, units: 1, productInternalCode: products[(i + 1) % PRODUCTS] } }, expect: 200 });
  }
  const tokens: string[] = [];
  const storeIds: number[] = [];
  for (let i = 0; i < CONCURRENCY; i++) {
    const phone = `+5730000${String(i).padStart(5, '0')}`;
    await call(base, 'POST', `/store/S${i % STORES}/add/user`, { headers: s.headers, body: { users: [{ phone }] }, expect: 200 });
    const token = (await call(base, 'POST', '/admin/store-users/token', { headers: admin, body: { phone }, expect: 200 })).body.access_token;
    tokens.push(token);
    storeIds.push((await call(base, 'GET', '/app/me', { headers: { authorization: `Bearer ${token}` }, expect: 200 })).body.stores[0].id);
  }

  // Warm up, then the timed run.
  const place = async (worker: number, n: number) => {
    const lines = Array.from({ length: LINES }, (_, k) => ({ productInternalCode: products[(worker * 7 + n * 3 + k * 11) % PRODUCTS]!, units: 1, quantity: 1 + ((n + k) % 12) }));
    const unique = [...new Map(lines.map((l) => [l.productInternalCode, l])).values()];
    const res = await fetch(`${base}/app/stores/${storeIds[worker]}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[worker]}` },
      body: JSON.stringify({ lines: unique }),
    });
    await res.arrayBuffer();
    return res.status === 200;
  };
  await load(2, place);
  const before = Number((await service.deps.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const orders = await load(SECONDS, place);
  const after = Number((await service.deps.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  if (orders.failures > 0) throw new Error(`${orders.failures} placements failed`);
  if (after - before !== orders.latencies.length) throw new Error(`placed ${orders.latencies.length} orders but the database gained ${after - before}`);

  // Baseline: a bare Fastify route answering a fixed JSON, same client, same concurrency.
  const bare = Fastify({ logger: false });
  bare.get('/fixed', async () => ({ status: 'ok', items: [1, 2, 3] }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/fixed`;
  const baseline = await load(SECONDS, async () => {
    const res = await fetch(bareUrl);
    await res.arrayBuffer();
    return res.status === 200;
  });
  await bare.close();

  const rate = (r: typeof orders) => r.latencies.length / r.seconds;
  console.log(
    table(
      ['measure', 'value'],
      [
        ['orders placed (20 lines each)', fmtInt(orders.latencies.length)],
        ['orders/s', rate(orders).toFixed(1)],
        ['order p50 / p99', `${percentile(orders.latencies, 50).toFixed(1)} ms / ${percentile(orders.latencies, 99).toFixed(1)} ms`],
        ['bare Fastify requests/s', fmtInt(rate(baseline))],
        ['bare p50 / p99', `${percentile(baseline.latencies, 50).toFixed(1)} ms / ${percentile(baseline.latencies, 99).toFixed(1)} ms`],
        ['ratio orders ÷ bare', (rate(orders) / rate(baseline)).toFixed(4)],
      ],
    ),
  );
  console.log(`orders_per_second=${rate(orders).toFixed(1)} p99_ms=${percentile(orders.latencies, 99).toFixed(1)} ratio=${(rate(orders) / rate(baseline)).toFixed(4)}`);
} finally {
  await service.stop();
  await scratch.drop();
}
