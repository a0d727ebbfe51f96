// The store app's isolation over its whole route table: person P2 (stores S2 of supplier
// A and S3 of supplier C) calls every /app route that names a store, an order or a ticket
// with person P1's (store S1 of A, its orders and tickets), and must be answered exactly
// as for an identifier nobody has (404), without a row of the database changing. A store
// route with a path parameter and no rule below fails the first test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { fingerprint, publicTables } from './fingerprint.ts';
import { asPerson, buildWorld, comparable, MISSING, type Person, type World } from './world.ts';

interface EntityRule {
  /** P1's identifiers for the route's first path parameter (several where the state matters). */
  ids: (w: World) => number[];
  /** A body the route accepts, so the request gets past validation to the lookup. */
  body?: (w: World) => unknown;
  /** The route's other path parameters, by name: P1's own, so only the first one is foreign. */
  rest?: (w: World) => Record<string, string | number>;
}
/** A path parameter that does not name a store, order or ticket (none today). */
interface NotAnEntity {
  notAnEntity: string;
}
type Rule = EntityRule | NotAnEntity;

const store = (body?: EntityRule['body']): EntityRule => ({ ids: (w) => [w.stores.s1], ...(body ? { body } : {}) });
const orders = (body?: EntityRule['body']): EntityRule => ({ ids: (w) => Object.values(w.orders), ...(body ? { body } : {}) });
const tickets = (body?: EntityRule['body']): EntityRule => ({ ids: (w) => Object.values(w.tickets), ...(body ? { body } : {}) });
const lines = (w: World) => ({ lines: [{ productInternalCode: w.codes.product, units: 1, quantity: 1 }] });
/** A store route with a second path parameter naming P1's own entity. */
const storeWith = (rest: EntityRule['rest'], body?: EntityRule['body']): EntityRule => ({ ...store(body), rest });

/** Keyed by `METHOD url` as the route table has them. */
const RULES: Record<string, Rule> = {
  'GET /app/stores/:storeId/catalog': store(),
  'GET /app/stores/:storeId/catalog/filters': store(),
  'GET /app/stores/:storeId/products/:code': storeWith((w) => ({ code: w.codes.product })),
  'GET /app/stores/:storeId/promotions': store(),
  'GET /app/stores/:storeId/cancel-codes': store(),
  'GET /app/stores/:storeId/delivery-options': store(),
  'GET /app/stores/:storeId/account': store(),
  'POST /app/stores/:storeId/cart': store(lines),
  'POST /app/stores/:storeId/orders': store(lines),
  'GET /app/stores/:storeId/orders': store(),
  'POST /app/stores/:storeId/tickets': store(() => ({ message: 'Opened by P2' })),
  'GET /app/stores/:storeId/tickets': store(),
  'GET /app/stores/:storeId/order-guide': store(),
  'PUT /app/stores/:storeId/order-guide/:productInternalCode': storeWith((w) => ({ productInternalCode: w.codes.product }), () => ({ pinned: true })),
  'POST /app/stores/:storeId/order-guide/fill': store((w) => ({ counts: [{ productInternalCode: w.codes.product, onHand: 1 }] })),
  'POST /app/stores/:storeId/orders/:orderId/repeat': storeWith((w) => ({ orderId: w.orders.delivered })),
  'GET /app/stores/:storeId/recommendations': store(),
  'GET /app/stores/:storeId/seller-settings': store(),
  'PUT /app/stores/:storeId/seller-settings': store(() => ({ confirmSellerOrders: false })),
  'GET /app/stores/:storeId/seller-proposals': store(),
  'POST /app/stores/:storeId/seller-proposals/:proposalId/accept': storeWith((w) => ({ proposalId: w.proposalId })),
  'POST /app/stores/:storeId/seller-proposals/:proposalId/decline': storeWith((w) => ({ proposalId: w.proposalId })),
  'GET /app/orders/:id': orders(),
  'POST /app/orders/:id/cancel': orders(() => ({ cancelCode: 'NEW_ORDER' })),
  'GET /app/tickets/:id': tickets(),
  'POST /app/tickets/:id/answer': tickets(() => ({ message: 'Answered by P2' })),
};

