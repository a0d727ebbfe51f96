// Well-formed requests the rules refuse, aimed at entities that exist and at refusals
// found late (a second line that fails after a first that passes, a duplicate found by
// the unique index, a state that forbids the move): each is refused, and writes nothing.
// The random requests of hostile-input.test.ts rarely get this far; these do by design.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp } from '../helpers/app.ts';
import { changedTables, fingerprint, publicTables } from './fingerprint.ts';
import { asPerson, buildWorld, MISSING, type World } from './world.ts';

interface Refusal {
  what: string;
  /** Who asks: supplier A (or B), person P1, or an operator. */
  who: 'a' | 'b' | 'p1' | 'admin';
  method: 'GET' | 'POST' | 'PUT';
  url: (w: World) => string;
  body?: (w: World) => unknown;
  headers?: Record<string, string>;
  status: number;
  /** The problem's code; none for a request answered as if accepted (a code request past its limit). */
  code?: string;
  /** What the request may do first, outside the check (its writes are allowed). */
  prepare?: (w: World) => Promise<void>;
  /** Tables this refusal writes by design, with the reason in `what`. */
  writes?: string[];
}

let t: TestApp;
let w: World;
let tables: string[];

const line = (w: World, quantity = 1, units = 1) => ({ productInternalCode: w.codes.product, units, quantity });
const promotion = (w: World, extra: object) => ({
  internalCode: w.codes.promotion,
  name: 'Rewritten',
  start: '2000-01-01',
  end: '2099-12-31',
  enabled: false,
  products: { internalCode: w.codes.product },
  discountTiersData: [{ min: 1, discountPercentage: 50 }],
  ...extra,
});

function send(r: Pick<Refusal, 'who' | 'method' | 'headers'>, url: string, body?: unknown) {
  if (r.who === 'a') return as(t, w.a, r.method, url, body, r.headers);
  if (r.who === 'b') return as(t, w.b, r.method, url, body, r.headers);
  if (r.who === 'admin') return t.request({ method: r.method, url, payload: body as never, headers: { authorization: `Bearer ${t.config.adminToken}`, ...r.headers } });
  return t.request({ method: r.method, url, payload: body as never, headers: { ...w.p1.headers, ...r.headers } });
}

