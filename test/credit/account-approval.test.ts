// The account tells whether an order over the credit may be sent for approval
// (`allowOverLimitWithApproval`), so the store app offers "send for approval" only where
// the supplier allows it: true, false, and false for a store without terms; the same to
// the store (GET /app/stores/{id}/account) and to the ERP (GET /store/{code}/account).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;
let token: string;
const ids: Record<string, number> = {};
const ok = (res: { statusCode: number; body: string }) => {
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(res.body);
};

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  const store = (internalCode: string, credit?: object) => ({ internalCode, name: internalCode, ...(credit ? { credit } : {}) });
  const { statuses } = await t.runBatch(s, '/batch/store', {
    upsert: [
      store('S-APPROVAL', { paymentMethods: ['CREDIT'], limit: 1000, allowOverLimitWithApproval: true }),
      store('S-REFUSED', { paymentMethods: ['CREDIT', 'CASH_ON_DELIVERY'], limit: 1000 }),
      store('S-NONE'),
    ],
  });
  expect(statuses[0].failed, JSON.stringify(statuses)).toBe(0);
  for (const code of ['S-APPROVAL', 'S-REFUSED', 'S-NONE']) ok(await as(t, s, 'POST', `/store/${code}/add/user`, { users: [{ email: 'ana@example.com' }] }));
  token = ok(await t.admin('POST', '/admin/store-users/token', { email: 'ana@example.com' })).access_token;
  for (const m of ok(await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token}` } })).stores) ids[m.internalCode] = m.id;
});
afterAll(() => t.close());

it('answers whether an order over the credit may be sent for approval, to the store and to the ERP', async () => {
  for (const [code, allowed] of [
    ['S-APPROVAL', true],
    ['S-REFUSED', false],
    ['S-NONE', false],
  ] as const) {
    const mine = ok(await t.request({ method: 'GET', url: `/app/stores/${ids[code]}/account`, headers: { authorization: `Bearer ${token}` } }));
    const erp = ok(await as(t, s, 'GET', `/store/${code}/account`));
    expect(mine.allowOverLimitWithApproval, code).toBe(allowed);
    expect(erp).toEqual(mine);
  }
});
