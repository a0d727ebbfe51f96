// Delivery zones through the real HTTP layer (src/modules/delivery/README.md): zones
// written and refused, a store's zone, the delivery options a store sees, orders placed
// before and one second after a strict cut-off, a flexible zone in another timezone, a
// closed and a moved date, the route's list, and delivery.cutoff_reached sent once, only
// to a subscribed supplier. The app's clock is moved; nothing waits.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceCutoffs } from '../../src/modules/delivery/delivery.cutoffs.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { OffsetClock } from '../helpers/clock.ts';

const clock = new OffsetClock();
/** Moves the app's clock to an instant (forward only: tokens were issued at the first). */
const setClock = (iso: string) => {
  const by = Date.parse(iso) - clock.now().getTime();
  expect(by, `the clock only moves forward (to ${iso})`).toBeGreaterThanOrEqual(0);
  clock.advance(by);
};

// Wednesday 2027-03-03, a minute before Bogotá's 18:00 (23:00Z): Thursday's orders close at 23:00Z.
const T0 = '2027-03-03T22:59:00.000Z';
const CUTOFF = '2027-03-03T23:00:00.000Z';

/** Thursdays, ordered by Wednesday 18:00 in Bogotá; the 11th closed, the 18th moved to Friday the 19th. */
const NORTE = {
  name: 'Norte',
  timezone: 'America/Bogota',
  cutoffMode: 'strict',
  days: [{ weekday: 4, cutoff: { daysBefore: 1, time: '18:00' } }],
  exceptions: [
    { date: '2027-03-11', closed: true },
    { date: '2027-03-18', movedTo: '2027-03-19' },
  ],
  // soft: these one-line orders are below it and still taken (the minimum's modes: test/pricing-rules/minimums.test.ts).
  minimumOrder: { amount: 150000, mode: 'soft' },
};
/** The same Thursdays from São Paulo (-03:00), ordered by Wednesday 20:00 there: the same instant, flexible. */
const SUR = {
  name: 'Sur',
  timezone: 'America/Sao_Paulo',
  cutoffMode: 'flexible',
  days: [{ weekday: 4, cutoff: { daysBefore: 1, time: '20:00' } }],
};

let t: TestApp;
let s: TestSupplier;
let other: TestSupplier;
let token: string;
const storeIds: Record<string, number> = {};

const app = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.request({ method, url, payload: payload as never, headers: { authorization: `Bearer ${token}` } });
const place = (store: string, body: Record<string, unknown> = {}) =>
  app('POST', `/app/stores/${storeIds[store]}/orders`, { lines: [{ productInternalCode: 'P1', units: 1, quantity: 1 }], ...body });
const ok = (res: { statusCode: number; body: string }) => {
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(res.body);
};
async function batch(url: string, body: unknown, supplier = s) {
  const { statuses } = await t.runBatch(supplier, url, body);
  return statuses;
}

beforeAll(async () => {
  t = await createTestApp({ clock });
  setClock(T0);
  s = await t.supplier();
  other = await t.supplier();
  await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'C' });
  await batch('/batch/brand', [{ internalCode: 'B', name: 'B' }]);
  await batch('/batch/product', { upsert: [{ internalCode: 'P1', name: 'Cola', brandInternalCode: 'B', categoryInternalCode: 'C' }] });
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  await batch('/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'PL', productInternalCode: 'P1', units: 1, price: 1500 }] } });
  ok(await as(t, s, 'PUT', '/deliveryzone/NORTE', NORTE));
  const [zones] = await batch('/batch/deliveryzone', { upsert: [{ internalCode: 'SUR', ...SUR }] });
  expect(zones.failed, JSON.stringify(zones)).toBe(0);
  const stores = ['S-NORTE', 'S-SUR', 'S-NONE'].map((internalCode) => ({ internalCode, name: internalCode, priceListCode: 'PL' }));
  await batch('/batch/store', { upsert: [{ ...stores[0], deliveryZoneCode: 'NORTE' }, { ...stores[1], deliveryZoneCode: 'SUR' }, stores[2]] });
  for (const store of stores) await as(t, s, 'POST', `/store/${store.internalCode}/add/user`, { users: [{ email: 'ana@example.com' }] });
  token = ok(await t.admin('POST', '/admin/store-users/token', { email: 'ana@example.com' })).access_token;
  for (const store of ok(await app('GET', '/app/me')).stores) storeIds[store.internalCode] = store.id;
});
afterAll(() => t.close());

