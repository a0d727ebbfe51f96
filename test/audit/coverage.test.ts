// Every audited write, from the route table itself: each supplier and operator route that
// declares `config.audit` is called once with a body it accepts, and must answer a success
// and leave exactly one audit entry for that request, naming the route and its entity. A
// route added without a rule here fails the first test, so none goes unchecked; a handler
// that forgets `audited()` fails here (no entry) and, under NODE_ENV=test, in any test that
// calls it (src/http/audit.ts turns such a success into a 500).
import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardedRoute } from '../../src/http/auth.ts';
import { ADMIN_TOKEN, as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { testCredential } from '../helpers/sandbox.ts';
import { asPerson, buildWorld, type World } from '../hardening/world.ts';
import { bodies, seed } from '../promotions/fixtures.ts';

let t: TestApp;
let w: World;

const ok = async (res: Promise<{ statusCode: number; body: string }> | { statusCode: number; body: string }) => {
  const r = await res;
  expect(r.statusCode, r.body).toBeLessThan(300);
  return JSON.parse(r.body);
};

/** A pending order of P1 at S1, moved on as far as `to`. */
async function order(to: 'pending' | 'confirmed' | 'delivered' = 'pending'): Promise<number> {
  const { id } = await ok(asPerson(t, w.p1, 'POST', `/app/stores/${w.stores.s1}/orders`, { lines: [{ productInternalCode: w.codes.product, units: 1, quantity: 1 }] }));
  if (to !== 'pending') await ok(as(t, w.a, 'PUT', `/order/${id}/confirm`, {}));
  if (to === 'delivered') await ok(as(t, w.a, 'PUT', `/order/${id}/deliver`, { complete: true }));
  return id;
}
const ticket = async (): Promise<number> => (await ok(asPerson(t, w.p1, 'POST', `/app/stores/${w.stores.s1}/tickets`, { message: 'audit coverage' }))).id;

type Call = { path: string; body?: unknown; headers?: Record<string, string> };
/** A file for POST /import/{kind}: its rows as text, CSV unless it is JSON Lines. */
const file = (kind: string, text: string, jsonl = false): Call => ({ path: `/import/${kind}`, body: text, headers: { 'content-type': jsonl ? 'application/x-ndjson' : 'text/csv' } });
let seq = 0;
const next = (prefix: string) => `${prefix}-${++seq}`;
const ORDER_BODIES = { confirm: ['pending', {}], deliver: ['confirmed', { complete: true }], return: ['delivered', { complete: true }], cancel: ['pending', { cancelCode: 'OUT_OF_STOCK' }] } as const;

/** Keyed by `METHOD url` as the route table has them: how to call the route so that it succeeds. */
/** A's test credential (src/modules/sandbox), made on first use: the sandbox's routes are test mode only. */
let aTest: TestSupplier | undefined;
const sandbox = async (path: string, body?: unknown): Promise<Call> => {
  aTest ??= await testCredential(t, w.a);
  return { path, ...(body === undefined ? {} : { body }), headers: aTest.headers };
};

/** A delivery zone's body: Thursdays, closing the day before at 18:00. */
const zone = () => ({ name: 'Norte', timezone: 'America/Bogota', cutoffMode: 'strict', days: [{ weekday: 4, cutoff: { daysBefore: 1, time: '18:00' } }] });

const RULES: Record<string, () => Promise<Call>> = {
  'PUT /sandbox/clock': () => sandbox('/sandbox/clock', { now: new Date(Date.now() + 86_400_000).toISOString() }),
  'DELETE /sandbox/clock': () => sandbox('/sandbox/clock'),
  'POST /sandbox/reset': () => sandbox('/sandbox/reset'),
  'POST /sandbox/copy-live': () => sandbox('/sandbox/copy-live'),
  'POST /admin/suppliers': async () => ({ path: '/admin/suppliers', body: { code: next('AUD'), name: 'Audited' } }),
  'POST /admin/suppliers/:supplierId/credentials': async () => ({ path: `/admin/suppliers/${w.c.id}/credentials`, body: {} }),
  'DELETE /admin/credentials/:clientId': async () => {
    const { clientId } = await ok(t.admin('POST', `/admin/suppliers/${w.c.id}/credentials`, {}));
    return { path: `/admin/credentials/${clientId}` };
  },
  'PUT /admin/suppliers/:supplierId/webhook': async () => ({ path: `/admin/suppliers/${w.c.id}/webhook`, body: { baseUrl: 'https://gamma.example/erp', enabled: false } }),
  'POST /admin/suppliers/:supplierId/webhook/rotate-secret': async () => {
    await ok(t.admin('PUT', `/admin/suppliers/${w.c.id}/webhook`, { baseUrl: 'https://gamma.example/erp', enabled: false }));
    return { path: `/admin/suppliers/${w.c.id}/webhook/rotate-secret` };
  },
  'PUT /admin/suppliers/:supplierId/settings': async () => ({ path: `/admin/suppliers/${w.c.id}/settings`, body: { minimumOrder: 10 } }),
  'PUT /admin/suppliers/:supplierId/cancel-codes': async () => ({ path: `/admin/suppliers/${w.c.id}/cancel-codes`, body: [{ code: 'X', reason: 'Because', usage: 'SUPPLIER' }] }),
  'POST /admin/store-users/token': async () => ({ path: '/admin/store-users/token', body: { email: w.p1.email } }),
  'PUT /admin/suppliers/:supplierId/status': async () => ({ path: `/admin/suppliers/${w.c.id}/status`, body: { enabled: true } }),
  'POST /admin/suppliers/:supplierId/members': async () => ({ path: `/admin/suppliers/${w.c.id}/members`, body: { email: `${next('owner')}@example.com`, role: 'owner' } }),
  'POST /admin/store-users/:personId/sessions/end': async () => {
    const found = await ok(t.admin('GET', `/admin/store-users?email=${encodeURIComponent(w.p2.email)}`));
    return { path: `/admin/store-users/${found.person.id}/sessions/end` };
  },
  'POST /member': async () => ({ path: '/member', body: { email: `${next('viewer')}@example.com`, role: 'viewer' } }),
  'PUT /member/:id': async () => {
    const { id } = await ok(as(t, w.a, 'POST', '/member', { email: `${next('agent')}@example.com`, role: 'agent' }));
    return { path: `/member/${id}`, body: { role: 'manager' } };
  },
  'DELETE /member/:id': async () => {
    const { id } = await ok(as(t, w.a, 'POST', '/member', { email: `${next('leaving')}@example.com`, role: 'viewer' }));
    return { path: `/member/${id}` };
  },
  'POST /credential': async () => ({ path: '/credential', body: { scopes: ['supplier/order.read'] } }),
  'DELETE /credential/:clientId': async () => {
    const { clientId } = await ok(as(t, w.a, 'POST', '/credential', {}));
    return { path: `/credential/${clientId}` };
  },
  'POST /admin/webhook/deliveries/:id/redeliver': async () => ({ path: `/admin/webhook/deliveries/${w.deliveryId}/redeliver` }),

  'POST /pricelist': async () => ({ path: '/pricelist', body: { internalCode: next('PL') } }),
  'PUT /pricelist/:code/status': async () => ({ path: `/pricelist/${w.codes.priceList}/status`, body: { enabled: true } }),
  'POST /batch/pricelist': async () => ({ path: '/batch/pricelist', body: { upsert: { products: [{ priceListInternalCode: w.codes.priceList, productInternalCode: w.codes.product, units: 1, price: 900 }] } } }),
  'POST /batch/brand': async () => ({ path: '/batch/brand', body: [{ internalCode: next('BR'), name: 'Brand' }] }),
  'PUT /category': async () => ({ path: '/category', body: { internalCode: next('CAT'), name: 'Category' } }),
  'POST /category': async () => ({ path: '/category', body: { internalCode: next('CAT'), name: 'Category' } }),
  'PUT /subcategory': async () => ({ path: '/subcategory', body: { internalCode: next('SUB'), name: 'Sub', parentCategoryInternalCode: w.codes.category } }),
  'POST /subcategory': async () => ({ path: '/subcategory', body: { internalCode: next('SUB'), name: 'Sub', parentCategoryInternalCode: w.codes.category } }),
  'POST /batch/product': async () => ({
    path: '/batch/product',
    body: { upsert: [{ internalCode: next('PR'), name: 'Product', brandInternalCode: w.codes.brand, categoryInternalCode: w.codes.subcategory, displayProducts: [{ units: 1, name: 'Unit' }] }] },
  }),
  'POST /grouper/promotion': async () => ({ path: '/grouper/promotion', body: { internalCode: next('GP'), name: 'Segment' } }),
  'PUT /grouper/:code/promotion': async () => ({ path: `/grouper/${w.codes.promotionGrouper}/promotion`, body: { name: 'Renamed' } }),
  'PUT /grouper/:code/status/promotion': async () => ({ path: `/grouper/${w.codes.promotionGrouper}/status/promotion`, body: { enabled: true } }),
  'POST /batch/grouper/promotion': async () => ({ path: '/batch/grouper/promotion', body: { add: { stores: [{ groupInternalCode: w.codes.promotionGrouper, storeInternalCode: w.codes.store1 }] } } }),
  'POST /grouper/stock': async () => ({ path: '/grouper/stock', body: { internalCode: next('GS'), name: 'Warehouse' } }),
  'PUT /grouper/:code/stock': async () => ({ path: `/grouper/${w.codes.stockGrouper}/stock`, body: { name: 'Renamed' } }),
  'PUT /grouper/:code/status/stock': async () => ({ path: `/grouper/${w.codes.stockGrouper}/status/stock`, body: { enabled: true } }),
  'POST /batch/grouper/stock': async () => ({ path: '/batch/grouper/stock', body: { add: { stores: [{ groupInternalCode: w.codes.stockGrouper, storeInternalCode: w.codes.store1 }] } } }),
  'POST /batch/stock/grouper': async () => ({ path: '/batch/stock/grouper', body: { upsert: [{ grouperCode: w.codes.stockGrouper, productInternalCode: w.codes.product, available: true }] } }),
  'POST /batch/store': async () => ({ path: '/batch/store', body: { upsert: [{ internalCode: next('ST'), name: 'Store' }] } }),
  'PUT /deliveryzone/:code': async () => ({ path: `/deliveryzone/${next('ZONE')}`, body: zone() }),
  'POST /batch/deliveryzone': async () => ({ path: '/batch/deliveryzone', body: { upsert: [{ internalCode: next('ZONE'), ...zone() }] } }),
  'PUT /store/:code/credit': async () => ({ path: `/store/${w.codes.store2}/credit`, body: { paymentMethods: ['CREDIT'], limit: 0, allowOverLimitWithApproval: true } }),
  // An order of S2 on credit hold (S2's terms: no credit, approval allowed), released.
  'PUT /order/:id/release': async () => {
    await ok(as(t, w.a, 'PUT', `/store/${w.codes.store2}/credit`, { paymentMethods: ['CREDIT'], limit: 0, allowOverLimitWithApproval: true }));
    const lines = [{ productInternalCode: w.codes.product, units: 1, quantity: 1 }];
    const { id } = await ok(asPerson(t, w.p2, 'POST', `/app/stores/${w.stores.s2}/orders`, { lines, requestApproval: true }));
    return { path: `/order/${id}/release` };
  },
  'POST /batch/invoice': async () => ({
    path: '/batch/invoice',
    body: { upsert: [{ internalCode: next('F'), storeInternalCode: w.codes.store1, amount: 10, issuedAt: '2026-01-01T00:00:00.000Z', dueDate: '2026-02-01' }] },
  }),
  'POST /batch/payment': async () => ({
    path: '/batch/payment',
    body: { upsert: [{ internalCode: next('P'), storeInternalCode: w.codes.store1, amount: 10, method: 'CASH', paidAt: '2026-01-02T00:00:00.000Z' }] },
  }),
  'POST /store/:code/add/user': async () => ({ path: `/store/${w.codes.store2}/add/user`, body: { users: [{ email: `${next('user')}@example.com` }] } }),
  'PUT /console/stores/:code/user': async () => {
    const email = `${next('user')}@example.com`;
    await ok(as(t, w.a, 'POST', `/store/${w.codes.store2}/add/user`, { users: [{ email }] }));
    return { path: `/console/stores/${w.codes.store2}/user`, body: { current: { email }, user: { email, name: 'Ana' } } };
  },
  'POST /store/:code/remove/user': async () => {
    const email = `${next('gone')}@example.com`;
    await ok(as(t, w.a, 'POST', `/store/${w.codes.store2}/add/user`, { users: [{ email }] }));
    return { path: `/store/${w.codes.store2}/remove/user`, body: { users: [{ email }] } };
  },
  'PUT /promotion/discount/simple': async () => ({ path: '/promotion/discount/simple', body: bodies.simple(next('PROMO')) }),
  'PUT /promotion/discount/multiple': async () => ({ path: '/promotion/discount/multiple', body: bodies.multiple(next('PROMO')) }),
  'PUT /promotion/bonus/individual': async () => ({ path: '/promotion/bonus/individual', body: bodies.individual(next('PROMO')) }),
  'PUT /promotion/bonus/crossed': async () => ({ path: '/promotion/bonus/crossed', body: bodies.crossed(next('PROMO')) }),
  'PUT /promotion/:code/status': async () => ({ path: `/promotion/${w.codes.promotion}/status`, body: { enabled: true } }),
  'POST /batch/promotion': async () => ({ path: '/batch/promotion', body: { upsert: { discount: { simple: [bodies.simple(next('PROMO'))] } } } }),
  'PUT /recommendation/:code': async () => ({ path: `/recommendation/${next('REC')}`, body: recommendation() }),
  'POST /batch/recommendation': async () => ({ path: '/batch/recommendation', body: { upsert: [{ internalCode: next('REC'), ...recommendation() }] } }),
  'PUT /seller/:code': async () => ({ path: `/seller/${next('SELLER')}`, body: { name: 'Seller', email: `${next('seller')}@example.com`, storeInternalCodes: [w.codes.store2] } }),
  'POST /batch/seller': async () => ({ path: '/batch/seller', body: { upsert: [{ internalCode: next('SELLER'), name: 'Seller', phone: '+573009990001' }] } }),
  'PUT /support/ticket/:id': async () => ({ path: `/support/ticket/${await ticket()}`, body: { status: 'IN_PROGRESS' } }),
  'POST /support/ticket/additional-info': async () => ({ path: '/support/ticket/additional-info', body: { ticketId: await ticket(), message: 'Which one?' } }),
  'PUT /support/ticket/close': async () => ({ path: '/support/ticket/close', body: { ticketId: await ticket(), message: 'Done' } }),
  'POST /webhook/deliveries/:id/redeliver': async () => ({ path: `/webhook/deliveries/${w.deliveryId}/redeliver` }),
  'PUT /webhook': async () => ({ path: '/webhook', body: { baseUrl: 'https://alpha.example/erp', enabled: false } }),
  'POST /webhook/rotate-secret': async () => ({ path: '/webhook/rotate-secret' }),
  'POST /batch/order': async () => ({ path: '/batch/order', body: { confirm: [{ id: await order() }] } }),
  'POST /order/bulk-import': async () => ({
    path: '/order/bulk-import',
    body: { orders: [{ storeInternalCode: w.codes.store1, createdAt: '2026-01-01', status: 'DELIVERED', products: [{ internalCode: w.codes.product, units: 1, quantity: 1, unitPrice: 1 }] }] },
  }),
  'POST /import/brands': async () => file('brands', `internalCode,name\n${next('BR')},Brand\n`),
  'POST /import/products': async () => file('products', `internalCode,name,brandInternalCode,categoryInternalCode\n${next('PR')},Product,${w.codes.brand},${w.codes.subcategory}\n`),
  'POST /import/stores': async () => file('stores', `internalCode,name\n${next('ST')},Store\n`),
  'POST /import/prices': async () => file('prices', `priceListInternalCode,productInternalCode,units,price\n${w.codes.priceList},${w.codes.product},1,950\n`),
  'POST /import/pricelist-stores': async () => file('pricelist-stores', `priceListInternalCode,storeInternalCode\n${w.codes.priceList},${w.codes.store1}\n`),
  'POST /import/stock': async () => file('stock', `grouperCode,productInternalCode,available\n${w.codes.stockGrouper},${w.codes.product},true\n`),
  'POST /import/stock-grouper-stores': async () => file('stock-grouper-stores', `groupInternalCode,storeInternalCode\n${w.codes.stockGrouper},${w.codes.store1}\n`),
  'POST /import/promotion-grouper-stores': async () => file('promotion-grouper-stores', `groupInternalCode,storeInternalCode\n${w.codes.promotionGrouper},${w.codes.store1}\n`),
  'POST /import/promotions': async () => file('promotions', JSON.stringify({ type: 'DISCOUNT_SIMPLE', ...bodies.simple(next('PROMO')) }), true),
  ...Object.fromEntries(
    Object.entries(ORDER_BODIES).flatMap(([op, [from, body]]) =>
      ['PUT', 'POST'].map((method) => [`${method} /order/:id/${op}`, async (): Promise<Call> => ({ path: `/order/${await order(from)}/${op}`, body })]),
    ),
  ),
};

const recommendation = () => ({ name: 'Recommended', reason: 'NEW', start: '2030-01-01', end: '2030-01-31', products: [{ productInternalCode: w.codes.product, units: 1, quantity: 1 }] });
const routeKey = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const audited = () => t.app.guardedRoutes.filter((r) => r.audit);

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  await seed(t, w.a);
}, 180_000);
afterAll(() => t.close());

