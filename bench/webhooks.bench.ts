// npm run bench:webhooks — webhook deliveries to a local receiver.
//
// On PostgreSQL (BENCH_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
// it creates a scratch database and a supplier whose webhook points at an HTTP receiver on
// 127.0.0.1 that answers 200 at once, and runs the webhook dispatcher in this process:
//   1. throughput: records BENCH_EVENTS events (default 20,000; BENCH_TX_EVENTS per
//      transaction, default 50, each about a resource of its own) while the dispatcher is
//      stopped, then starts it: deliveries/s = events ÷ (start -> last arrival);
//   2. latency: with the dispatcher running, records BENCH_LATENCY_EVENTS events (default
//      2,000) one per transaction at BENCH_RATE per second (default 200) and measures each
//      event's time from its commit to its arrival at the receiver (p50, p99).
// Before any number is printed it checks that every event arrived, signed correctly, and
// is recorded delivered. WEBHOOK_CONCURRENCY, WEBHOOK_SUPPLIER_CONCURRENCY and WORKER_POLL_MS
// are passed on when set.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../src/config.ts';
import { openPostgres } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { createDeps } from '../src/deps.ts';
import { createWebhookDispatcher } from '../src/main/worker.ts';
import { configureWebhook, createSupplier } from '../src/modules/suppliers/suppliers.service.ts';
import { recordEvent } from '../src/modules/webhooks/webhooks.events.ts';
import { createScratchDatabase, envInt, fmtInt, fmtMs, serverUrl, table } from './lib.ts';

const EVENTS = envInt('BENCH_EVENTS', 20_000);
const TX_EVENTS = envInt('BENCH_TX_EVENTS', 50);
const LATENCY_EVENTS = envInt('BENCH_LATENCY_EVENTS', 2_000);
const RATE = envInt('BENCH_RATE', 200);
const TIMEOUT_MS = 10 * 60_000;
const log = (message: string) => console.log(`[bench] ${message}`);

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** An order-shaped body of about 600 bytes. */
const orderBody = (i: number) => ({
  id: i + 1,
  status: 'PENDING',
  createdAt: new Date().toISOString(),
  buyer: { storeInternalCode: `S-${i % 500}`, storeName: 'Tienda La 14', user: { name: 'Ana', phone: '+573001234567', email: null } },
  products: [
    { internalCode: 'P-1', name: 'Cola 350 ml', units: 24, quantity: 3, unitPrice: 52000, subtotal: 156000, discount: 15600, total: 140400 },
    { internalCode: 'P-2', name: 'Agua 600 ml', units: 12, quantity: 2, unitPrice: 18000, subtotal: 36000, discount: 0, total: 36000 },
  ],
  subtotal: 192000,
  discountTotal: 15600,
  total: 176400,
  history: [{ status: 'PENDING', at: new Date().toISOString(), by: 'STORE' }],
});

class Receiver {
  readonly arrivedAt = new Map<string, number>();
  calls = 0;
  badSignatures = 0;
  secret = '';
  private waiting: { count: number; resolve: () => void } | undefined;
  readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      this.calls++;
      try {
        new Webhook(this.secret).verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>);
      } catch {
        this.badSignatures++;
      }
      const id = String(req.headers['webhook-id']);
      if (!this.arrivedAt.has(id)) this.arrivedAt.set(id, now);
      res.writeHead(200).end();
      if (this.waiting && this.arrivedAt.size >= this.waiting.count) this.waiting.resolve();
    });
  });

  async listen() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  /** Resolves once `count` distinct events arrived in all. */
  async until(count: number) {
    if (this.arrivedAt.size >= count) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => (this.waiting = { count, resolve })),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`only ${this.arrivedAt.size} of ${count} events arrived`)), TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

