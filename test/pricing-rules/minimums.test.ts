// Minimums per delivery and case rules through the real HTTP layer (src/modules/pricing/README.md,
// "Minimum order" and "Case rules"; src/modules/orders/README.md, "A top-up order"): a
// zone's minimum in each mode, a store's dropSize overriding it, a store's orders for one
// delivery date counted together (a top-up allowed, another date not counted, a cancelled
// order not counted), two top-ups at once, a product's minUnits, maxUnits and multiple in
// the cart and refused at placement, and the product batch carrying them. The app's clock
// is moved to a Monday; every order is for the Thursday after unless it says otherwise.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { OffsetClock } from '../helpers/clock.ts';

const clock = new OffsetClock();
// Monday 2027-03-01 12:00Z: Thursday the 4th closes on Wednesday 18:00 in Bogotá.
const T0 = Date.parse('2027-03-01T12:00:00.000Z');
const THURSDAY = '2027-03-04';
const NEXT_THURSDAY = '2027-03-11';

const zone = (minimumOrder: unknown) => ({
  name: 'Zone',
  timezone: 'America/Bogota',
  days: [{ weekday: 4, cutoff: { daysBefore: 1, time: '18:00' } }],
  minimumOrder,
});

let t: TestApp;
let s: TestSupplier;
let token: string;
const storeIds: Record<string, number> = {};

const app = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.request({ method, url, payload: payload as never, headers: { authorization: `Bearer ${token}` } });
const ok = (res: { statusCode: number; body: string }) => {
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(res.body);
};
/** `amount` of P (price 1000 a unit) as a cart's lines. */
const worth = (amount: number) => [{ productInternalCode: 'P', units: 1, quantity: amount / 1000 }];
const preview = (store: string, body: Record<string, unknown>) => app('POST', `/app/stores/${storeIds[store]}/cart`, body);
const place = (store: string, body: Record<string, unknown>) => app('POST', `/app/stores/${storeIds[store]}/orders`, body);

async function batch(url: string, body: unknown) {
  const { statuses } = await t.runBatch(s, url, body);
  return statuses;
}

beforeAll(async () => {
  t = await createTestApp({ clock });
  clock.advance(T0 - clock.now().getTime());
  s = await t.supplier();
  await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'C' });
  await batch('/batch/brand', [{ internalCode: 'B', name: 'B' }]);
  const product = (internalCode: string, rules: Record<string, unknown> = {}) => ({ internalCode, name: internalCode, brandInternalCode: 'B', categoryInternalCode: 'C', ...rules });
  const [products] = await batch('/batch/product', {
    upsert: [product('P'), product('CASE', { multiple: 12 }), product('MIN', { minUnits: 6 }), product('MAX', { maxUnits: 24 }), product('BOTH', { minUnits: 24, multiple: 10 })],
  });
  expect(products.failed, JSON.stringify(products)).toBe(0);
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  const price = (productInternalCode: string, units: number, price: number) => ({ priceListInternalCode: 'PL', productInternalCode, units, price });
  await batch('/batch/pricelist', {
    upsert: { products: [price('P', 1, 1000), price('CASE', 1, 100), price('CASE', 12, 1200), price('MIN', 1, 100), price('MAX', 1, 100), price('BOTH', 1, 100)] },
  });
  ok(await as(t, s, 'PUT', '/deliveryzone/HARD', zone({ amount: 50000, mode: 'hard' })));
  ok(await as(t, s, 'PUT', '/deliveryzone/SOFT', zone({ amount: 50000, mode: 'soft' })));
  ok(await as(t, s, 'PUT', '/deliveryzone/FEE', zone({ amount: 50000, mode: 'fee', fee: 3000 })));
  ok(await as(t, s, 'PUT', '/deliveryzone/OPEN', zone(null)));
  const store = (internalCode: string, deliveryZoneCode?: string, dropSize?: number) => ({
    internalCode,
    name: internalCode,
    priceListCode: 'PL',
    ...(deliveryZoneCode ? { deliveryZoneCode } : {}),
    ...(dropSize ? { settings: { dropSize } } : {}),
  });
  const stores = [
    store('S-HARD', 'HARD'),
    store('S-SOFT', 'SOFT'),
    store('S-FEE', 'FEE'),
    store('S-RACE', 'FEE'),
    store('S-DROP', 'FEE', 20000),
    store('S-NONE', undefined, 30000),
    store('S-CASE', 'OPEN'),
  ];
  const [written] = await batch('/batch/store', { upsert: stores });
  expect(written.failed, JSON.stringify(written)).toBe(0);
  for (const { internalCode } of stores) await as(t, s, 'POST', `/store/${internalCode}/add/user`, { users: [{ email: 'ana@example.com' }] });
  token = ok(await t.admin('POST', '/admin/store-users/token', { email: 'ana@example.com' })).access_token;
  for (const st of ok(await app('GET', '/app/me')).stores) storeIds[st.internalCode] = st.id;
});
afterAll(() => t.close());

