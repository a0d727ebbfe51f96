// Limits per person and per supplier, not per address: a store user's writes (carts,
// orders, tickets) per minute, and a supplier's invitations (each an email) per hour.
// Small settings here; the defaults are 60 a minute and 20 an hour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { memberSession } from '../helpers/console.ts';

let t: TestApp;
let s: TestSupplier;
const ana = { phone: '+573002220001', name: 'Ana' };
const bea = { phone: '+573002220002', name: 'Bea' };

beforeAll(async () => {
  t = await createTestApp({ env: { STORE_WRITE_RATE_LIMIT_PER_MINUTE: '3', MEMBER_INVITATIONS_PER_HOUR: '2' } });
  s = await t.supplier();
  await t.runBatch(s, '/batch/store', { upsert: [{ internalCode: 'S-1', name: 'Tienda' }] });
  expect((await as(t, s, 'POST', '/store/S-1/add/user', { users: [ana, bea] })).statusCode).toBe(200);
});
afterAll(() => t.close());

async function token(phone: string) {
  const res = await t.admin('POST', '/admin/store-users/token', { phone });
  expect(res.statusCode, res.body).toBe(200);
  return { authorization: `Bearer ${res.json().access_token}` };
}

describe('store-user writes', () => {
  it('are limited per person (429 with Retry-After), whatever session they use; reads and signing out are not', async () => {
    const [phone, laptop, other] = [await token(ana.phone), await token(ana.phone), await token(bea.phone)];
    const storeId = (await t.request({ method: 'GET', url: '/app/me', headers: phone })).json().stores[0].id as number;
    const cart = (headers: Record<string, string>) => t.request({ method: 'POST', url: `/app/stores/${storeId}/cart`, headers, payload: { items: [] } });
    for (const headers of [phone, laptop, phone]) expect((await cart(headers)).statusCode).not.toBe(429);
    const refused = await cart(laptop);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const order = await t.request({ method: 'POST', url: `/app/stores/${storeId}/orders`, headers: phone, payload: { items: [] } });
    expect(order.statusCode).toBe(429);
    // Another person writes on; the limited one still reads, and can sign out.
    expect((await cart(other)).statusCode).not.toBe(429);
    expect((await t.request({ method: 'GET', url: '/app/me', headers: phone })).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: '/app/session', headers: phone })).statusCode).toBe(200);
  });
});

describe('invitations', () => {
  it("are limited per supplier and hour (429 with Retry-After), an operator's are not", async () => {
    const owner = await memberSession(t, s, 'owner@limits.test', 'owner');
    for (const n of [1, 2]) expect((await as(t, owner, 'POST', '/member', { email: `m${n}@limits.test`, role: 'viewer' })).statusCode).toBe(200);
    const refused = await as(t, owner, 'POST', '/member', { email: 'm3@limits.test', role: 'viewer' });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    expect((await as(t, owner, 'GET', '/member')).json().map((m: { email: string }) => m.email)).not.toContain('m3@limits.test');
    // Another supplier's owner invites on; an operator adds members whatever the count.
    const other = await t.supplier();
    const otherOwner = await memberSession(t, other, 'owner2@limits.test', 'owner');
    expect((await as(t, otherOwner, 'POST', '/member', { email: 'x1@limits.test', role: 'viewer' })).statusCode).toBe(200);
    expect((await t.admin('POST', `/admin/suppliers/${s.id}/members`, { email: 'm4@limits.test', role: 'viewer' })).statusCode).toBe(200);
  });
});