async function main() {
  const scratch = await createScratchDatabase(serverUrl());
  const receiver = new Receiver();
  const port = await receiver.listen();
  const tuned = Object.fromEntries(['WEBHOOK_CONCURRENCY', 'WEBHOOK_SUPPLIER_CONCURRENCY', 'WORKER_POLL_MS'].flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : [])));
  const config = loadConfig({ NODE_ENV: 'development', ADMIN_TOKEN: 'bench-admin-token-0123456789', DATABASE_URL: scratch.url, ALLOW_PRIVATE_ADDRESSES: 'true', LOG_LEVEL: 'warn', ...tuned });
  const database = openPostgres(scratch.url);
  await migrateToLatest(database.db);
  const deps = await createDeps(config, database);
  const dispatcher = createWebhookDispatcher(deps, { info() {}, warn: (o, m) => console.warn(m, o), error: (o, m) => console.error(m, o) });
  deps.onWorkAccepted('webhooks', () => dispatcher.wake());
  try {
    const supplier = await createSupplier(deps.db, { code: 'BENCH', name: 'Bench' });
    receiver.secret = (await configureWebhook(deps.db, supplier.id, { baseUrl: `http://127.0.0.1:${port}/erp`, enabled: true })).secret;
    const record = (trx: Parameters<typeof recordEvent>[0], i: number) =>
      recordEvent(trx, { supplierId: supplier.id, type: 'order.created', orderingKey: `order:${i + 1}`, body: orderBody(i) });

    // 1. Throughput: a backlog of EVENTS, then the dispatcher.
    log(`recording ${fmtInt(EVENTS)} events, ${TX_EVENTS} per transaction, with the dispatcher stopped`);
    const recordStart = performance.now();
    for (let first = 0; first < EVENTS; first += TX_EVENTS) {
      await deps.db.transaction().execute(async (trx) => {
        for (let i = first; i < Math.min(first + TX_EVENTS, EVENTS); i++) await record(trx, i);
      });
    }
    const recordMs = performance.now() - recordStart;
    // What autovacuum does within a minute on a live database: without statistics, the
    // planner takes a brand-new table for empty and sorts the whole backlog on every claim.
    await sql`analyze webhook_deliveries`.execute(deps.db);
    log(`delivering them, dispatcher concurrency ${config.webhookConcurrency}`);
    const drainStart = performance.now();
    dispatcher.start();
    await receiver.until(EVENTS);
    const drainMs = Math.max(...receiver.arrivedAt.values()) - drainStart;

    // 2. Latency: events committed one by one at RATE per second while the dispatcher runs.
    log(`latency: ${fmtInt(LATENCY_EVENTS)} events at ${RATE}/s, one per transaction`);
    const committedAt = new Map<string, number>();
    const paceStart = performance.now();
    for (let n = 0; n < LATENCY_EVENTS; n++) {
      const due = paceStart + (n * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const { webhookId } = await deps.db.transaction().execute((trx) => record(trx, EVENTS + n));
      committedAt.set(webhookId, performance.now());
      deps.workAccepted();
    }
    await receiver.until(EVENTS + LATENCY_EVENTS);
    await dispatcher.stop();

    const { n } = await deps.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('supplier_id', '=', supplier.id)
      .where('status', '=', 'delivered')
      .executeTakeFirstOrThrow();
    if (Number(n) !== EVENTS + LATENCY_EVENTS) throw new Error(`${n} deliveries recorded delivered, expected ${EVENTS + LATENCY_EVENTS}`);
    if (receiver.badSignatures > 0) throw new Error(`${receiver.badSignatures} calls did not verify`);

    const latencies = [...committedAt].map(([id, at]) => receiver.arrivedAt.get(id)! - at).sort((x, y) => x - y);
    console.log();
    console.log(
      table(
        ['measure', 'value'],
        [
          ['events recorded (backlog), per second', `${fmtInt(EVENTS / (recordMs / 1000))} /s`],
          ['deliveries/s (backlog of ' + fmtInt(EVENTS) + ')', `${fmtInt(EVENTS / (drainMs / 1000))} /s`],
          ['calls received (duplicates allowed)', fmtInt(receiver.calls)],
          [`commit -> delivery p50 (at ${RATE}/s)`, fmtMs(percentile(latencies, 50))],
          [`commit -> delivery p99 (at ${RATE}/s)`, fmtMs(percentile(latencies, 99))],
          ['commit -> delivery max', fmtMs(latencies.at(-1)!)],
        ],
      ),
    );
    console.log(`deliveries_per_s=${Math.round(EVENTS / (drainMs / 1000))} p50_ms=${percentile(latencies, 50).toFixed(1)} p99_ms=${percentile(latencies, 99).toFixed(1)}`);
  } finally {
    await dispatcher.stop();
    await deps.close();
    await receiver.close();
    await scratch.drop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
