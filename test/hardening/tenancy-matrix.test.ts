// Tenancy over the whole route table: supplier B calls every supplier route that names an
// entity in its path with supplier A's identifiers, and must be answered exactly as for an
// identifier nobody has (404, same code, same words but for the identifier), without a
// row of the database changing. The matrix is the route table itself: a supplier route
// with a path parameter and no rule below fails the first test, so a new route cannot
// go unchecked. The same matrix runs for A's own test twin (src/modules/sandbox): a test
// credential and a console session in test mode reach none of A's live entities either.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPLIER_SCOPES } from '../../src/modules/auth/scopes.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { testCredential, testModeSession } from '../helpers/sandbox.ts';
import { fingerprint, publicTables } from './fingerprint.ts';
import { buildWorld, comparable, MISSING, type World } from './world.ts';

type Id = string | number;

interface EntityRule {
  /** A's identifiers for the route's one path parameter (several where the entity's state matters). */
  ids: (w: World) => Id[];
  /** Nobody's identifier of the same kind. */
  missing: Id;
  /** A body the route accepts, so the request gets past validation to the lookup. */
  body?: (w: World) => unknown;
}
/** A path parameter that does not name an entity of the caller's (an upsert by code: PUT /deliveryzone/{code}). */
interface NotAnEntity {
  notAnEntity: string;
}
type Rule = EntityRule | NotAnEntity;

const orderIds = (w: World) => [w.orders.pending, w.orders.confirmed, w.orders.delivered, w.orders.cancelled];
const ticketIds = (w: World) => [w.tickets.pending, w.tickets.infoRequested, w.tickets.closed];
const code = (pick: (w: World) => string[], body?: EntityRule['body']): EntityRule => ({ ids: pick, missing: MISSING.code, ...(body ? { body } : {}) });
const id = (pick: (w: World) => number[], body?: EntityRule['body']): EntityRule => ({ ids: pick, missing: MISSING.id, ...(body ? { body } : {}) });

const ORDER_BODIES: Record<string, unknown> = { confirm: {}, deliver: { complete: true }, return: { complete: true }, cancel: { cancelCode: 'OUT_OF_STOCK' } };

