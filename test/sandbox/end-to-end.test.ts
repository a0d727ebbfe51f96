// The sandbox from an integrator's side (issue #33, "How it is checked"): a test credential
// and the SDK only. The contract's load order, the four events triggered and received by a
// local receiver that verifies their signatures, a promotion that ends tomorrow priced
// before and after moving the clock past it, the checklist complete, a reset; and the live
// supplier's rows the same before and after, row for row.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSurtidoClient, verifyWebhook, type SurtidoClient, type WebhookEvent } from '../../src/client/index.ts';
import { ADMIN_TOKEN, injectSend } from '../helpers/app.ts';
import { dayFromToday, loadSmallCatalog } from '../helpers/sandbox.ts';
import { startService, type RunningService } from '../client/helpers.ts';
import { expectStatus } from '../../support/service.ts';

let service: RunningService;
let surtido: SurtidoClient;
let liveId: number;
let receiver: http.Server;
let receiverUrl: string;
let secret = '';
const received: WebhookEvent[] = [];
const refused: string[] = [];

/** Every row of the live supplier, table by table (tables with a supplier_id, and its own row). */
async function liveRows(): Promise<Record<string, string>> {
  const db = service.t.deps.db;
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.columns where column_name = 'supplier_id' and table_schema = current_schema() order by 1`.execute(db);
  const out: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const row = await sql<{ h: string }>`select count(*)::text || ':' || md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from ${sql.table(name)} x where supplier_id = ${liveId}`.execute(db);
    out[name] = row.rows[0]!.h;
  }
  const own = await sql<{ h: string }>`select md5(x::text) as h from suppliers x where id = ${liveId}`.execute(db);
  out.suppliers = own.rows[0]!.h;
  return out;
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  service = await startService({ dispatcher: true });
  // The operator's side: a live supplier with a catalog, and its test credential.
  const live = await service.t.supplier('E2E-SUP');
  liveId = live.id;
  await loadSmallCatalog(service.t, live, 'live.buyer@shop.example');
  const issued = expectStatus(
    await injectSend(service.t.app)('POST', `/admin/suppliers/${liveId}/credentials`, { mode: 'test' }, { authorization: `Bearer ${ADMIN_TOKEN}` }),
    200,
    'test credential',
  );
  surtido = createSurtidoClient({ baseUrl: service.baseUrl, apiKey: issued.apiKey, clientId: issued.clientId, clientSecret: issued.clientSecret });

  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      try {
        received.push(verifyWebhook(secret, body, req.headers));
        res.writeHead(200).end();
      } catch (error) {
        refused.push(String(error));
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/erp`;
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await service.close();
});