describe('audit coverage', () => {
  it('every supplier and operator write route declares its audit, and every audited route has a rule here', () => {
    const writes = t.app.guardedRoutes.filter((r) => r.method !== 'GET' && (r.auth === 'supplier' || r.auth === 'admin'));
    expect(writes.filter((r) => r.audit === undefined).map(routeKey), 'write routes without config.audit').toEqual([]);
    // The routes that say they write nothing worth an entry, each with its reason in its source.
    expect(writes.filter((r) => r.audit === false).map(routeKey).sort()).toEqual(['POST /admin/suppliers/:supplierId/webhook/test', 'POST /sandbox/events', 'POST /store/:code/cart', 'POST /webhook/test']);
    const keys = audited().map(routeKey);
    expect(keys.length).toBeGreaterThanOrEqual(50);
    expect(keys.filter((k) => !(k in RULES)), 'audited routes without a rule').toEqual([]);
    expect(Object.keys(RULES).filter((k) => !keys.includes(k)), 'rules for routes the app no longer has').toEqual([]);
  });

  it('each audited route, called once successfully, records exactly one entry naming it', { timeout: 180_000 }, async () => {
    for (const route of audited() as (GuardedRoute & { audit: string })[]) {
      const what = routeKey(route);
      const call = await RULES[what]!();
      const requestId = `audit-${randomUUID()}`;
      const auth = route.auth === 'admin' ? { authorization: `Bearer ${ADMIN_TOKEN}` } : w.a.headers;
      const res = await t.request({
        method: route.method as InjectOptions['method'],
        url: call.path,
        headers: { ...auth, 'x-request-id': requestId, ...call.headers },
        ...(call.body === undefined ? {} : { payload: call.body as never }),
      });
      expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(300);
      const entries = await sql<{ operation: string; entity: string; actor_kind: string }>`
        select operation, entity, actor_kind from audit_entries where request_id = ${requestId}`.execute(t.deps.db);
      expect(entries.rows, what).toEqual([{ operation: what, entity: route.audit, actor_kind: route.auth === 'admin' ? 'operator' : 'credential' }]);
    }
  });
});