describe('delivery zones', () => {
  it('answers a zone as written, its defaults filled, in GET and the list', async () => {
    const zone = ok(await as(t, s, 'GET', '/deliveryzone/NORTE'));
    expect(zone).toMatchObject({ ...NORTE, internalCode: 'NORTE' });
    expect(ok(await as(t, s, 'GET', '/deliveryzone/SUR'))).toMatchObject({ ...SUR, exceptions: [], minimumOrder: null });
    const list = ok(await as(t, s, 'GET', '/deliveryzone?search=nor'));
    expect(list).toMatchObject({ total: 1, data: [{ internalCode: 'NORTE' }] });
  });

  it('refuses rules the schema cannot check, each with a pointer, and writes nothing', async () => {
    const res = await as(t, s, 'PUT', '/deliveryzone/BAD', {
      name: 'Bad',
      timezone: 'Mars/Olympus',
      days: [
        { weekday: 4, cutoff: { daysBefore: 1, time: '18:00' } },
        { weekday: 4, cutoff: { daysBefore: 2, time: '08:00' } },
      ],
      exceptions: [{ date: '2027-03-11', closed: true, movedTo: '2027-03-12' }, { date: '2027-03-12' }, { date: '2027-03-12', movedTo: '2027-03-12' }],
      minimumOrder: { amount: 1000, mode: 'fee' },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(res.json().errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code])).toEqual([
      ['/timezone', 'INVALID_VALUE'],
      ['/days/1/weekday', 'INVALID_VALUE'],
      ['/exceptions/0/movedTo', 'MUTUALLY_EXCLUSIVE'],
      ['/exceptions/1', 'REQUIRED'],
      ['/exceptions/2/movedTo', 'INVALID_VALUE'],
      ['/exceptions/2/date', 'INVALID_VALUE'],
      ['/minimumOrder/fee', 'REQUIRED'],
    ]);
    const schema = await as(t, s, 'PUT', '/deliveryzone/BAD', { name: 'Bad', timezone: 'UTC', days: [{ weekday: 8, cutoff: { daysBefore: 1, time: '25:00' } }], minimumOrder: { amount: -1, mode: 'cheap' } });
    expect(schema.statusCode).toBe(400);
    expect(schema.json().errors.map((e: { pointer: string }) => e.pointer)).toEqual(
      expect.arrayContaining(['/days/0/weekday', '/days/0/cutoff/time', '/minimumOrder/amount', '/minimumOrder/mode']),
    );
    expect((await as(t, s, 'GET', '/deliveryzone/BAD')).statusCode).toBe(404);
  });

  it('fails a batch item with bad rules alone, and keeps the last of one code', async () => {
    const [status] = await batch('/batch/deliveryzone', {
      upsert: [
        { internalCode: 'OESTE', ...SUR, name: 'first' },
        { internalCode: 'LEJOS', ...SUR, timezone: 'Nowhere/City' },
        { internalCode: 'OESTE', ...SUR, name: 'Oeste', minimumOrder: { amount: 50000, mode: 'fee', fee: 3000 } },
      ],
    });
    expect(status).toMatchObject({ completed: 2, failed: 1 });
    expect(ok(await as(t, s, 'GET', '/deliveryzone/OESTE'))).toMatchObject({ name: 'Oeste', minimumOrder: { amount: 50000, mode: 'fee', fee: 3000 } });
    expect((await as(t, s, 'GET', '/deliveryzone/LEJOS')).statusCode).toBe(404);
  });

  it("shows a store's zone only when it has one, fails an unknown zone, and null takes the store out", async () => {
    expect(ok(await as(t, s, 'GET', '/store/S-NORTE')).deliveryZoneCode).toBe('NORTE');
    expect(ok(await as(t, s, 'GET', '/store/S-NONE'))).not.toHaveProperty('deliveryZoneCode');
    const [status] = await batch('/batch/store', {
      upsert: [
        { internalCode: 'S-TMP', name: 'tmp', deliveryZoneCode: 'NOWHERE' },
        { internalCode: 'S-TMP2', name: 'tmp', deliveryZoneCode: 'SUR' },
        { internalCode: 'S-TMP2', name: 'tmp' },
      ],
    });
    expect(status).toMatchObject({ completed: 2, failed: 1 });
    const detail = ok(await as(t, s, 'GET', `/batch/${status.batchId ?? status.id}/detail`));
    expect(detail.detail[0]).toMatchObject({ status: 'failed', errorCode: 'UNKNOWN_DELIVERY_ZONE' });
    expect(JSON.parse(detail.detail[1].batchItem)).toEqual({ internalCode: 'S-TMP2', name: 'tmp', deliveryZoneCode: 'SUR' });
    // The later item left the zone out: the earlier one's stays.
    expect(ok(await as(t, s, 'GET', '/store/S-TMP2')).deliveryZoneCode).toBe('SUR');
    await batch('/batch/store', { upsert: [{ internalCode: 'S-TMP2', name: 'tmp', deliveryZoneCode: null }] });
    expect(ok(await as(t, s, 'GET', '/store/S-TMP2'))).not.toHaveProperty('deliveryZoneCode');
  });
});