let t: TestApp;
let w: World;
let tables: string[];
let requests = 0;

const routeKey = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const entityRoutes = () => t.app.guardedRoutes.filter((r) => r.auth === 'store' && r.url.includes(':'));
const fill = (url: string, value: number, rest: Record<string, string | number> = {}) =>
  url.replace(/:\w+/, String(value)).replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(rest[name])));

function send(p: Person, method: string, url: string, body?: unknown) {
  requests++;
  return asPerson(t, p, method as 'GET' | 'POST' | 'PUT', url, method === 'GET' ? undefined : (body ?? {}));
}

/**
 * Calls every entity route as `who` with a missing identifier (404) and with each of
 * `foreign(url, rule)`, whose answers must equal the missing one's.
 */
async function answeredAsMissing(who: Person, foreign: (url: string, rule: EntityRule) => number[], label: (value: number) => string) {
  for (const route of entityRoutes()) {
    const rule = RULES[routeKey(route)]!;
    if ('notAnEntity' in rule) continue;
    const body = rule.body?.(w);
    const rest = rule.rest?.(w);
    const missing = await send(who, route.method, fill(route.url, MISSING.id, rest), body);
    expect(missing.statusCode, `${routeKey(route)} with a missing identifier: ${missing.body}`).toBe(404);
    for (const value of foreign(route.url, rule)) {
      const res = await send(who, route.method, fill(route.url, value, rest), body);
      expect(comparable(res, value), `${routeKey(route)} with ${label(value)}`).toEqual(comparable(missing, MISSING.id));
    }
  }
}

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  tables = await publicTables(t.deps.db);
});
afterAll(async () => {
  console.log(`app isolation: ${entityRoutes().length} store routes with a path parameter, ${requests} requests`);
  await t.close();
});

