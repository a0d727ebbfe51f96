// Store orders are placed in groups (src/db/group-commit.ts, orders.service.ts): the orders
// of requests that arrive together share one statement and one commit. Each still gets
// its own id, its own order.created event and delivery, and its own answer; an order the
// database refuses fails alone, and one naming another supplier's store is refused by its key.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_FOREIGN_KEY_VIOLATION } from '../../src/db/errors.ts';
import type { StoreOrder } from '../../src/modules/orders/orders.service.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;
let token: string;
let storeId: number;

async function batch(url: string, body: unknown, supplier = s) {
  for (const st of (await t.runBatch(supplier, url, body)).statuses) expect(st.failed, JSON.stringify(st)).toBe(0);
}
const app = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.request({ method, url, payload: payload as never, headers: { authorization: `Bearer ${token}` } });
const place = (quantity: number) => app('POST', `/app/stores/${storeId}/orders`, { lines: [{ productInternalCode: 'P1', units: 1, quantity }] });

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'C' });
  await batch('/batch/brand', [{ internalCode: 'B', name: 'B' }]);
  await batch('/batch/product', { upsert: [{ internalCode: 'P1', name: 'Cola', brandInternalCode: 'B', categoryInternalCode: 'C' }] });
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  await batch('/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda', priceListCode: 'PL' }] });
  await batch('/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'PL', productInternalCode: 'P1', units: 1, price: 1500 }] } });
  await as(t, s, 'POST', '/store/S1/add/user', { users: [{ email: 'ana@example.com', name: 'Ana' }] });
  token = (await t.admin('POST', '/admin/store-users/token', { email: 'ana@example.com' })).json().access_token;
  storeId = (await app('GET', '/app/me')).json().stores[0].id;
});
afterAll(() => t.close());

/** Each order with the transaction that wrote it, its order.created event and its first delivery. */
async function stored(ids: number[]) {
  const { rows } = await sql<{ id: string; xid: string; type: string; ordering_key: string; body: string; deliveries: string }>`
    select o.id, o.xmin::text as xid, e.type, e.ordering_key, e.body,
           (select count(*) from webhook_deliveries d where d.event_id = e.id and d.ordering_key = e.ordering_key) as deliveries
    from orders o join webhook_events e on e.supplier_id = o.supplier_id and e.ordering_key = 'order:' || o.id
    where o.id = any(${ids}::bigint[]) order by o.id`.execute(t.deps.db);
  return rows.map((r) => ({ ...r, id: Number(r.id), deliveries: Number(r.deliveries) }));
}

const count = async (table: 'orders' | 'webhook_events') => Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(t.deps.db)).rows[0]!.n);

/** An order placed through HTTP, and a builder of orders like it for the placer itself. */
async function modelOrder() {
  const model = (await place(1)).json();
  const [row] = (await sql<{ supplier_id: string; store_id: string; placed_by: string }>`select supplier_id, store_id, placed_by from orders where id = ${model.id}`.execute(t.deps.db)).rows;
  const order = (storeId: number, quantity: number, supplierId = Number(row!.supplier_id)): StoreOrder => ({
    supplier_id: supplierId,
    store_id: storeId,
    placed_by: Number(row!.placed_by),
    subtotal: 1500 * quantity,
    discount_total: 0,
    total: 1500 * quantity,
    buyer: model.buyer,
    address: model.address,
    price_list_code: model.priceListCode,
    products: [{ ...model.products[0], quantity, subtotal: 1500 * quantity, total: 1500 * quantity }],
    promotions: model.promotions,
    notes: null,
    history: model.history,
    created_at: model.createdAt,
  });
  return { row: row!, order };
}

describe('store orders placed together', () => {
  it('share a statement, and each has its own id, answer, event and delivery', async () => {
    const quantities = Array.from({ length: 20 }, (_, n) => n + 1);
    const answers = await Promise.all(quantities.map(place));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const orders = answers.map((a) => a.json());
    const ids = orders.map((o) => o.id as number);
    expect(new Set(ids).size).toBe(20);
    // Each answer is its own order: its quantity, its total.
    orders.forEach((order, n) => {
      expect(order.products).toMatchObject([{ internalCode: 'P1', quantity: quantities[n] }]);
      expect(order.total).toBe(1500 * quantities[n]!);
    });

    const rows = await stored(ids);
    expect(rows.map((r) => r.id)).toEqual([...ids].sort((a, b) => a - b));
    for (const row of rows) {
      const answer = orders.find((o) => o.id === row.id);
      // The event is the order as answered, with its own id, key and one delivery.
      expect(row.type).toBe('order.created');
      expect(row.ordering_key).toBe(`order:${row.id}`);
      expect(JSON.parse(row.body)).toEqual(answer);
      expect(row.body.startsWith(`{"id":${row.id},`)).toBe(true);
      expect(row.deliveries).toBe(1);
      // What is stored is what was answered.
      expect((await app('GET', `/app/orders/${row.id}`)).json()).toEqual(answer);
    }
    // Fewer transactions than orders: orders that arrived together were committed together.
    expect(new Set(rows.map((r) => r.xid)).size).toBeLessThan(20);
  });

  it('an order the database refuses fails alone; the others of its group are placed', async () => {
    const { row, order } = await modelOrder();
    const before = await count('webhook_events');
    // Submitted in one turn: one group. The store of the second does not exist.
    const results = await Promise.allSettled([
      t.deps.placeStoreOrder(order(Number(row.store_id), 7)),
      t.deps.placeStoreOrder(order(-1, 8)),
      t.deps.placeStoreOrder(order(Number(row.store_id), 9)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: PG_FOREIGN_KEY_VIOLATION });
    const placed = [results[0], results[2]].map((r) => (r as PromiseFulfilledResult<{ id: number; total: number }>).value);
    expect(placed.map((o) => o.total)).toEqual([1500 * 7, 1500 * 9]);
    const rows = await stored(placed.map((o) => o.id));
    // Written again one by one, concurrently: their ids need not follow the submission order.
    expect(rows.map((r) => [r.id, JSON.parse(r.body).total])).toEqual(
      placed.map((o) => [o.id, o.total]).sort((a, b) => a[0]! - b[0]!),
    );
    // Nothing of the refused order: two events, not three.
    expect(await count('webhook_events')).toBe(before + 2);
  });

  it("an order naming another supplier's store is refused by the database (migration 0032)", async () => {
    const { order } = await modelOrder();
    const other = await t.supplier();
    await as(t, other, 'POST', '/pricelist', { internalCode: 'PL' });
    await batch('/batch/store', { upsert: [{ internalCode: 'S1', name: 'Ajena', priceListCode: 'PL' }] }, other);
    const [theirs] = (await sql<{ id: string }>`select id from stores where supplier_id = ${other.id} and internal_code = 'S1'`.execute(t.deps.db)).rows;
    const before = await count('orders');
    // Our supplier's order naming their store; then the same store under its own supplier.
    const refused = await t.deps.placeStoreOrder(order(Number(theirs!.id), 2)).then(() => undefined, (e: unknown) => e);
    expect(refused).toMatchObject({ code: PG_FOREIGN_KEY_VIOLATION, constraint: 'orders_store_fkey' });
    expect(await count('orders')).toBe(before);
    const placed = await t.deps.placeStoreOrder(order(Number(theirs!.id), 3, other.id));
    expect((await stored([placed.id]))[0]).toMatchObject({ id: placed.id, type: 'order.created' });
  });
});