describe('an integration built in test mode', () => {
  let before: Record<string, string>;

  it('is a test credential: GET /supplier says so', async () => {
    before = await liveRows();
    expect(await surtido.get('/supplier')).toEqual({ code: 'E2E-SUP', name: 'Supplier E2E-SUP', mode: 'test' });
  });

  it('loads the 14 steps, receives each event signed, and completes the checklist', async () => {
    const batch = async (path: string, body: unknown) => {
      const { batchId } = await (surtido.post as (p: string, o: unknown) => Promise<{ batchId: string[] }>)(path, { body });
      const outcome = await surtido.waitForBatch(batchId, undefined, { pollMs: 50 });
      expect(outcome.failed, JSON.stringify(outcome.failed)).toEqual([]);
    };
    await surtido.post('/grouper/stock', { body: { internalCode: 'W1', name: 'Warehouse' } });
    await surtido.post('/grouper/promotion', { body: { internalCode: 'G1', name: 'Everyone' } });
    await batch('/batch/brand', { upsert: [{ internalCode: 'B1', name: 'Brand' }] });
    await surtido.put('/category', { body: { internalCode: 'C1', name: 'Drinks' } });
    await batch('/batch/product', { upsert: [{ internalCode: 'P1', name: 'Cola', brandInternalCode: 'B1', categoryInternalCode: 'C1', displayProducts: [{ units: 1, name: 'Unit' }] }] });
    await batch('/batch/stock/grouper', { upsert: [{ grouperCode: 'W1', productInternalCode: 'P1', available: true }] });
    await surtido.post('/pricelist', { body: { internalCode: 'L1' } });
    await batch('/batch/store', {
      upsert: [{ internalCode: 'S1', name: 'Test store', priceListCode: 'L1', stockGrouperCode: 'W1', promotionGrouperCodes: ['G1'], addresses: [{ street: 'Calle 1', city: 'Bogotá', default: true }] }],
    });
    await surtido.post('/store/{code}/add/user', { params: { path: { code: 'S1' } }, body: { users: [{ email: 'buyer@shop.example', name: 'Buyer' }] } });
    await batch('/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'L1', productInternalCode: 'P1', units: 1, price: 1000 }] } });
    await surtido.put('/promotion/discount/simple', {
      body: { internalCode: 'PROMO', name: 'Ten off', start: '2000-01-01', end: dayFromToday(1), enabled: true, promotionGrouperCodes: ['G1'], products: { internalCode: 'P1' }, discountTiersData: [{ min: 2, discountPercentage: 10 }] },
    });
    await batch('/order/bulk-import', {
      orders: [{ storeInternalCode: 'S1', createdAt: '2025-12-01', status: 'DELIVERED', externalId: 'OLD-1', products: [{ internalCode: 'P1', units: 1, quantity: 3, unitPrice: 900 }] }],
    });
    const webhook = await surtido.put('/webhook', { body: { baseUrl: receiverUrl, enabled: true } });
    secret = webhook.secret!;

    const created = await surtido.post('/sandbox/events', { body: { type: 'order.created', storeCode: 'S1' } });
    expect(created).toMatchObject({ type: 'order.created', storeCode: 'S1' });
    expect(created.deliveryId).toEqual(expect.any(Number));
    const cancelled = await surtido.post('/sandbox/events', { body: { type: 'order.cancelled' } });
    const ticket = await surtido.post('/sandbox/events', { body: { type: 'ticket.created', orderId: created.orderId! } });
    const answered = await surtido.post('/sandbox/events', { body: { type: 'ticket.additional_info_received' } });
    for (const t of [cancelled, ticket, answered]) expect(t.deliveryId).toEqual(expect.any(Number));

    const types = ['order.created', 'order.cancelled', 'ticket.created', 'ticket.additional_info_received'];
    await until('the four events', () => (types.every((type) => received.some((e) => e.type === type)) ? true : undefined));
    expect(refused).toEqual([]);
    const order = received.find((e) => e.type === 'order.created')!;
    expect(order.payload).toMatchObject({ id: created.orderId, status: 'PENDING', total: 1000 });
    // The delivery the answer named is the one the receiver got, in the delivery log.
    const delivery = await until('the delivery to be delivered', async () => {
      const d = (await surtido.get('/webhook/deliveries', { params: { query: { take: 50 } } })).data.find((x) => x.id === created.deliveryId);
      return d?.status === 'delivered' ? d : undefined;
    });
    expect(delivery).toMatchObject({ eventType: 'order.created', webhookId: created.webhookId });

    await surtido.put('/order/{id}/confirm', { params: { path: { id: created.orderId! } }, body: {} });
    await surtido.put('/order/{id}/deliver', { params: { path: { id: created.orderId! } }, body: { complete: true } });

    const list = await surtido.get('/sandbox/checklist');
    expect(list.steps.map((s) => [s.step, s.key, s.done])).toEqual([
      [1, 'token', true],
      [2, 'groupers', true],
      [3, 'brands', true],
      [4, 'categories', true],
      [5, 'products', true],
      [6, 'stock', true],
      [7, 'priceLists', true],
      [8, 'stores', true],
      [9, 'users', true],
      [10, 'prices', true],
      [11, 'promotions', true],
      [12, 'ordersImported', true],
      [13, 'webhook', true],
      [14, 'orderDelivered', true],
    ]);
    expect(list.complete).toBe(true);
  });

  it('prices a promotion that ends tomorrow with the discount, and without it once the clock is past its end', async () => {
    const cart = () => surtido.post('/store/{code}/cart', { params: { path: { code: 'S1' } }, body: { lines: [{ productInternalCode: 'P1', units: 1, quantity: 2 }] } });
    expect((await cart()).discountTotal).toBe(200);
    await surtido.put('/sandbox/clock', { body: { now: `${dayFromToday(2)}T09:00:00-05:00` } });
    expect((await cart()).discountTotal).toBe(0);
    const placed = await surtido.post('/sandbox/events', { body: { type: 'order.created', lines: [{ productInternalCode: 'P1', units: 1, quantity: 2 }] } });
    const stored = await surtido.get('/order/{id}', { params: { path: { id: placed.orderId! } } });
    expect(stored).toMatchObject({ discountTotal: 0, total: 2000 });
    expect(stored.createdAt.slice(0, 10)).toBe(dayFromToday(2));
    await surtido.api.DELETE('/sandbox/clock');
  });

  it('resets the twin, keeping its credential and webhook, and leaves the live supplier row for row as it was', async () => {
    const reset = await surtido.post('/sandbox/reset', {});
    expect(reset.counts).toMatchObject({ products: 0, stores: 0, promotions: 0, importedOrders: 0, credentials: 1 });
    expect(await surtido.get('/supplier')).toMatchObject({ mode: 'test' });
    expect(await surtido.get('/webhook')).toMatchObject({ enabled: true });
    const list = await surtido.get('/sandbox/checklist');
    expect(list.steps.filter((s) => s.done).map((s) => s.key)).toEqual(['token']);
    expect(await liveRows()).toEqual(before);
  });
});