describe('minimums per delivery date', () => {
  it("a hard zone minimum refuses an order below it, and counts the store's orders for the same date together (a top-up is taken)", async () => {
    expect(ok(await preview('S-HARD', { lines: worth(30000) })).minimumOrder).toEqual({ amount: 50000, missing: 20000, mode: 'hard' });
    const refused = await place('S-HARD', { lines: worth(30000) });
    expect(refused.json()).toMatchObject({ status: 400, code: 'BELOW_MINIMUM_ORDER', detail: 'the minimum order is 50000; 20000 more is needed', errors: [{ pointer: '/lines' }] });

    const first = ok(await place('S-HARD', { lines: worth(60000) }));
    expect(first).toMatchObject({ deliveryDate: THURSDAY, total: 60000 });
    expect(first).not.toHaveProperty('deliveryFee');
    // The top-up: 30000 alone is below, with the 60000 already ordered for Thursday it is not.
    expect(ok(await preview('S-HARD', { lines: worth(30000) })).minimumOrder).toBeNull();
    const topUp = ok(await place('S-HARD', { lines: worth(30000) }));
    expect(topUp).toMatchObject({ deliveryDate: THURSDAY, total: 30000 });

    // Another date counts its own orders only.
    expect(ok(await preview('S-HARD', { lines: worth(30000), deliveryDate: NEXT_THURSDAY })).minimumOrder).toEqual({ amount: 50000, missing: 20000, mode: 'hard' });
    expect((await place('S-HARD', { lines: worth(30000), deliveryDate: NEXT_THURSDAY })).json()).toMatchObject({ code: 'BELOW_MINIMUM_ORDER' });

    // A cancelled order no longer counts: 30000 ordered remains.
    ok(await app('POST', `/app/orders/${first.id}/cancel`, { cancelCode: 'NEW_ORDER' }));
    expect(ok(await preview('S-HARD', { lines: worth(10000) })).minimumOrder).toEqual({ amount: 50000, missing: 10000, mode: 'hard', alreadyOrdered: 30000 });
    const short = await place('S-HARD', { lines: worth(10000) });
    expect(short.json()).toMatchObject({ code: 'BELOW_MINIMUM_ORDER', detail: `the minimum order is 50000; 10000 more is needed (30000 already ordered for ${THURSDAY} counts)` });
    ok(await place('S-HARD', { lines: worth(20000) }));
  });

  it('a preview refuses a delivery date placing would refuse', async () => {
    const res = await preview('S-HARD', { lines: worth(1000), deliveryDate: '2027-03-05' });
    expect(res.json()).toMatchObject({ status: 400, code: 'NOT_A_DELIVERY_DAY', errors: [{ pointer: '/deliveryDate' }] });
  });

  it('a soft minimum takes the order below it; the cart warns', async () => {
    expect(ok(await preview('S-SOFT', { lines: worth(30000) })).minimumOrder).toEqual({ amount: 50000, missing: 20000, mode: 'soft' });
    const order = ok(await place('S-SOFT', { lines: worth(30000) }));
    expect(order).toMatchObject({ subtotal: 30000, total: 30000 });
    expect(order).not.toHaveProperty('deliveryFee');
  });

  it('a fee minimum charges the fee below it (in the total), and not on a top-up that reaches it with the earlier order', async () => {
    expect(ok(await preview('S-FEE', { lines: worth(30000) })).minimumOrder).toEqual({ amount: 50000, missing: 20000, mode: 'fee', fee: 3000 });
    const charged = ok(await place('S-FEE', { lines: worth(30000) }));
    expect(charged).toMatchObject({ subtotal: 30000, discountTotal: 0, deliveryFee: 3000, total: 33000 });
    // The supplier reads it the same, and the row keeps it.
    expect(ok(await as(t, s, 'GET', `/order/${charged.id}`))).toMatchObject({ deliveryFee: 3000, total: 33000 });
    // What counts is what was ordered (goods after discounts), not the fee.
    expect(ok(await preview('S-FEE', { lines: worth(10000) })).minimumOrder).toEqual({ amount: 50000, missing: 10000, mode: 'fee', fee: 3000, alreadyOrdered: 30000 });
    const topUp = ok(await place('S-FEE', { lines: worth(20000) }));
    expect(topUp).toMatchObject({ subtotal: 20000, total: 20000 });
    expect(topUp).not.toHaveProperty('deliveryFee');
  });

  it("the store's dropSize overrides the zone's amount; the zone's mode still applies", async () => {
    expect(ok(await preview('S-DROP', { lines: worth(10000) })).minimumOrder).toEqual({ amount: 20000, missing: 10000, mode: 'fee', fee: 3000 });
    expect(ok(await place('S-DROP', { lines: worth(10000) }))).toMatchObject({ deliveryFee: 3000, total: 13000 });
    // 25000 is below the zone's 50000 but meets the store's 20000.
    const met = ok(await place('S-DROP', { lines: worth(25000), deliveryDate: NEXT_THURSDAY }));
    expect(met).not.toHaveProperty('deliveryFee');
  });

  it('a store without a zone keeps its dropSize as before, and sums the orders of a date it asks for', async () => {
    // Today's answers: no mode, the same refusal.
    expect(ok(await preview('S-NONE', { lines: worth(10000) })).minimumOrder).toEqual({ amount: 30000, missing: 20000 });
    expect((await place('S-NONE', { lines: worth(10000) })).json()).toMatchObject({ code: 'BELOW_MINIMUM_ORDER', detail: 'the minimum order is 30000; 20000 more is needed' });
    ok(await place('S-NONE', { lines: worth(40000), deliveryDate: NEXT_THURSDAY }));
    expect(ok(await preview('S-NONE', { lines: worth(10000), deliveryDate: NEXT_THURSDAY })).minimumOrder).toBeNull();
    expect(ok(await place('S-NONE', { lines: worth(10000), deliveryDate: NEXT_THURSDAY }))).toMatchObject({ deliveryDate: NEXT_THURSDAY, total: 10000 });
    // Without a date nothing else counts.
    expect((await place('S-NONE', { lines: worth(10000) })).json()).toMatchObject({ code: 'BELOW_MINIMUM_ORDER' });
  });

  it("two orders below the minimum at once are checked one after the other: only the first is charged the fee", async () => {
    const both = await Promise.all([place('S-RACE', { lines: worth(30000) }), place('S-RACE', { lines: worth(30000) })]);
    const orders = both.map(ok);
    expect(orders.map((o) => o.deliveryFee ?? 0).sort()).toEqual([0, 3000]);
    expect(orders.map((o) => o.total).sort()).toEqual([30000, 33000]);
  });

  it("the supplier's preview of a store's cart counts the same", async () => {
    // Thursday's 50000 of S-FEE (the charged order and its top-up) already reach it.
    expect(ok(await as(t, s, 'POST', '/store/S-FEE/cart', { lines: worth(10000) })).minimumOrder).toBeNull();
    expect(ok(await as(t, s, 'POST', '/store/S-FEE/cart', { lines: worth(10000), deliveryDate: NEXT_THURSDAY })).minimumOrder).toEqual({
      amount: 50000,
      missing: 40000,
      mode: 'fee',
      fee: 3000,
    });
  });
});