describe('delivery options and orders around the cut-off', () => {
  it('answers the next dates: a closed date left out, a moved one on its new date, its cut-off counted from it', async () => {
    const { data } = ok(await app('GET', `/app/stores/${storeIds['S-NORTE']}/delivery-options`));
    expect(data).toHaveLength(14);
    expect(data.slice(0, 3)).toEqual([
      { date: '2027-03-04', cutoffAt: CUTOFF, cutoffLocal: '2027-03-03T18:00:00-05:00', afterCutoff: false },
      { date: '2027-03-19', cutoffAt: '2027-03-18T23:00:00.000Z', cutoffLocal: '2027-03-18T18:00:00-05:00', afterCutoff: false },
      { date: '2027-03-25', cutoffAt: '2027-03-24T23:00:00.000Z', cutoffLocal: '2027-03-24T18:00:00-05:00', afterCutoff: false },
    ]);
    expect(ok(await as(t, s, 'GET', '/store/S-NORTE/delivery-options'))).toEqual({ data });
    const sur = ok(await app('GET', `/app/stores/${storeIds['S-SUR']}/delivery-options`)).data;
    expect(sur[0]).toEqual({ date: '2027-03-04', cutoffAt: CUTOFF, cutoffLocal: '2027-03-03T20:00:00-03:00', afterCutoff: false });
    expect(ok(await app('GET', `/app/stores/${storeIds['S-NONE']}/delivery-options`))).toEqual({ data: [] });
  });

  it('places an order for the first date by default, and refuses a date that is not a delivery', async () => {
    const order = ok(await place('S-NORTE'));
    expect(order).toMatchObject({ deliveryDate: '2027-03-04', afterCutoff: false, status: 'PENDING' });
    for (const date of ['2027-03-05', '2027-03-11', '2027-03-18']) {
      const refused = await place('S-NORTE', { deliveryDate: date });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'NOT_A_DELIVERY_DAY', errors: [{ pointer: '/deliveryDate', code: 'NOT_A_DELIVERY_DAY' }] });
      expect(refused.json().detail).toContain('next delivery dates: 2027-03-04, 2027-03-19, 2027-03-25');
    }
    expect(ok(await place('S-NORTE', { deliveryDate: '2027-03-19' }))).toMatchObject({ deliveryDate: '2027-03-19', afterCutoff: false });
  });

  it('keeps a store without a zone as it was: no date, no afterCutoff, unless it asks for a date', async () => {
    const order = ok(await place('S-NONE'));
    expect(order.deliveryDate).toBeNull();
    expect(order).not.toHaveProperty('afterCutoff');
    expect(ok(await place('S-NONE', { deliveryDate: '2027-03-09' })).deliveryDate).toBe('2027-03-09');
    const past = await place('S-NONE', { deliveryDate: '2027-03-02' });
    expect(past.json()).toMatchObject({ code: 'INVALID_VALUE', errors: [{ pointer: '/deliveryDate' }] });
  });

  it('one second after a strict cut-off refuses that date (CUTOFF_PASSED, naming the next) and defaults to the next', async () => {
    setClock('2027-03-03T23:00:01.000Z');
    const refused = await place('S-NORTE', { deliveryDate: '2027-03-04' });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'CUTOFF_PASSED', errors: [{ pointer: '/deliveryDate', code: 'CUTOFF_PASSED' }] });
    expect(refused.json().detail).toBe('orders for 2027-03-04 are closed (its cut-off has passed); next delivery dates: 2027-03-19, 2027-03-25, 2027-04-01, 2027-04-08, 2027-04-15');
    expect(ok(await place('S-NORTE'))).toMatchObject({ deliveryDate: '2027-03-19', afterCutoff: false });
    expect(ok(await app('GET', `/app/stores/${storeIds['S-NORTE']}/delivery-options`)).data[0].date).toBe('2027-03-19');
  });

  it('a flexible zone still takes the date after its cut-off, flagged, in the answer, the webhook and the supplier reads', async () => {
    const options = ok(await app('GET', `/app/stores/${storeIds['S-SUR']}/delivery-options`)).data;
    expect(options.slice(0, 2).map((o: { date: string; afterCutoff: boolean }) => [o.date, o.afterCutoff])).toEqual([
      ['2027-03-04', true],
      ['2027-03-11', false],
    ]);
    const late = ok(await place('S-SUR', { deliveryDate: '2027-03-04' }));
    expect(late).toMatchObject({ deliveryDate: '2027-03-04', afterCutoff: true });
    expect(ok(await as(t, s, 'GET', `/order/${late.id}`))).toEqual(late);
    const event = await sql<{ body: string }>`select body from webhook_events where type = 'order.created' and ordering_key = ${`order:${late.id}`}`.execute(t.deps.db);
    expect(JSON.parse(event.rows[0]!.body)).toEqual(late);
    // The supplier may still confirm another date, as always.
    expect(ok(await as(t, s, 'PUT', `/order/${late.id}/confirm`, { deliveryDate: '2027-03-05' }))).toMatchObject({ deliveryDate: '2027-03-05', afterCutoff: true });
  });

  it("lists what a route loads: GET /order by delivery date and zone", async () => {
    const route = ok(await as(t, s, 'GET', '/order?deliveryDate=2027-03-04&deliveryZone=NORTE'));
    expect(route.total).toBe(1);
    expect(route.data[0]).toMatchObject({ deliveryDate: '2027-03-04', buyer: { storeInternalCode: 'S-NORTE' } });
    expect(ok(await as(t, s, 'GET', '/order?deliveryDate=2027-03-19&deliveryZone=NORTE')).total).toBe(2);
    expect(ok(await as(t, s, 'GET', '/order?deliveryZone=NOWHERE')).total).toBe(0);
    expect(ok(await as(t, other, 'GET', '/order?deliveryZone=NORTE')).total).toBe(0);
  });
});