const REFUSALS: Refusal[] = [
  // Orders, by the supplier.
  { what: 'delivering a PENDING order', who: 'a', method: 'PUT', url: (w) => `/order/${w.orders.pending}/deliver`, body: () => ({ complete: true }), status: 409, code: 'INVALID_ORDER_TRANSITION' },
  {
    what: 'a delivery whose second line the order does not have',
    who: 'a',
    method: 'PUT',
    url: (w) => `/order/${w.orders.confirmed}/deliver`,
    body: (w) => ({ complete: false, products: [{ internalCode: w.codes.product, units: 1, quantity: 1 }, { internalCode: 'NOPE', units: 1, quantity: 1 }] }),
    status: 400,
    code: 'UNKNOWN_ORDER_LINE',
  },
  {
    what: 'returning more than was delivered',
    who: 'a',
    method: 'PUT',
    url: (w) => `/order/${w.orders.delivered}/return`,
    body: (w) => ({ products: [{ internalCode: w.codes.product, units: 1, quantity: 99 }] }),
    status: 400,
    code: 'QUANTITY_EXCEEDED',
  },
  { what: "cancelling with a store's code", who: 'a', method: 'PUT', url: (w) => `/order/${w.orders.pending}/cancel`, body: () => ({ cancelCode: 'NEW_ORDER' }), status: 400, code: 'INVALID_CANCEL_CODE' },
  // Tickets, by the supplier.
  { what: 'solving a CLOSED ticket', who: 'a', method: 'PUT', url: (w) => `/support/ticket/${w.tickets.closed}`, body: () => ({ status: 'SOLVED', message: 'again' }), status: 409, code: 'INVALID_TICKET_TRANSITION' },
  {
    what: "another ticket's externalTicketId, with a status and a message beside it",
    who: 'a',
    method: 'PUT',
    url: (w) => `/support/ticket/${w.tickets.infoRequested}`,
    body: (w) => ({ externalTicketId: w.externalTicketId, status: 'SOLVED', message: 'dup' }),
    status: 409,
    code: 'ALREADY_EXISTS',
  },
  { what: 'asking a CLOSED ticket for information', who: 'a', method: 'POST', url: () => '/support/ticket/additional-info', body: (w) => ({ ticketId: w.tickets.closed, message: '?' }), status: 409, code: 'INVALID_TICKET_TRANSITION' },
  // Catalog, promotions, groupers, price lists, stores.
  { what: 'rewriting a promotion with an unknown product', who: 'a', method: 'PUT', url: () => '/promotion/discount/simple', body: (w) => promotion(w, { products: { internalCode: 'NOPE' } }), status: 400, code: 'UNKNOWN_PRODUCT' },
  { what: 'rewriting a promotion with an unknown grouper', who: 'a', method: 'PUT', url: () => '/promotion/discount/simple', body: (w) => promotion(w, { promotionGrouperCodes: [w.codes.promotionGrouper, 'NOPE'] }), status: 400, code: 'UNKNOWN_GROUPER' },
  { what: 'creating a grouper whose code exists', who: 'a', method: 'POST', url: () => '/grouper/promotion', body: (w) => ({ internalCode: w.codes.promotionGrouper, name: 'Again' }), status: 409, code: 'ALREADY_EXISTS' },
  { what: 'creating a price list whose code exists (404, as the contract states)', who: 'a', method: 'POST', url: () => '/pricelist', body: (w) => ({ internalCode: w.codes.priceList }), status: 404, code: 'ALREADY_EXISTS' },
  { what: 'a subcategory under an unknown category', who: 'a', method: 'PUT', url: () => '/subcategory', body: () => ({ internalCode: 'NEW-SC', name: 'New', parentCategoryInternalCode: 'NOPE' }), status: 400, code: 'UNKNOWN_CATEGORY' },
  {
    what: 'adding two users to a store, the second with neither phone nor email',
    who: 'a',
    method: 'POST',
    url: (w) => `/store/${w.codes.store1}/add/user`,
    body: () => ({ users: [{ email: 'first@example.com' }, { name: 'Nobody' }] }),
    status: 400,
    code: 'REQUIRED',
  },
  {
    what: 'a batch with one item lacking its code (402: nothing is queued)',
    who: 'a',
    method: 'POST',
    url: () => '/batch/store',
    body: () => ({ upsert: [{ internalCode: 'NEW-S', name: 'New' }, { name: 'No code' }] }),
    status: 402,
    code: 'REQUIRED',
  },
  { what: 'a test ping without a webhook (B has none; A has one)', who: 'b', method: 'POST', url: () => '/webhook/test', status: 409, code: 'WEBHOOK_NOT_CONFIGURED' },
  {
    what: 'an Idempotency-Key reused with another body (the first request, which writes, is the preparation)',
    who: 'a',
    method: 'PUT',
    url: () => '/category',
    headers: { 'idempotency-key': 'refusals-1' },
    prepare: async (w) => {
      const first = await as(t, w.a, 'PUT', '/category', { internalCode: 'IDEM', name: 'First' }, { 'idempotency-key': 'refusals-1' });
      expect(first.statusCode, first.body).toBe(200);
    },
    body: () => ({ internalCode: 'IDEM', name: 'Second' }),
    status: 409,
    code: 'IDEMPOTENCY_KEY_REUSED',
  },
  // The store app.
  { what: 'an order whose second line is unknown', who: 'p1', method: 'POST', url: (w) => `/app/stores/${w.stores.s1}/orders`, body: (w) => ({ lines: [line(w), { ...line(w), productInternalCode: 'NOPE' }] }), status: 400, code: 'UNKNOWN_PRODUCT' },
  { what: 'an order in a size the price list does not price', who: 'p1', method: 'POST', url: (w) => `/app/stores/${w.stores.s1}/orders`, body: (w) => ({ lines: [line(w), line(w, 1, 24)] }), status: 400, code: 'NOT_PRICED' },
  { what: 'a store cancelling a CONFIRMED order', who: 'p1', method: 'POST', url: (w) => `/app/orders/${w.orders.confirmed}/cancel`, body: () => ({ cancelCode: 'NEW_ORDER' }), status: 409, code: 'INVALID_ORDER_TRANSITION' },
  { what: "a store cancelling with a supplier's code", who: 'p1', method: 'POST', url: (w) => `/app/orders/${w.orders.pending}/cancel`, body: () => ({ cancelCode: 'OUT_OF_STOCK' }), status: 400, code: 'INVALID_CANCEL_CODE' },
  { what: 'answering a ticket nobody asked about', who: 'p1', method: 'POST', url: (w) => `/app/tickets/${w.tickets.pending}/answer`, body: () => ({ message: 'unasked' }), status: 409, code: 'INVALID_TICKET_TRANSITION' },
  { what: 'a ticket about an order the store does not have', who: 'p1', method: 'POST', url: (w) => `/app/stores/${w.stores.s1}/tickets`, body: () => ({ message: 'about', orderId: MISSING.id }), status: 400, code: 'UNKNOWN_ORDER' },
  {
    what: 'a sixth sign-in code in an hour from one address (the five before it are the preparation): the same 202 as ever, and nothing recorded or sent (issue 29)',
    who: 'p1',
    method: 'POST',
    url: () => '/app/auth/code',
    prepare: async (w) => {
      for (let i = 0; i < 5; i++) expect((await t.request({ method: 'POST', url: '/app/auth/code', payload: { email: w.p2.email } })).statusCode).toBe(202);
    },
    body: (w) => ({ email: w.p2.email }),
    status: 202,
  },
  {
    what: 'a wrong sign-in code: the try is counted on the code, so that 5 burn it (src/modules/store-app/README.md)',
    who: 'p1',
    method: 'POST',
    url: () => '/app/auth/token',
    prepare: async (w) => {
      expect((await t.request({ method: 'POST', url: '/app/auth/code', payload: { email: w.p1.email } })).statusCode).toBe(202);
    },
    body: (w) => ({ email: w.p1.email, code: t.notifier.lastCodeFor(w.p1.email) === '000000' ? '111111' : '000000' }),
    status: 401,
    code: 'UNAUTHENTICATED',
    writes: ['sign_in_codes'],
  },
  // Text PostgreSQL cannot store: refused up front, never a 500 or a batch that cannot be applied.
  { what: 'a ticket message with a lone surrogate', who: 'p1', method: 'POST', url: (w) => `/app/stores/${w.stores.s1}/tickets`, body: () => ({ message: 'broken \ud800' }), status: 400, code: 'INVALID_VALUE' },
  { what: 'a batch item with a lone surrogate (402: nothing is queued)', who: 'a', method: 'POST', url: () => '/batch/brand', body: () => ({ upsert: [{ internalCode: 'SUR', name: '\udc00' }] }), status: 402, code: 'INVALID_VALUE' },
  // Operators.
  { what: 'a supplier whose code exists', who: 'admin', method: 'POST', url: () => '/admin/suppliers', body: (w) => ({ code: w.a.code, name: 'Again' }), status: 409, code: 'ALREADY_EXISTS' },
  {
    what: 'an order below the minimum (set by the preparation)',
    who: 'p1',
    method: 'POST',
    url: (w) => `/app/stores/${w.stores.s1}/orders`,
    prepare: async (w) => {
      expect((await t.admin('PUT', `/admin/suppliers/${w.a.id}/settings`, { minimumOrder: 1_000_000 })).statusCode).toBe(200);
    },
    body: (w) => ({ lines: [line(w)] }),
    status: 400,
    code: 'BELOW_MINIMUM_ORDER',
  },
];

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  tables = await publicTables(t.deps.db);
});
afterAll(async () => {
  console.log(`refusals: ${REFUSALS.length} refused requests, each checked to have written nothing it may not`);
  await t.close();
});

async function outboxSettled() {
  for (let i = 0; i < 200; i++) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from messages where status = 'pending'`.execute(t.deps.db);
    if (rows[0]!.n === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the message outbox did not settle within 10 s');
}

describe('a refused request writes nothing', () => {
  it.each(REFUSALS.map((r) => [r.what, r] as const))('%s', async (_, r) => {
    await r.prepare?.(w);
    // What the preparation queued for people (sign-in code messages) is sent by the
    // message worker in the background: let it finish, so its writes are not the refusal's.
    await outboxSettled();
    const before = await fingerprint(t.deps.db, tables);
    const res = await send(r, r.url(w), r.body?.(w));
    expect({ status: res.statusCode, code: res.json().code }, res.body).toEqual({ status: r.status, code: r.code });
    const after = await fingerprint(t.deps.db, tables);
    expect(changedTables(before, after, r.writes), 'tables written by the refusal').toEqual([]);
    if (r.writes) expect(changedTables(before, after), 'the writes this refusal makes by design').toEqual(r.writes);
  });
});
