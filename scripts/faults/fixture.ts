// The suppliers a run loads, built through the public API as an integrator would (catalog,
// price lists, a store with a person, a webhook at the receiver), the load each one sends,
// and the checks that read the database afterwards:
// - applied exactly once: a trigger on price_entries (installed in the scratch database
//   only) writes one audit row per row written; a chunk applied twice would leave two
//   audit rows per item, a lost one none. Audit rows must equal the items completed.
// - per-supplier order: every batch of a supplier sets one price list to its own version
//   number; the list must end at the version of the supplier's last batch, and no batch
//   may start before the previous one finished.
// - no event lost: every outbox event was answered 2xx by the receiver, every order and
//   ticket has its one created event, every order a client was told about exists.
import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import type { DB } from '../../src/db/types.ts';
import { batchRegistry } from '../../src/deps.ts';
import { batchItems } from '../../src/modules/batch/batch.service.ts';
import { freePort, type Send } from '../../support/net.ts';
import * as service from '../../support/service.ts';
import { sleep, waitFor } from '../../support/wait.ts';
import type { LoadClient } from './client.ts';
import { createScratch, migrate, query, serviceEnv, table, type Verdicts } from './lib.ts';
import { Receiver, type Policy } from './receiver.ts';

/**
 * What every fault run starts from: a scratch database migrated for the service's `env`
 * (`settings` over serviceEnv's), the price-entry audit when `audit`, the webhook receiver
 * and a free port for the API (`baseUrl`). Each is undone by runScript's cleanups.
 */
export async function faultSetup(onCleanup: (fn: () => Promise<void> | void) => void, settings: Record<string, string>, { audit }: { audit: boolean }) {
  const scratch = await createScratch('surtido_fault');
  onCleanup(() => scratch.drop());
  const adminToken = `fault-admin-${randomBytes(8).toString('hex')}`;
  const env = serviceEnv(scratch.url, adminToken, settings);
  await migrate(env);
  if (audit) await installAudit(scratch.pool);
  const receiver = await new Receiver().start();
  onCleanup(() => receiver.close());
  const port = await freePort();
  return { scratch, adminToken, env, receiver, port, baseUrl: `http://127.0.0.1:${port}` };
}

export interface SupplierFixture {
  code: string;
  id: number;
  headers: Record<string, string>;
  storeId: number;
  /** The store person's token headers, for /app. */
  person: Record<string, string>;
  /** Versions sent to the LOAD price list, in the order they were accepted (202). */
  accepted: { version: number; batchIds: string[] }[];
  /** Order ids the store app answered 200 with, and ticket ids. */
  orders: Set<number>;
  tickets: Set<number>;
}

export const LOAD_PRODUCTS = 100;

/** The setup's calls through the load client (counted as 'setup', retried for a minute); a call that fails for good throws. */
const setup =
  (c: LoadClient): Send =>
  async (method, path, body, headers) => {
    const res = await c.op('setup', method, path, { body, headers, retryForMs: 60_000 });
    if (!res) throw new Error(`setup: ${method} ${path} failed: ${c.unexpected().join('; ')}`);
    return res;
  };

async function must(c: LoadClient, method: string, path: string, body: unknown, headers: Record<string, string>) {
  return (await setup(c)(method, path, body, headers)).body;
}

/** Batch status reads through the load client; one it gives up on counts as still processing, so it is asked again until the wait's timeout. */
const statusReads =
  (c: LoadClient): Send =>
  async (method, path, body, headers) =>
    (await c.op('setup', method, path, { body, headers, retryForMs: 30_000 })) ?? { status: 200, body: { status: 'processing' } };

const waitForBatches = (c: LoadClient, headers: Record<string, string>, ids: string[]) => service.waitForBatches(statusReads(c), headers, ids, { timeoutMs: 120_000, everyMs: 50 });