/** Keyed by `METHOD url` as the route table has them. */
const RULES: Record<string, Rule> = {
  'GET /batch/:uuid/status': { ids: (w) => [w.batchId], missing: MISSING.uuid },
  'GET /batch/:uuid/detail': { ids: (w) => [w.batchId], missing: MISSING.uuid },
  'GET /import/:id': { ids: (w) => [w.importId], missing: MISSING.uuid },
  'GET /import/kinds/:kind/template': { notAnEntity: 'an import kind of the platform (its template), the same for every supplier' },
  'GET /import/:id/failures': { ids: (w) => [w.importId], missing: MISSING.uuid },
  'GET /import/:id/failures/file': { ids: (w) => [w.importId], missing: MISSING.uuid },
  'GET /pricelist/:code': code((w) => [w.codes.priceList]),
  'GET /pricelist/:code/entries': code((w) => [w.codes.priceList]),
  'PUT /pricelist/:code/status': code((w) => [w.codes.priceList], () => ({ enabled: false })),
  'GET /brand/:code': code((w) => [w.codes.brand]),
  'GET /category/:code': code((w) => [w.codes.category, w.codes.subcategory]),
  'GET /product/:code': code((w) => [w.codes.product]),
  'PUT /grouper/:code/promotion': code((w) => [w.codes.promotionGrouper], () => ({ name: 'Renamed by B' })),
  'PUT /grouper/:code/status/promotion': code((w) => [w.codes.promotionGrouper], () => ({ enabled: false })),
  'GET /grouper/:code/promotion': code((w) => [w.codes.promotionGrouper]),
  'PUT /grouper/:code/stock': code((w) => [w.codes.stockGrouper], () => ({ name: 'Renamed by B' })),
  'PUT /grouper/:code/status/stock': code((w) => [w.codes.stockGrouper], () => ({ enabled: false })),
  'GET /grouper/:code/stock': code((w) => [w.codes.stockGrouper]),
  'GET /grouper/:code/stock/rules': code((w) => [w.codes.stockGrouper]),
  'GET /store/:code': code((w) => [w.codes.store1, w.codes.store2]),
  'POST /store/:code/cart': code((w) => [w.codes.store1], (w) => ({ lines: [{ productInternalCode: w.codes.product, units: 1, quantity: 1 }] })),
  'POST /store/:code/add/user': code((w) => [w.codes.store1], () => ({ users: [{ email: 'intruder@example.com' }] })),
  'POST /store/:code/remove/user': code((w) => [w.codes.store1], (w) => ({ users: [{ email: w.p1.email }] })),
  // The buyer the add/user rule gives store1 (A's own run of remove/user takes P1 off it first).
  'PUT /console/stores/:code/user': code((w) => [w.codes.store1], () => ({ current: { email: 'intruder@example.com' }, user: { email: 'intruder@example.com', name: 'Intruder' } })),
  'GET /store/:code/delivery-options': code((w) => [w.codes.store1, w.codes.store2]),
  'GET /store/:code/credit': code((w) => [w.codes.store1, w.codes.store2]),
  'PUT /store/:code/credit': code((w) => [w.codes.store1], () => ({ paymentMethods: ['CREDIT'], limit: 1 })),
  'GET /store/:code/account': code((w) => [w.codes.store1, w.codes.store2]),
  'PUT /order/:id/release': id(orderIds),
  'GET /deliveryzone/:code': code((w) => [w.codes.deliveryZone]),
  // An upsert: the code names the caller's own zone, created or replaced (B's PUT with A's
  // code writes B's own zone and leaves A's as it was: test/delivery/delivery.test.ts).
  'PUT /deliveryzone/:code': { notAnEntity: "the caller's own zone, created or replaced" },
  'PUT /promotion/:code/status': code((w) => [w.codes.promotion], () => ({ enabled: false })),
  'GET /promotion/:code': code((w) => [w.codes.promotion]),
  'GET /recommendation/:code': code((w) => [w.codes.recommendation]),
  // A PUT by code creates or replaces the caller's own recommendation: B's PUT with A's code
  // is B's, and A's stays as it was (test/recommendations/recommendations.test.ts).
  'PUT /recommendation/:code': { notAnEntity: "the caller's own recommendation, created or replaced by its code" },
  'GET /seller/:code': code((w) => [w.codes.seller]),
  // A PUT by code creates or replaces the caller's own seller (test/sellers/sellers.test.ts).
  'PUT /seller/:code': { notAnEntity: "the caller's own seller, created or replaced by its code" },
  'GET /support/ticket/:id': id(ticketIds),
  'PUT /support/ticket/:id': id(ticketIds, () => ({ status: 'SOLVED', message: 'Solved by B' })),
  'GET /webhook/deliveries/:id': id((w) => [w.deliveryId]),
  'POST /webhook/deliveries/:id/redeliver': id((w) => [w.deliveryId]),
  'PUT /member/:id': id((w) => [w.memberId], () => ({ role: 'viewer' })),
  'DELETE /member/:id': id((w) => [w.memberId]),
  'DELETE /credential/:clientId': { ids: (w) => [w.spareClientId], missing: 'cli_nobodyhasthis' },
  'GET /order/:id': id(orderIds),
  ...Object.fromEntries(
    Object.entries(ORDER_BODIES).flatMap(([op, body]) => ['PUT', 'POST'].map((method) => [`${method} /order/:id/${op}`, id(orderIds, () => body)])),
  ),
};

