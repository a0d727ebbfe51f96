// npm run bench:orders — a store of a realistic supplier (bench/store-supplier.ts: 10,000
// products in 3 sizes, 20 price lists, 200 stores, 500 promotions) prices a 20-line cart
// and places it as an order, against a bare Fastify route answering the cart's body.
//
// On PostgreSQL (BENCH_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
// it creates a scratch database, starts the real service in this process and loads the
// supplier through the batch API. `wrk` (installed with apt-get when missing; a Lua
// script sends the POST body and the Authorization header) then, from BENCH_CONNECTIONS
// (default 32) connections, in BENCH_ROUNDS alternating rounds (default 5) of
// BENCH_SECONDS each (default 5): `POST /app/stores/{id}/cart`, the bare route (a GET
// answering the same body), and `POST /app/stores/{id}/orders` with the same lines, after
// a warm-up of each that is not counted (BENCH_WARMUP_SECONDS, default 2). Each figure is
// its median round. Checked: every answer was 200 and the database gained
// exactly as many orders as were answered.
// Targets (issue 18): cart ÷ bare ≥ 0.05 with p99 ≤ 100 ms; orders ÷ cart ≥ 0.5. The last
// line is `cart_per_s=.. cart_p99_ms=.. cart_ratio=.. orders_per_second=.. p99_ms=.. ratio=..`.
import Fastify from 'fastify';
import { sleep } from '../support/wait.ts';
import { call, checkpoint, envInt, fmtInt, table, withBenchService } from './lib.ts';
import { benchCart, loadStoreSupplier } from './store-supplier.ts';
import { ensureWrk, warmUp, wrk, type WrkResult } from './wrk.ts';

const SECONDS = envInt('BENCH_SECONDS', 5);
const ROUNDS = envInt('BENCH_ROUNDS', 5);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 32);
const CART_TARGET = 0.05;
const CART_P99_MS = 100;
const ORDER_TARGET = 0.5;
const log = (message: string) => console.log(`[bench] ${message}`);
/** The service runs in this process: requests wrk left in flight must finish before the next load starts. */
const settle = () => sleep(1000);

ensureWrk();
await withBenchService(log, async ({ service, pool }) => {
  const { storeId, token, products } = await loadStoreSupplier(service, log);
  // The load's gigabyte of WAL would otherwise force checkpoints during the order rounds.
  await checkpoint(pool, log);
  const headers = { authorization: `Bearer ${token}` };
  const lines = benchCart(products);
  const cartUrl = `${service.baseUrl}/app/stores/${storeId}/cart`;
  const sample = await call(service.baseUrl, 'POST', `/app/stores/${storeId}/cart`, { headers, body: { lines }, expect: 200 });
  const priced = sample.body;
  if (priced.lines.some((l: object) => 'error' in l) || priced.discounts.length + priced.rewards.length === 0) {
    throw new Error(`the bench cart should price every line and earn promotions: ${JSON.stringify(priced).slice(0, 400)}`);
  }
  log(`cart priced in ${sample.ms.toFixed(0)} ms: total ${priced.total}, ${priced.discounts.length} discounts, ${priced.rewards.length} rewards`);

  const bare = Fastify({ logger: false });
  bare.get('/fixed', async () => priced);
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/fixed`;
  const countOrders = async () => Number((await pool.query('select count(*)::int as n from orders')).rows[0].n);

  const ordersUrl = `${service.baseUrl}/app/stores/${storeId}/orders`;
  const post = { method: 'POST' as const, headers, body: { lines }, connections: CONNECTIONS };
  await warmUp([{ url: cartUrl, ...post }, { url: bareUrl, connections: CONNECTIONS }, { url: ordersUrl, ...post }], settle);
  const rounds: { cart: WrkResult; bare: WrkResult; orders: WrkResult }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const cart = await wrk({ url: cartUrl, method: 'POST', headers, body: { lines }, seconds: SECONDS, connections: CONNECTIONS });
    await settle();
    const baseline = await wrk({ url: bareUrl, seconds: SECONDS, connections: CONNECTIONS });
    const before = await countOrders();
    const orders = await wrk({ url: ordersUrl, method: 'POST', headers, body: { lines }, seconds: SECONDS, connections: CONNECTIONS });
    await settle();
    const gained = (await countOrders()) - before;
    for (const [what, r] of [['cart', cart], ['bare', baseline], ['orders', orders]] as const) {
      if (r.failures > 0) throw new Error(`${what}: ${r.failures} answers were not 2xx (of ${r.requests})`);
    }
    // wrk counts answers it read to the end; an order placed as wrk stops may be unread.
    if (gained < orders.requests || gained > orders.requests + CONNECTIONS) throw new Error(`wrk counted ${orders.requests} orders placed, the database gained ${gained}`);
    log(`round ${round}/${ROUNDS}: cart ${fmtInt(cart.perSecond)}/s (p99 ${cart.p99Ms.toFixed(1)} ms), bare ${fmtInt(baseline.perSecond)}/s, orders ${fmtInt(orders.perSecond)}/s (p99 ${orders.p99Ms.toFixed(1)} ms)`);
    rounds.push({ cart, bare: baseline, orders });
  }
  await bare.close();
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  const cartPerS = median(rounds.map((r) => r.cart.perSecond));
  const barePerS = median(rounds.map((r) => r.bare.perSecond));
  const ordersPerS = median(rounds.map((r) => r.orders.perSecond));
  const cartP99 = median(rounds.map((r) => r.cart.p99Ms));
  const ordersP99 = median(rounds.map((r) => r.orders.p99Ms));
  const cartRatio = cartPerS / barePerS;
  const orderRatio = ordersPerS / cartPerS;
  const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log('');
  console.log(
    table(
      ['measure', 'value', 'target'],
      [
        ['POST /app/stores/{id}/cart (20 lines)', `${cartPerS.toFixed(1)} carts/s`, ''],
        ['  p99', `${cartP99.toFixed(1)} ms`, `≤ ${CART_P99_MS} ms ${mark(cartP99 <= CART_P99_MS)}`],
        ['bare Fastify route, same body', `${fmtInt(barePerS)} requests/s`, ''],
        ['cart ÷ bare', cartRatio.toFixed(4), `≥ ${CART_TARGET} ${mark(cartRatio >= CART_TARGET)}`],
        ['POST /app/stores/{id}/orders (same lines)', `${ordersPerS.toFixed(1)} orders/s`, ''],
        ['  p99', `${ordersP99.toFixed(1)} ms`, ''],
        ['orders ÷ cart', orderRatio.toFixed(3), `≥ ${ORDER_TARGET} ${mark(orderRatio >= ORDER_TARGET)}`],
        ['rounds (cart ÷ bare, orders ÷ cart)', rounds.map((r) => `${(r.cart.perSecond / r.bare.perSecond).toFixed(4)}/${(r.orders.perSecond / r.cart.perSecond).toFixed(2)}`).join(', '), ''],
      ],
    ),
  );
  console.log(
    `cart_per_s=${cartPerS.toFixed(1)} cart_p99_ms=${cartP99.toFixed(1)} cart_ratio=${cartRatio.toFixed(4)} orders_per_second=${ordersPerS.toFixed(1)} p99_ms=${ordersP99.toFixed(1)} ratio=${orderRatio.toFixed(3)}`,
  );
});