describe('the store app isolation matrix', () => {
  it('has a rule for every store route with a path parameter, and no rule for a route that is gone', () => {
    const keys = entityRoutes().map(routeKey);
    expect(keys.length).toBeGreaterThanOrEqual(11);
    expect(keys.filter((k) => !(k in RULES)), 'store routes with a path parameter and no isolation rule').toEqual([]);
    expect(Object.keys(RULES).filter((k) => !keys.includes(k)), 'rules for routes the app no longer has').toEqual([]);
    for (const route of entityRoutes()) {
      const rule = RULES[routeKey(route)]!;
      const others = 'rest' in rule && rule.rest ? Object.keys(rule.rest(w)).length : 0;
      expect(route.url.match(/:\w+/g), `${routeKey(route)}: one path parameter, or the others given by its rule`).toHaveLength(1 + others);
    }
  });

  it("answers another person's store, order and ticket exactly as a missing one, on every route, and writes nothing", async () => {
    const before = await fingerprint(t.deps.db, tables);
    await answeredAsMissing(w.p2, (_, rule) => rule.ids(w), (value) => `P1's ${value}`);
    // Identifiers in a body: a ticket about P1's order, and reading P1's notifications.
    const about = (orderId: number) => send(w.p2, 'POST', `/app/stores/${w.stores.s2}/tickets`, { message: 'About an order', orderId });
    const aboutMissing = await about(MISSING.id);
    expect(aboutMissing.json(), aboutMissing.body).toMatchObject({ status: 400, code: 'UNKNOWN_ORDER' });
    for (const orderId of Object.values(w.orders)) expect(comparable(await about(orderId), orderId)).toEqual(comparable(aboutMissing, MISSING.id));
    // Supplier A's product in a cart and an order at supplier C's store S3.
    for (const url of [`/app/stores/${w.stores.s3}/cart`, `/app/stores/${w.stores.s3}/orders`]) {
      const withCode = (productInternalCode: string) => send(w.p2, 'POST', url, { lines: [{ productInternalCode, units: 1, quantity: 1 }] });
      const nobody = await withCode(MISSING.code);
      expect(nobody.body, url).toContain('UNKNOWN_PRODUCT');
      expect(comparable(await withCode(w.codes.product), w.codes.product), url).toEqual(comparable(nobody, MISSING.code));
    }
    // P1's orders repeated from P2's own store S2 (same supplier): as an order nobody has.
    const repeat = (orderId: number) => send(w.p2, 'POST', `/app/stores/${w.stores.s2}/orders/${orderId}/repeat`);
    const repeatMissing = await repeat(MISSING.id);
    expect(repeatMissing.statusCode, repeatMissing.body).toBe(404);
    for (const orderId of Object.values(w.orders)) expect(comparable(await repeat(orderId), orderId)).toEqual(comparable(repeatMissing, MISSING.id));
    // Supplier A's product in supplier C's store S3's order guide: as a product nobody has.
    const pin = (code: string) => send(w.p2, 'PUT', `/app/stores/${w.stores.s3}/order-guide/${encodeURIComponent(code)}`, { pinned: true });
    const pinMissing = await pin(MISSING.code);
    expect(pinMissing.statusCode, pinMissing.body).toBe(404);
    expect(comparable(await pin(w.codes.product), w.codes.product)).toEqual(comparable(pinMissing, MISSING.code));
    const read = await send(w.p2, 'POST', '/app/notifications/read', { ids: w.notificationIds });
    expect(read.json(), read.body).toEqual({ read: [] });
    expect(await fingerprint(t.deps.db, tables), "the database after P2 tried every route on P1's things").toEqual(before);
  });

  // A seller (src/modules/sellers) reaches exactly the stores its supplier lists for them:
  // V2, A's seller serving S2 only, is answered on every route with S1's identifiers (A's
  // store it does not serve) and S3's (C's) exactly as for a missing one, and writes nothing.
  it("answers a seller on another store of its supplier, or another supplier's, exactly as a missing one, and writes nothing", async () => {
    const before = await fingerprint(t.deps.db, tables);
    await answeredAsMissing(w.v2, (url, rule) => (url.startsWith('/app/stores/:storeId') ? [w.stores.s1, w.stores.s3] : rule.ids(w)), String);
    const me = (await send(w.v2, 'GET', '/app/me')).json();
    expect(me.stores.map((s: { id: number; access?: string }) => [s.id, s.access])).toEqual([[w.stores.s2, 'SELLER']]);
    expect(await fingerprint(t.deps.db, tables), "the database after V2 tried every route on stores it does not serve").toEqual(before);
  });

  it("shows P2 only P2's own stores, orders, tickets and notifications", async () => {
    const me = (await send(w.p2, 'GET', '/app/me')).json();
    expect(me.stores.map((s: { id: number }) => s.id).sort()).toEqual([w.stores.s2, w.stores.s3].sort());
    expect((await send(w.p2, 'GET', `/app/stores/${w.stores.s3}/recommendations`)).json()).toEqual({ data: [] });
    expect((await send(w.p2, 'GET', `/app/stores/${w.stores.s3}/order-guide`)).json().data).toEqual([]);
    for (const url of ['/app/notifications', `/app/stores/${w.stores.s2}/orders`, `/app/stores/${w.stores.s2}/tickets`, `/app/stores/${w.stores.s3}/orders`]) {
      const res = await send(w.p2, 'GET', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(res.json().total, url).toBe(0);
    }
  });

  // Last: it places, cancels and answers.
  it('lets P1 reach every store, order and ticket of the matrix (so the 404s were isolation, not a bad request)', async () => {
    for (const route of entityRoutes()) {
      const rule = RULES[routeKey(route)]!;
      if ('notAnEntity' in rule) continue;
      for (const value of rule.ids(w)) {
        const res = await send(w.p1, route.method, fill(route.url, value, rule.rest?.(w)), rule.body?.(w));
        // 409: the order or ticket is in a state that forbids the move, which only its owner may learn.
        expect([200, 409], `${routeKey(route)} with ${value}: ${res.body}`).toContain(res.statusCode);
      }
    }
  });
});