/** A supplier with a catalog, a price list PL for orders, a price list LOAD for the batch load, a store and a person. */
export async function createSupplier(c: LoadClient, adminToken: string, code: string, receiver?: Receiver, policy?: Policy): Promise<SupplierFixture> {
  const admin = { authorization: `Bearer ${adminToken}` };
  const supplier = await service.createSupplier(setup(c), adminToken, code);
  const headers = supplier.headers;
  await must(c, 'PUT', '/category', { internalCode: 'C', name: 'Category' }, headers);
  const brand = await must(c, 'POST', '/batch/brand', [{ internalCode: 'B', name: 'Brand' }], headers);
  await waitForBatches(c, headers, brand.batchId);
  const products = Array.from({ length: LOAD_PRODUCTS }, (_, i) => ({
    internalCode: `P${i}`,
    name: `Product ${i}`,
    brandInternalCode: 'B',
    categoryInternalCode: 'C',
    displayProducts: [{ units: 1, name: 'Unit' }],
  }));
  const product = await must(c, 'POST', '/batch/product', { upsert: products }, headers);
  await must(c, 'POST', '/pricelist', { internalCode: 'PL' }, headers);
  await must(c, 'POST', '/pricelist', { internalCode: 'LOAD' }, headers);
  await waitForBatches(c, headers, product.batchId);
  const store = await must(c, 'POST', '/batch/store', { upsert: [{ internalCode: 'S1', name: `Tienda ${code}`, priceListCode: 'PL', addresses: [{ street: 'Calle 1', city: 'Bogotá', default: true }] }] }, headers);
  const prices = await must(c, 'POST', '/batch/pricelist', { upsert: { products: products.slice(0, 10).map((p) => ({ priceListInternalCode: 'PL', productInternalCode: p.internalCode, units: 1, price: 1000 })) } }, headers);
  await waitForBatches(c, headers, [...store.batchId, ...prices.batchId]);
  const email = `buyer-${code.toLowerCase()}@example.com`;
  await must(c, 'POST', '/store/S1/add/user', { users: [{ email, name: 'Buyer' }] }, headers);
  const token = await must(c, 'POST', '/admin/store-users/token', { email }, admin);
  const person = { authorization: `Bearer ${token.access_token}` };
  const me = (await c.op('setup', 'GET', '/app/me', { headers: person }))!.body;
  if (receiver) {
    const hook = await must(c, 'PUT', `/admin/suppliers/${supplier.id}/webhook`, { baseUrl: receiver.baseUrl(code), enabled: true }, admin);
    receiver.configure(code, hook.secret, policy);
  }
  return { code, id: supplier.id, headers, storeId: me.stores[0].id, person, accepted: [], orders: new Set(), tickets: new Set() };
}

/** The LOAD price list at one version: every product at units 1..units, price = version. */
export function loadBatchBody(version: number, units: number) {
  const products = [];
  for (let p = 0; p < LOAD_PRODUCTS; p++) for (let u = 1; u <= units; u++) products.push({ priceListInternalCode: 'LOAD', productInternalCode: `P${p}`, units: u, price: version });
  return { upsert: { products } };
}

// ---------------------------------------------------------------- the load of one supplier

let keySeq = 0;
const key = (what: string) => `${what}-${process.pid}-${Date.now().toString(36)}-${++keySeq}`;

/** Submits the next version of the LOAD price list (Idempotency-Key: a retried submit queues it once). */
export async function sendBatch(c: LoadClient, s: SupplierFixture, version: number, units: number) {
  const res = await c.op('batch submit', 'POST', '/batch/pricelist', { body: loadBatchBody(version, units), headers: s.headers, idempotencyKey: key(`batch-${s.code}-${version}`) });
  if (res) s.accepted.push({ version, batchIds: res.body.batchId });
}

export async function placeOrder(c: LoadClient, s: SupplierFixture, n: number) {
  const lines = [{ productInternalCode: `P${n % 10}`, units: 1, quantity: 1 + (n % 5) }];
  const res = await c.op('order place', 'POST', `/app/stores/${s.storeId}/orders`, { body: { lines }, headers: s.person, idempotencyKey: key(`order-${s.code}`) });
  if (res) s.orders.add(res.body.id);
}

export async function openTicket(c: LoadClient, s: SupplierFixture, n: number) {
  const res = await c.op('ticket open', 'POST', `/app/stores/${s.storeId}/tickets`, { body: { message: `ticket ${n}` }, headers: s.person, idempotencyKey: key(`ticket-${s.code}`) });
  if (res) s.tickets.add(res.body.id);
}