/** Supplier routes that address A's entities in their body rather than their path. */
interface Addressed {
  body: unknown;
  id: Id;
}
const BODY_ADDRESSED: { method: 'POST' | 'PUT'; url: string; bodies: (w: World) => { foreign: Addressed; missing: Addressed }[] }[] = [
  ...(['POST /support/ticket/additional-info', 'PUT /support/ticket/close'] as const).map((route) => {
    const [method, url] = route.split(' ') as ['POST' | 'PUT', string];
    return {
      method,
      url,
      bodies: (w: World) => [
        ...ticketIds(w).map((ticketId) => ({
          foreign: { body: { ticketId, message: 'B' }, id: ticketId },
          missing: { body: { ticketId: MISSING.id, message: 'B' }, id: MISSING.id },
        })),
        {
          foreign: { body: { externalTicketId: w.externalTicketId }, id: w.externalTicketId },
          missing: { body: { externalTicketId: MISSING.code }, id: MISSING.code },
        },
      ],
    };
  }),
];

/**
 * Supplier GETs without a path parameter that answer something B has of its own (so not
 * an empty list): each checks that B sees its own and nothing of A's. A read of that kind
 * without a rule here fails the list test, since it cannot answer total 0.
 */
const OWN_READS: Record<string, (body: any, w: World, me: Caller) => void> = {
  'GET /credential': (body, w, me) => {
    expect(body.data.map((c: { clientId: string }) => c.clientId), "the caller's credentials").toEqual([me.credential.clientId]);
    expect(JSON.stringify(body)).not.toContain(w.a.clientId);
  },
  // B's own writes (its supplier and credential being made, by the operator): all about B.
  // A's twin has none (its credential was issued under A's live supplier).
  'GET /audit': (body, w, me) => {
    if (me.mode === 'live') expect(body.total, "B's audit entries").toBeGreaterThan(0);
    for (const entry of body.data) expect(entry.supplierId, JSON.stringify(entry)).toBe(me.credential.id);
    expect(JSON.stringify(body)).not.toContain(w.a.clientId);
  },
  'GET /member': (body) => expect(body.map((m: { email: string }) => m.email), "B's members").toEqual(['owner.beta@example.com']),
  'GET /webhook': (body) => expect(body, "the caller's webhook, never configured").toEqual({ baseUrl: null, enabled: false, previousSecretExpiresAt: null, updatedAt: null }),
  // The sandbox's own reads (test mode only): the twin's, with nothing of A's live data.
  'GET /sandbox/checklist': (body, _w, me) => {
    expect(me.mode).toBe('test');
    expect(body.steps.filter((s: { done: boolean }) => s.done).map((s: { key: string }) => s.key), "the twin's progress: its credential only").toEqual(['token']);
  },
  'GET /sandbox/clock': (body) => expect(body.moved, "the twin's clock: real time").toBe(false),
  'GET /supplier': (body, w, me) => expect(body, 'who the caller is').toEqual({ code: me.mode === 'live' ? w.b.code : w.a.code, name: `Supplier ${me.mode === 'live' ? w.b.code : w.a.code}`, mode: me.mode }),
};

/** A caller of the matrix: who it is, and the credential its own reads name. */
interface Caller {
  caller: TestSupplier;
  credential: TestSupplier;
  mode: 'live' | 'test';
}

/**
 * B calls with its credential (API key and token) and with its owner's console session;
 * then A's test twin calls, with a test credential and with A's owner in test mode.
 */
const CALLERS: [string, () => Caller][] = [
  ['its credential', () => ({ caller: w.b, credential: w.b, mode: 'live' })],
  ['a console session', () => ({ caller: w.bConsole, credential: w.b, mode: 'live' })],
  ["A's test credential", () => ({ caller: aTest, credential: aTest, mode: 'test' })],
  ["A's owner in test mode", () => ({ caller: aTestConsole, credential: aTest, mode: 'test' })],
];

let t: TestApp;
let w: World;
let aTest: TestSupplier;
let aTestConsole: TestSupplier;
let tables: string[];
let requests = 0;

const routeKey = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const entityRoutes = () => t.app.guardedRoutes.filter((r) => r.auth === 'supplier' && r.url.includes(':'));
const fill = (url: string, value: Id) => url.replace(/:\w+/, encodeURIComponent(String(value)));

