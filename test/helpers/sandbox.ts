// Test mode for tests (src/modules/sandbox): a supplier's test credential, logged in, and
// a console session switched to test mode, through the real routes.
import { expect } from 'vitest';
import type { MemberRole } from '../../src/db/types.ts';
import { ADMIN_TOKEN, injectSend, type TestApp, type TestSupplier } from './app.ts';
import { memberSession } from './console.ts';
import { expectStatus, logIn } from '../../support/service.ts';

/** The twin's supplier id (made on the first test credential or console switch). */
export async function twinIdOf(t: TestApp, liveId: number): Promise<number> {
  const row = await t.deps.db.selectFrom('suppliers').select('id').where('live_supplier_id', '=', liveId).executeTakeFirstOrThrow();
  return row.id;
}

/** A test credential of `s` issued by the operator (every scope unless named), logged in: `id` is the twin's. */
export async function testCredential(t: TestApp, s: TestSupplier, scopes?: string[]): Promise<TestSupplier> {
  const send = injectSend(t.app);
  const url = `/admin/suppliers/${s.id}/credentials`;
  const issued = expectStatus(await send('POST', url, { mode: 'test', ...(scopes ? { scopes } : {}) }, { authorization: `Bearer ${ADMIN_TOKEN}` }), 200, `POST ${url}`);
  const { token, headers } = await logIn(send, issued);
  return { id: await twinIdOf(t, s.id), code: s.code, apiKey: issued.apiKey, clientId: issued.clientId, clientSecret: issued.clientSecret, token, headers };
}

/** A member of `s` with `role`, signed in, its session switched to test mode: `id` is the twin's. */
export async function testModeSession(t: TestApp, s: TestSupplier, email: string, role: MemberRole): Promise<TestSupplier & { memberId: number }> {
  const member = await memberSession(t, s, email, role);
  const switched = await t.request({ method: 'PUT', url: '/console/me/mode', payload: { mode: 'test' }, headers: member.headers });
  expect(switched.statusCode, switched.body).toBe(200);
  expect(switched.json().mode).toBe('test');
  return { ...member, id: await twinIdOf(t, s.id) };
}

/** The date `days` after today (UTC, the tests' TIMEZONE), as YYYY-MM-DD. */
export const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * A small catalog through the supplier API, as an integrator loads it: a brand, a category,
 * product P1 (price 1000), a price list, store S1 with user `email`, and promotion PROMO
 * (10 % from 2 units) ending `promotionEnd`. Answers the store user's headers for /app.
 */
export async function loadSmallCatalog(t: TestApp, s: TestSupplier, email: string, promotionEnd = dayFromToday(1)) {
  const call = async (method: 'PUT' | 'POST', url: string, body: unknown) => {
    const res = await t.request({ method, url, payload: body as never, headers: s.headers });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  const batch = async (url: string, body: unknown) => {
    const { statuses } = await t.runBatch(s, url, body);
    for (const status of statuses) expect(status.failed, JSON.stringify(status)).toBe(0);
  };
  await call('PUT', '/category', { internalCode: 'C1', name: 'Drinks' });
  await batch('/batch/brand', { upsert: [{ internalCode: 'B1', name: 'Brand' }] });
  await batch('/batch/product', { upsert: [{ internalCode: 'P1', name: 'Cola', brandInternalCode: 'B1', categoryInternalCode: 'C1', displayProducts: [{ units: 1, name: 'Unit' }] }] });
  await call('POST', '/pricelist', { internalCode: 'L1' });
  await call('POST', '/grouper/promotion', { internalCode: 'G1', name: 'Everyone' });
  await batch('/batch/store', { upsert: [{ internalCode: 'S1', name: 'Store one', priceListCode: 'L1', promotionGrouperCodes: ['G1'], addresses: [{ street: 'Calle 1', city: 'Bogotá', default: true }] }] });
  await batch('/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'L1', productInternalCode: 'P1', units: 1, price: 1000 }] } });
  await call('PUT', '/promotion/discount/simple', {
    internalCode: 'PROMO',
    name: 'Ten off',
    start: '2000-01-01',
    end: promotionEnd,
    enabled: true,
    promotionGrouperCodes: ['G1'],
    products: { internalCode: 'P1' },
    discountTiersData: [{ min: 2, discountPercentage: 10 }],
  });
  await call('POST', '/store/S1/add/user', { users: [{ email, name: 'Buyer' }] });
  const token = await t.admin('POST', '/admin/store-users/token', { email });
  expect(token.statusCode, token.body).toBe(200);
  const headers = { authorization: `Bearer ${token.json().access_token}` };
  const me = await t.request({ method: 'GET', url: '/app/me', headers });
  const storeId = me.json().stores.find((x: { supplier: { code: string } }) => x.supplier.code === s.code).id as number;
  return { headers, storeId };
}