const READS = [
  (s: SupplierFixture) => ({ path: '/pricelist/PL', headers: s.headers }),
  (s: SupplierFixture) => ({ path: '/product/P1', headers: s.headers }),
  (s: SupplierFixture) => ({ path: '/order?take=20', headers: s.headers }),
  (s: SupplierFixture) => ({ path: `/app/stores/${s.storeId}/catalog?take=20`, headers: s.person }),
  (s: SupplierFixture) => ({ path: s.accepted.length ? `/batch/${s.accepted.at(-1)!.batchIds[0]}/status` : '/category', headers: s.headers }),
];

export async function read(c: LoadClient, s: SupplierFixture, n: number) {
  const r = READS[n % READS.length]!(s);
  await c.op('read', 'GET', r.path, { headers: r.headers });
}

/** Runs `step` in a loop every `everyMs` (measured from each start) until `until` passes or the client stops. */
/** Runs `step` every `everyMs` until the deadline (a number, or read again each round when it may move). */
export async function every(c: LoadClient, everyMs: number, until: number | (() => number), step: (n: number) => Promise<void>) {
  const deadline = typeof until === 'number' ? () => until : until;
  for (let n = 0; !c.stopping && Date.now() < deadline(); n++) {
    const started = Date.now();
    await step(n);
    const rest = everyMs - (Date.now() - started);
    if (rest > 0) await sleep(rest);
  }
}

// ---------------------------------------------------------------- checks

export async function installAudit(pool: pg.Pool) {
  await query(pool, `create table fault_audit (supplier_id bigint, price_list_id bigint, product_id bigint, units int, price numeric, txid bigint default txid_current())`);
  await query(pool, `create function fault_audit_write() returns trigger language plpgsql as $$
    begin
      insert into fault_audit (supplier_id, price_list_id, product_id, units, price) values (new.supplier_id, new.price_list_id, new.product_id, new.units, new.price);
      return null;
    end $$`);
  await query(pool, `create trigger fault_audit after insert or update on price_entries for each row execute function fault_audit_write()`);
}

/** Waits until no batch is unfinished and no delivery of an enabled webhook is pending. */
export async function drain(pool: pg.Pool, timeoutMs: number) {
  return waitFor(
    'batches and webhook deliveries to finish',
    async () => {
      const [row] = await query(pool, `
        select (select count(*) from batches where finished_at is null)::int as batches,
               (select count(*) from webhook_deliveries d join supplier_webhooks w using (supplier_id)
                 where d.status = 'pending' and w.enabled)::int as deliveries`);
      return row.batches === 0 && row.deliveries === 0 ? true : undefined;
    },
    timeoutMs,
    500,
  );
}

export interface BatchFigures {
  batchesAccepted: number;
  batchesInDb: number;
  /** Accepted (202) but missing from the database. */
  batchesLost: number;
  unfinished: number;
  itemsSent: number;
  itemsCompleted: number;
  itemsFailed: number;
  /** Rows the audit trigger saw written. */
  writes: number;
  /** Items completed without a write, and writes beyond one per item. */
  itemsLost: number;
  appliedTwice: number;
  /** Suppliers whose LOAD list does not end at their last batch's version, or whose batches overlapped. */
  orderBroken: string[];
  /** The ids of the load's batches in the database (see loadBatches). */
  loadBatchIds: string[];
}

/**
 * The load's price-list batches (those writing the LOAD list) of these suppliers, oldest
 * first, with the version each carries (its price). Items are read through the batch
 * service, as the detail reads them, never through a copy of their storage format.
 */
export async function loadBatches(pool: pg.Pool, supplierIds: number[]): Promise<{ id: string; version: number }[]> {
  // Not destroyed: that would end the caller's pool.
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const rows = await query(pool, `select id::text, supplier_id::int from batches where supplier_id = any($1) and endpoint = '/batch/pricelist' order by seq`, [supplierIds]);
  const kinds = batchRegistry();
  const out: { id: string; version: number }[] = [];
  for (const { id, supplier_id } of rows) {
    const [first] = await batchItems(db, kinds, supplier_id, id);
    const item = first?.item as { priceListInternalCode?: string; price?: number | string } | undefined;
    if (item?.priceListInternalCode === 'LOAD') out.push({ id, version: Number(item.price) });
  }
  return out;
}