describe('case rules', () => {
  const lines = (...l: [string, number, number][]) => l.map(([productInternalCode, units, quantity]) => ({ productInternalCode, units, quantity }));

  it('the cart answers each broken rule by product, and no violations at all when no product of the cart has a rule', async () => {
    expect(ok(await preview('S-CASE', { lines: lines(['P', 1, 2]) }))).not.toHaveProperty('violations');
    expect(ok(await preview('S-CASE', { lines: lines(['CASE', 12, 1], ['CASE', 1, 12]) })).violations).toEqual([]);
    const cart = ok(await preview('S-CASE', { lines: lines(['P', 1, 1], ['MAX', 1, 25], ['CASE', 1, 5], ['CASE', 12, 1], ['MIN', 1, 5], ['BOTH', 1, 15]) }));
    expect(cart.violations).toEqual([
      { code: 'BELOW_MINIMUM_UNITS', productInternalCode: 'BOTH', orderedUnits: 15, minUnits: 24 },
      { code: 'NOT_A_MULTIPLE', productInternalCode: 'BOTH', orderedUnits: 15, multiple: 10 },
      { code: 'NOT_A_MULTIPLE', productInternalCode: 'CASE', orderedUnits: 17, multiple: 12 },
      { code: 'ABOVE_MAXIMUM_UNITS', productInternalCode: 'MAX', orderedUnits: 25, maxUnits: 24 },
      { code: 'BELOW_MINIMUM_UNITS', productInternalCode: 'MIN', orderedUnits: 5, minUnits: 6 },
    ]);
    // Prices are not touched by the rules.
    expect(cart).toMatchObject({ subtotal: 1000 + 2500 + 500 + 1200 + 500 + 1500, minimumOrder: null });
  });

  it('placing refuses a broken rule with its code and a pointer to the line; several are each a problem', async () => {
    const one = await place('S-CASE', { lines: lines(['P', 1, 1], ['CASE', 1, 5]) });
    expect(one.statusCode).toBe(400);
    expect(one.json()).toMatchObject({ code: 'NOT_A_MULTIPLE', errors: [{ pointer: '/lines/1', code: 'NOT_A_MULTIPLE', message: 'CASE is sold by the case of 12 units; the cart holds 5' }] });
    const several = (await place('S-CASE', { lines: lines(['MIN', 1, 2], ['MAX', 1, 30]) })).json();
    expect(several).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(several.errors).toEqual([
      { pointer: '/lines/1', code: 'ABOVE_MAXIMUM_UNITS', message: 'MAX is ordered 24 units at most; the cart holds 30' },
      { pointer: '/lines/0', code: 'BELOW_MINIMUM_UNITS', message: 'MIN is ordered 6 units at least; the cart holds 2' },
    ]);
    const placed = ok(await place('S-CASE', { lines: lines(['CASE', 12, 1], ['MIN', 1, 6], ['BOTH', 1, 30]) }));
    expect(placed).toMatchObject({ status: 'PENDING', total: 1200 + 600 + 3000 });
  });
});