function send(s: TestSupplier, method: string, url: string, body: unknown) {
  requests++;
  return as(t, s, method as InjectOptions['method'], url, method === 'GET' ? undefined : (body ?? {}));
}

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  aTest = await testCredential(t, w.a, [...SUPPLIER_SCOPES]);
  aTestConsole = await testModeSession(t, w.a, 'owner.alpha@example.com', 'owner');
  // A console session's renewal (at most once a minute) is the one write a refused request may make.
  tables = (await publicTables(t.deps.db)).filter((table) => table !== 'console_sessions');
});
afterAll(async () => {
  console.log(`tenancy matrix: ${entityRoutes().length} supplier routes with a path parameter, ${requests} requests`);
  await t.close();
});

describe('the tenancy matrix', () => {
  it('has a rule for every supplier route with a path parameter, and no rule for a route that is gone', () => {
    const keys = entityRoutes().map(routeKey);
    expect(keys.length).toBeGreaterThanOrEqual(30);
    expect(keys.filter((k) => !(k in RULES)), 'supplier routes with a path parameter and no tenancy rule').toEqual([]);
    expect(Object.keys(RULES).filter((k) => !keys.includes(k)), 'rules for routes the app no longer has').toEqual([]);
    for (const route of entityRoutes()) expect(route.url.match(/:\w+/g), `${routeKey(route)}: one path parameter`).toHaveLength(1);
  });

  it.each(CALLERS)("answers another supplier's entity exactly as a missing one, on every route, and writes nothing (B by %s)", async (_, bOf) => {
    const before = await fingerprint(t.deps.db, tables);
    const b = bOf().caller;
    for (const route of entityRoutes()) {
      const rule = RULES[routeKey(route)]!;
      if ('notAnEntity' in rule) continue;
      const body = rule.body?.(w);
      const missing = await send(b, route.method, fill(route.url, rule.missing), body);
      expect(missing.statusCode, `${routeKey(route)} with a missing identifier: ${missing.body}`).toBe(404);
      for (const value of rule.ids(w)) {
        const foreign = await send(b, route.method, fill(route.url, value), body);
        expect(comparable(foreign, value), `${routeKey(route)} with A's ${value}`).toEqual(comparable(missing, rule.missing));
      }
    }
    for (const route of BODY_ADDRESSED) {
      for (const { foreign, missing } of route.bodies(w)) {
        const gone = await send(b, route.method, route.url, missing.body);
        expect(gone.statusCode, `${route.method} ${route.url} ${JSON.stringify(missing.body)}: ${gone.body}`).toBe(404);
        const theirs = await send(b, route.method, route.url, foreign.body);
        expect(comparable(theirs, foreign.id), `${route.method} ${route.url} ${JSON.stringify(foreign.body)}`).toEqual(comparable(gone, missing.id));
      }
    }
    expect(await fingerprint(t.deps.db, tables), 'the database after B tried every route on A').toEqual(before);
  });

  it.each(CALLERS)("shows none of A's entities in B's lists (B by %s)", async (_, bOf) => {
    const lists = t.app.guardedRoutes.filter((r) => r.auth === 'supplier' && r.method === 'GET' && !r.url.includes(':'));
    expect(lists.length).toBeGreaterThan(4);
    expect(Object.keys(OWN_READS).filter((k) => !lists.some((r) => routeKey(r) === k)), 'rules for reads the app no longer has').toEqual([]);
    const me = bOf();
    for (const route of lists) {
      const res = await send(me.caller, 'GET', route.url, undefined);
      // A route of the other mode does not exist for this caller (src/http/route-config.ts).
      if (route.mode && route.mode !== me.mode) {
        expect(res.statusCode, `${routeKey(route)}: ${res.body}`).toBe(404);
        continue;
      }
      expect(res.statusCode, `${routeKey(route)}: ${res.body}`).toBe(200);
      expect(res.body.toLowerCase(), routeKey(route)).not.toContain('alpha');
      const body = res.json();
      const own = OWN_READS[routeKey(route)];
      if (own) own(body, w, me);
      else if (!Array.isArray(body)) expect(body.total, `${routeKey(route)}: a list of B's own, or a rule in OWN_READS`).toBe(0);
    }
  });

  // After the lists: it gives B a webhook of its own.
  it.each(CALLERS)("keeps B's writes to its own account (its webhook: URL and secret) on B's, leaving A's as they were (B by %s)", async (_, bOf) => {
    const aWebhook = () => t.deps.db.selectFrom('supplier_webhooks').selectAll().where('supplier_id', '=', w.a.id).executeTakeFirstOrThrow();
    const before = await aWebhook();
    const b = bOf().caller;
    const set = await send(b, 'PUT', '/webhook', { baseUrl: 'https://beta.example/erp', enabled: false });
    expect(set.statusCode, set.body).toBe(200);
    const rotated = await send(b, 'POST', '/webhook/rotate-secret', undefined);
    expect(rotated.statusCode, rotated.body).toBe(200);
    for (const answer of [set, rotated]) expect(answer.body).not.toContain(before.secret);
    expect(await aWebhook(), "A's webhook after B's writes").toEqual(before);
    expect((await send(b, 'GET', '/webhook', undefined)).json()).toMatchObject({ baseUrl: 'https://beta.example/erp', enabled: false });
  });

  it("refuses A's orders and stores in B's batches exactly as missing ones", async () => {
    const ordersBefore = await fingerprint(t.deps.db, ['orders']);
    const ids = [...orderIds(w), MISSING.id];
    const submitted = await send(w.b, 'POST', '/batch/order', {
      confirm: ids.map((id) => ({ id })),
      deliver: ids.map((id) => ({ id, complete: true })),
      return: ids.map((id) => ({ id, complete: true })),
      cancel: ids.map((id) => ({ id, cancelCode: 'OUT_OF_STOCK' })),
    });
    expect(submitted.statusCode, submitted.body).toBe(202);
    const imported = await send(w.b, 'POST', '/order/bulk-import', {
      orders: [w.codes.store1, MISSING.code].map((storeInternalCode) => ({
        storeInternalCode,
        createdAt: '2025-12-01',
        status: 'DELIVERED',
        products: [{ internalCode: w.codes.product, units: 1, quantity: 1, unitPrice: 1 }],
      })),
    });
    expect(imported.statusCode, imported.body).toBe(202);
    const batchIds: string[] = [...submitted.json().batchId, ...imported.json().batchId];
    await t.waitForBatches(w.b, batchIds);
    const items = (await Promise.all(batchIds.map(async (b) => (await send(w.b, 'GET', `/batch/${b}/detail`, undefined)).json().detail))).flat();
    expect(items).toHaveLength(ids.length * 4 + 2);
    // Within each action, A's identifier fails exactly as nobody's does.
    const actions = new Map<string, string[]>();
    for (const item of items as { action: string; batchItem: string; status: string; errorCode: string; message: string }[]) {
      const sent = JSON.parse(item.batchItem);
      const { body } = comparable({ statusCode: 0, headers: {}, body: JSON.stringify({ status: item.status, errorCode: item.errorCode, message: item.message }) }, sent.id ?? sent.storeInternalCode);
      actions.set(item.action, [...(actions.get(item.action) ?? []), JSON.stringify(body)]);
    }
    expect([...actions.keys()].sort()).toEqual(['cancel', 'confirm', 'deliver', 'orders', 'return']);
    for (const [action, answers] of actions) expect(new Set(answers), `${action}: ${answers.join(' ')}`).toEqual(new Set([answers.at(-1)]));
    expect(JSON.parse(actions.get('confirm')!.at(-1)!)).toMatchObject({ status: 'failed', errorCode: 'NOT_FOUND' });
    expect(await fingerprint(t.deps.db, ['orders']), "A's orders after B's batches").toEqual(ordersBefore);
  });

  it("refuses A's stores, orders and invoices in B's invoice and payment batches exactly as missing ones", async () => {
    const aAccount = async () => (await send(w.a, 'GET', `/store/${w.codes.store1}/account`, undefined)).body;
    const before = await aAccount();
    // B's own store, so that an item gets past its store to the orders and invoices it names.
    await t.waitForBatches(w.b, (await send(w.b, 'POST', '/batch/store', { upsert: [{ internalCode: 'BETA-S', name: 'BETA store' }] })).json().batchId);
    const invoice = (internalCode: string, storeInternalCode: string, orderIds: number[] = []) => ({ internalCode, storeInternalCode, orderIds, amount: 1, issuedAt: '2026-01-01T00:00:00.000Z', dueDate: '2026-01-15' });
    const payment = (internalCode: string, invoiceInternalCode: string) => ({ internalCode, storeInternalCode: 'BETA-S', amount: 1, method: 'CASH', paidAt: '2026-01-10T00:00:00.000Z', allocations: [{ invoiceInternalCode, amount: 1 }] });
    // Pairs: A's identifier, then nobody's, in the same place.
    const pairs: [unknown, unknown, string | number, string | number][] = [
      [invoice('B-F1', w.codes.store1), invoice('B-F2', MISSING.code), w.codes.store1, MISSING.code],
      ...orderIds(w).map((id): [unknown, unknown, number, number] => [invoice('B-F3', 'BETA-S', [id]), invoice('B-F3', 'BETA-S', [MISSING.id]), id, MISSING.id]),
      [payment('B-P1', 'ALPHA-F1'), payment('B-P1', MISSING.code), 'ALPHA-F1', MISSING.code],
    ];
    for (const [foreign, missing, foreignId, missingId] of pairs) {
      const url = 'internalCode' in (foreign as object) && 'allocations' in (foreign as object) ? '/batch/payment' : '/batch/invoice';
      const answers = [];
      for (const item of [foreign, missing]) {
        const ids = (await send(w.b, 'POST', url, { upsert: [item] })).json().batchId as string[];
        await t.waitForBatches(w.b, ids);
        const [detail] = (await send(w.b, 'GET', `/batch/${ids[0]}/detail`, undefined)).json().detail;
        answers.push(detail);
      }
      const shown = (d: { status: string; errorCode: string; message: string }, id: string | number) =>
        comparable({ statusCode: 0, headers: {}, body: JSON.stringify({ status: d.status, errorCode: d.errorCode, message: d.message }) }, id).body;
      expect(answers[0].status, `${url} ${JSON.stringify(foreign)}`).toBe('failed');
      expect(shown(answers[0], foreignId), `${url} ${JSON.stringify(foreign)}`).toEqual(shown(answers[1], missingId));
    }
    expect(await aAccount(), "A's account after B's batches").toBe(before);
  });

  it("keeps Idempotency-Keys per supplier: B's key is B's own, whatever A sent under it", async () => {
    const key = { 'idempotency-key': 'shared-key-1' };
    const first = await as(t, w.a, 'PUT', '/category', { internalCode: 'ALPHA-IDEM', name: 'ALPHA' }, key);
    expect(first.statusCode, first.body).toBe(200);
    const other = await as(t, w.b, 'PUT', '/category', { internalCode: 'B-IDEM', name: 'B' }, key);
    expect(other.statusCode, other.body).toBe(200);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.json()).toMatchObject({ internalCode: 'B-IDEM' });
    const same = await as(t, w.b, 'PUT', '/category', { internalCode: 'ALPHA-IDEM', name: 'ALPHA' }, key);
    expect(same.json(), same.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  // Last: it moves A's orders and tickets along.
  it("lets A itself reach every entity of the matrix (so B's 404s were tenancy, not a bad request)", async () => {
    for (const route of entityRoutes()) {
      const rule = RULES[routeKey(route)]!;
      if ('notAnEntity' in rule) continue;
      for (const value of rule.ids(w)) {
        const res = await send(w.a, route.method, fill(route.url, value), rule.body?.(w));
        // 409: A's entity is in a state that forbids the move, which only its owner may learn.
        expect([200, 409], `${routeKey(route)} with ${value}: ${res.body}`).toContain(res.statusCode);
      }
    }
  });
});