export async function checkBatches(pool: pg.Pool, suppliers: SupplierFixture[], units: number): Promise<BatchFigures> {
  const ids = suppliers.map((s) => s.id);
  const accepted = suppliers.flatMap((s) => s.accepted.flatMap((a) => a.batchIds));
  const load = await loadBatches(pool, ids);
  const versions = new Map(load.map((b) => [b.id, b.version]));
  const rows = (await query(pool, `
    select b.id::text, b.supplier_id::int, b.total, b.cursor, b.completed, b.failed, b.finished_at, b.started_at
    from batches b
    where b.id::text = any($1)
    order by b.seq`, [[...versions.keys()]])).map((r) => ({ ...r, version: versions.get(r.id)! }));
  const inDb = new Set(rows.map((r) => r.id));
  const [audit] = await query(pool, `
    select count(*)::int as writes, count(distinct (price_list_id, product_id, units, price))::int as distinct_writes
    from fault_audit a join price_lists l on l.id = a.price_list_id where l.internal_code = 'LOAD' and a.supplier_id = any($1)`, [ids]);
  const completed = rows.reduce((n, r) => n + r.completed, 0);
  const orderBroken: string[] = [];
  for (const s of suppliers) {
    const mine = rows.filter((r) => r.supplier_id === s.id);
    if (mine.length === 0) continue;
    const last = mine.at(-1)!.version;
    const prices = await query(pool, `
      select e.price::int as price, count(*)::int as n from price_entries e join price_lists l on l.id = e.price_list_id
      where l.supplier_id = $1 and l.internal_code = 'LOAD' group by e.price`, [s.id]);
    if (prices.length !== 1 || prices[0].price !== last || prices[0].n !== LOAD_PRODUCTS * units) orderBroken.push(`${s.code}: prices ${JSON.stringify(prices)}, last batch ${last}`);
    // The last version a client was told was accepted is at most the database's last (a 202 lost on the wire is still applied).
    const told = s.accepted.at(-1)?.version ?? 0;
    if (told > last) orderBroken.push(`${s.code}: accepted version ${told} after the last applied ${last}`);
    for (let i = 1; i < mine.length; i++) {
      if (mine[i].started_at < mine[i - 1].finished_at) orderBroken.push(`${s.code}: batch ${mine[i].id} started before ${mine[i - 1].id} finished`);
      if (mine[i].version < mine[i - 1].version) orderBroken.push(`${s.code}: version ${mine[i].version} queued after ${mine[i - 1].version}`);
    }
  }
  return {
    batchesAccepted: accepted.length,
    batchesInDb: rows.length,
    batchesLost: accepted.filter((id) => !inDb.has(id)).length,
    unfinished: rows.filter((r) => r.finished_at === null || r.cursor !== r.total || r.completed + r.failed !== r.total).length,
    itemsSent: rows.reduce((n, r) => n + r.total, 0),
    itemsCompleted: completed,
    itemsFailed: rows.reduce((n, r) => n + r.failed, 0),
    writes: audit.writes,
    itemsLost: Math.max(0, completed - audit.writes) + rows.reduce((n, r) => n + r.failed, 0),
    appliedTwice: Math.max(0, audit.writes - completed),
    orderBroken,
    loadBatchIds: [...versions.keys()],
  };
}

export interface EventFigures {
  events: number;
  delivered: number;
  /** Outbox events the receiver never answered 2xx to (or whose delivery is not delivered). */
  lost: number;
  /** Calls beyond one per event (allowed: at least once). */
  extraCalls: number;
  badSignatures: number;
  ordersTold: number;
  ordersInDb: number;
  /** Orders a client was told about that do not exist, or exist without exactly one order.created event. */
  ordersWithoutEvent: number;
  ordersMissing: number;
  ticketsTold: number;
  ticketsInDb: number;
  ticketsWithoutEvent: number;
  deliveryMs: number[];
}