describe('the product batch carries the case rules', () => {
  it('writes them, keeps them when left out, clears them with null, and fails an item whose minUnits is above its maxUnits', async () => {
    const base = { name: 'R', brandInternalCode: 'B', categoryInternalCode: 'C' };
    const [first] = await batch('/batch/product', {
      upsert: [
        { internalCode: 'R-1', ...base, minUnits: 2, maxUnits: 48, multiple: 6 },
        { internalCode: 'R-2', ...base, multiple: 4 },
        // Two items of one code in one chunk: the later sends only maxUnits, the earlier's others stay.
        { internalCode: 'R-2', ...base, maxUnits: 40 },
        { internalCode: 'R-BAD', ...base, minUnits: 10, maxUnits: 5 },
      ],
    });
    expect(first).toMatchObject({ total: 4, failed: 1 });
    // The detail shows each item as sent, the new fields in the schema's order after the others.
    const { detail } = ok(await as(t, s, 'GET', `/batch/${first.batchId}/detail`));
    expect(JSON.parse(detail[0].batchItem)).toEqual({ internalCode: 'R-1', ...base, minUnits: 2, maxUnits: 48, multiple: 6 });
    expect(JSON.parse(detail[2].batchItem)).toEqual({ internalCode: 'R-2', ...base, maxUnits: 40 });
    expect(detail[3]).toMatchObject({ status: 'failed', errorCode: 'INVALID_VALUE', message: 'minUnits is above maxUnits: no quantity could be ordered' });
    expect(ok(await as(t, s, 'GET', '/product/R-1'))).toMatchObject({ minUnits: 2, maxUnits: 48, multiple: 6 });
    expect(ok(await as(t, s, 'GET', '/product/R-2'))).toMatchObject({ multiple: 4, maxUnits: 40 });
    expect(ok(await as(t, s, 'GET', '/product/R-2'))).not.toHaveProperty('minUnits');
    expect((await as(t, s, 'GET', '/product/R-BAD')).statusCode).toBe(404);
    // A product without rules answers as before: none of the fields.
    const plain = ok(await as(t, s, 'GET', '/product/P'));
    for (const field of ['minUnits', 'maxUnits', 'multiple']) expect(plain).not.toHaveProperty(field);

    await batch('/batch/product', { upsert: [{ internalCode: 'R-1', ...base, name: 'renamed' }, { internalCode: 'R-2', ...base, multiple: null }] });
    expect(ok(await as(t, s, 'GET', '/product/R-1'))).toMatchObject({ name: 'renamed', minUnits: 2, maxUnits: 48, multiple: 6 });
    const cleared = ok(await as(t, s, 'GET', '/product/R-2'));
    expect(cleared).toMatchObject({ maxUnits: 40 });
    expect(cleared).not.toHaveProperty('multiple');
    const row = await t.deps.db.selectFrom('products').select(['min_units', 'max_units', 'multiple']).where('internal_code', '=', 'R-2').where('supplier_id', '=', s.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ min_units: null, max_units: 40, multiple: null });
  });

  it('refuses a rule that is not a whole number of 1 or more as the structure of the request (402, a pointer each)', async () => {
    const res = await as(t, s, 'POST', '/batch/product', {
      upsert: [{ internalCode: 'X', name: 'X', brandInternalCode: 'B', categoryInternalCode: 'C', multiple: 0, minUnits: 1.5, maxUnits: '3' }],
    });
    expect(res.statusCode).toBe(402);
    const pointers = res.json().errors.map((e: { pointer: string }) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/upsert/0/multiple', '/upsert/0/minUnits', '/upsert/0/maxUnits']));
  });

  it('keeps the rows of a store-wide sum cheap: the orders of a store and date have their own index', async () => {
    const index = await sql<{ n: number }>`select count(*)::int as n from pg_indexes where indexname = 'orders_store_delivery'`.execute(t.deps.db);
    expect(index.rows[0]!.n).toBe(1);
  });
});