describe('delivery.cutoff_reached', () => {
  const events = () =>
    sql<{ supplier_id: number; body: string; path: string; ordering_key: string }>`select supplier_id, body, path, ordering_key from webhook_events where type = 'delivery.cutoff_reached' order by id`.execute(
      t.deps.db,
    );

  it('is sent once per zone and date, after the cut-off, only to a supplier subscribed to it', async () => {
    // The other supplier has a zone of its own whose cut-off passes too, and never subscribed.
    ok(await as(t, other, 'PUT', '/deliveryzone/NORTE', NORTE));
    const set = ok(await as(t, s, 'PUT', '/webhook', { baseUrl: 'https://erp.example/hooks', enabled: false, events: ['delivery.cutoff_reached'] }));
    expect(set.events).toEqual(['delivery.cutoff_reached']);
    expect(ok(await as(t, s, 'GET', '/webhook')).events).toEqual(['delivery.cutoff_reached']);
    // Left out, the subscription stays.
    expect(ok(await as(t, s, 'PUT', '/webhook', { enabled: false })).events).toEqual(['delivery.cutoff_reached']);

    // Zones created at T0 whose first cut-off was at 23:00Z; a second after it, the job
    // waits for orders accepted just before it to commit.
    expect(await announceCutoffs({ db: t.deps.db, clock })).toBe(0);
    setClock('2027-03-03T23:00:15.000Z');
    const runs = await Promise.all([0, 1, 2].map(() => announceCutoffs({ db: t.deps.db, clock })));
    // S's NORTE and SUR and OESTE, the other's NORTE: each claimed by one run only.
    expect(runs.reduce((a, b) => a + b, 0)).toBe(4);
    expect(await announceCutoffs({ db: t.deps.db, clock })).toBe(0);

    const sent = (await events()).rows;
    expect(sent.every((e) => e.supplier_id === s.id && e.path === '/webhooks/delivery/cutoff-reached')).toBe(true);
    const bodies = sent.map((e) => JSON.parse(e.body));
    const norte = bodies.find((b) => b.zone === 'NORTE');
    const northOrders = ok(await as(t, s, 'GET', '/order?deliveryDate=2027-03-04&deliveryZone=NORTE')).data.map((o: { id: number }) => o.id);
    expect(norte).toEqual({ zone: 'NORTE', date: '2027-03-04', cutoffAt: CUTOFF, orderIds: northOrders });
    expect(bodies.map((b) => b.zone).sort()).toEqual(['NORTE', 'OESTE', 'SUR']);
    const claimed = await sql<{ n: number }>`select count(*)::int as n from delivery_cutoffs`.execute(t.deps.db);
    expect(claimed.rows[0]!.n).toBe(4);
    // In the supplier's delivery log, by its type.
    const log = ok(await as(t, s, 'GET', '/webhook/deliveries?eventType=delivery.cutoff_reached'));
    expect(log.total).toBe(3);
    expect(ok(await as(t, other, 'GET', '/webhook/deliveries')).data.some((d: { eventType: string }) => d.eventType === 'delivery.cutoff_reached')).toBe(false);
  });

  it('unsubscribing ([]) stops it, and the answer goes back to what it was', async () => {
    const set = ok(await as(t, s, 'PUT', '/webhook', { enabled: false, events: [] }));
    expect(set).not.toHaveProperty('events');
    expect(ok(await as(t, s, 'GET', '/webhook'))).not.toHaveProperty('events');
    const refused = await as(t, s, 'PUT', '/webhook', { enabled: false, events: ['order.created'] });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().errors[0].pointer).toBe('/events/0');
    const before = (await events()).rows.length;
    // Two weeks on (the supplier's tokens have expired: only the job runs), the moved delivery's cut-off passes.
    setClock('2027-03-18T23:00:30.000Z');
    expect(await announceCutoffs({ db: t.deps.db, clock })).toBeGreaterThan(0);
    expect((await events()).rows.length).toBe(before);
    const moved = await sql<{ date: string; cutoff_at: Date }>`select delivery_date::text as date, cutoff_at from delivery_cutoffs where delivery_date = '2027-03-19'`.execute(t.deps.db);
    expect(moved.rows.map((r) => r.cutoff_at.toISOString())).toEqual(['2027-03-18T23:00:00.000Z', '2027-03-18T23:00:00.000Z']);
  });
});

describe('isolation', () => {
  it("never shows or touches another supplier's zone: its own PUT with the same code writes its own", async () => {
    // A credential of S logged in now (the clock moved past its first tokens).
    const sNow = await t.credential(s, ['supplier/store.read']);
    const before = ok(await as(t, sNow, 'GET', '/deliveryzone/SUR'));
    const third = await t.supplier();
    expect((await as(t, third, 'GET', '/deliveryzone/SUR')).statusCode).toBe(404);
    expect(ok(await as(t, third, 'GET', '/deliveryzone')).total).toBe(0);
    expect((await as(t, third, 'GET', '/store/S-SUR/delivery-options')).statusCode).toBe(404);
    ok(await as(t, third, 'PUT', '/deliveryzone/SUR', { ...SUR, name: 'Third' }));
    expect(ok(await as(t, sNow, 'GET', '/deliveryzone/SUR'))).toEqual(before);
    const [status] = await batch('/batch/store', { upsert: [{ internalCode: 'T-1', name: 'T', deliveryZoneCode: 'OESTE' }] }, third);
    expect(status).toMatchObject({ failed: 1 });
  });
});