export async function checkEvents(pool: pg.Pool, suppliers: SupplierFixture[], receiver: Receiver): Promise<EventFigures> {
  const ids = suppliers.map((s) => s.id);
  const events = await query(pool, `
    select e.message_id, e.type, e.ordering_key, extract(epoch from e.created_at) * 1000 as created_ms,
           bool_or(d.status = 'delivered') as delivered
    from webhook_events e join webhook_deliveries d on d.supplier_id = e.supplier_id and d.event_id = e.id
    where e.supplier_id = any($1) and e.type <> 'ping'
    group by e.supplier_id, e.id`, [ids]);
  const acked = receiver.acked();
  const lost = events.filter((e) => !e.delivered || !acked.has(e.message_id));
  let extraCalls = 0;
  const deliveryMs: number[] = [];
  for (const e of events) {
    const seen = receiver.seen.get(e.message_id);
    if (!seen) continue;
    extraCalls += seen.calls - 1;
    if (seen.ackedAt !== undefined) deliveryMs.push(seen.ackedAt - Number(e.created_ms));
  }
  const orders = await query(pool, `select id::int, supplier_id::int from orders where supplier_id = any($1)`, [ids]);
  const tickets = await query(pool, `select id::int from tickets where supplier_id = any($1)`, [ids]);
  const createdFor = (type: string) => {
    const counts = new Map<number, number>();
    for (const e of events) if (e.type === type) counts.set(Number(e.ordering_key.split(':')[1]), (counts.get(Number(e.ordering_key.split(':')[1])) ?? 0) + 1);
    return counts;
  };
  const orderEvents = createdFor('order.created');
  const ticketEvents = createdFor('ticket.created');
  const orderIds = new Set(orders.map((o) => o.id));
  const told = suppliers.flatMap((s) => [...s.orders]);
  const ticketsTold = suppliers.flatMap((s) => [...s.tickets]);
  return {
    events: events.length,
    delivered: events.length - lost.length,
    lost: lost.length,
    extraCalls,
    badSignatures: receiver.badSignatures(),
    ordersTold: told.length,
    ordersInDb: orders.length,
    ordersMissing: told.filter((id) => !orderIds.has(id)).length,
    ordersWithoutEvent: orders.filter((o) => orderEvents.get(o.id) !== 1).length,
    ticketsTold: ticketsTold.length,
    ticketsInDb: tickets.length,
    ticketsWithoutEvent: tickets.filter((t) => ticketEvents.get(t.id) !== 1).length,
    deliveryMs,
  };
}

/** What was sent against what was applied or delivered, and what was lost or done twice: the table every load run prints. */
export function lossTable(batches: BatchFigures, events: EventFigures, extraCallsNote = 'extra calls'): string {
  return table(
    ['what', 'sent / recorded', 'applied / delivered', 'lost', 'twice'],
    [
      ['batches (202)', batches.batchesAccepted, batches.batchesInDb, batches.batchesLost, '-'],
      ['batch items', batches.itemsSent, batches.writes, batches.itemsLost, batches.appliedTwice],
      ['orders (200)', events.ordersTold, events.ordersInDb, events.ordersMissing, Math.max(0, events.ordersInDb - events.ordersTold)],
      ['tickets (200)', events.ticketsTold, events.ticketsInDb, Math.max(0, events.ticketsTold - events.ticketsInDb), Math.max(0, events.ticketsInDb - events.ticketsTold)],
      ['webhook events', events.events, events.delivered, events.lost, `${events.extraCalls} ${extraCallsNote}`],
    ],
  );
}

/** The verdicts every load run owes: nothing accepted lost, nothing applied twice, each supplier's batches in order. */
export function checkLosses(v: Verdicts, batches: BatchFigures, events: EventFigures, orderKept = 'last version everywhere') {
  v.check('no accepted batch lost', batches.batchesLost, batches.batchesLost === 0 && batches.unfinished === 0);
  v.check('no batch item lost', batches.itemsLost, batches.itemsLost === 0);
  v.check('no batch item applied twice', batches.appliedTwice, batches.appliedTwice === 0);
  v.check('per-supplier batch order kept', batches.orderBroken.join('; ') || orderKept, batches.orderBroken.length === 0);
  v.check('no order lost or placed twice', `${events.ordersTold} told, ${events.ordersInDb} in the database`, events.ordersMissing === 0 && events.ordersInDb === events.ordersTold);
  v.check('one created event per order and ticket', events.ordersWithoutEvent + events.ticketsWithoutEvent, events.ordersWithoutEvent + events.ticketsWithoutEvent === 0);
  v.check('no webhook event lost', events.lost, events.lost === 0 && events.badSignatures === 0);
}
