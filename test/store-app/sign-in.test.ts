import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let a: TestSupplier;
let b: TestSupplier;
const ana = { phone: '+573001234567', email: 'ana@example.com', name: 'Ana' };

beforeAll(async () => {
  t = await createTestApp();
  a = await t.supplier();
  b = await t.supplier();
  for (const s of [a, b]) {
    const res = await as(t, s, 'POST', '/batch/store', { upsert: [{ internalCode: 'S-1', name: `Tienda de ${s.code}` }] });
    await t.waitForBatches(s, res.json().batchId);
    expect((await as(t, s, 'POST', '/store/S-1/add/user', { users: [ana] })).statusCode).toBe(200);
  }
});
afterAll(() => t.close());

const post = (url: string, payload: unknown) => t.request({ method: 'POST', url, payload: payload as never });

describe('store user sign-in', () => {
  it('sends a code to a known person and exchanges it for a token that opens /app', async () => {
    const sent = await post('/app/auth/code', { phone: ana.phone });
    expect(sent.statusCode).toBe(202);
    expect(sent.json()).toEqual({ expiresIn: 300 });
    const code = t.notifier.lastCodeFor(ana.phone)!;
    expect(code).toMatch(/^\d{6}$/);
    const token = await post('/app/auth/token', { phone: ana.phone, code });
    expect(token.statusCode).toBe(200);
    expect(token.json()).toMatchObject({ token_type: 'Bearer', expires_in: 7 * 24 * 3600 });
    const me = await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token.json().access_token}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json().user).toEqual(ana);
    expect(me.json().stores.map((s: { supplier: { code: string }; internalCode: string }) => `${s.supplier.code}/${s.internalCode}`)).toEqual([`${a.code}/S-1`, `${b.code}/S-1`]);
    // A code is used once.
    expect((await post('/app/auth/token', { phone: ana.phone, code })).statusCode).toBe(401);
  });

  it('answers an unknown person exactly as a known one, and sends nothing', async () => {
    const before = t.notifier.sent.length;
    const unknown = await post('/app/auth/code', { email: 'nobody@example.com' });
    expect(unknown.statusCode).toBe(202);
    expect(unknown.json()).toEqual({ expiresIn: 300 });
    expect(t.notifier.sent.length).toBe(before);
    expect((await post('/app/auth/token', { email: 'nobody@example.com', code: '123456' })).statusCode).toBe(401);
  });

  it('burns a code after 5 wrong tries', async () => {
    await post('/app/auth/code', { email: 'ANA@example.com' });
    const code = t.notifier.lastCodeFor('ana@example.com')!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await post('/app/auth/token', { email: ana.email, code: wrong })).statusCode).toBe(401);
    const res = await post('/app/auth/token', { email: ana.email, code });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHENTICATED');
  });

  it('sends at most 5 codes per phone or email an hour, known or not', async () => {
    const sixTimes = async (email: string) => {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await post('/app/auth/code', { email })).statusCode);
      return statuses;
    };
    expect(await sixTimes('limit@example.com')).toEqual([202, 202, 202, 202, 202, 429]);
    // ana@example.com already had one code in the previous test.
    expect(await sixTimes(ana.email)).toEqual([202, 202, 202, 202, 429, 429]);
  });

  it('refuses a body with neither or both contacts', async () => {
    expect((await post('/app/auth/code', {})).json()).toMatchObject({ status: 400, code: 'REQUIRED' });
    expect((await post('/app/auth/code', { phone: ana.phone, email: ana.email })).json()).toMatchObject({ status: 400, code: 'MUTUALLY_EXCLUSIVE' });
    expect((await post('/app/auth/code', { phone: '3001234567' })).json()).toMatchObject({ status: 400, errors: [{ pointer: '/phone' }] });
  });

  it('keeps supplier tokens and store-user tokens out of each other\'s API', async () => {
    const minted = await t.admin('POST', '/admin/store-users/token', { email: ana.email });
    expect(minted.statusCode).toBe(200);
    const storeToken = minted.json().access_token;
    expect((await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${a.token}` } })).statusCode).toBe(401);
    const supplierCall = await t.request({ method: 'GET', url: '/store/S-1', headers: { 'x-api-key': a.apiKey, authorization: `Bearer ${storeToken}` } });
    expect(supplierCall.statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/app/me' })).statusCode).toBe(401);
    expect((await t.admin('POST', '/admin/store-users/token', { phone: '+15550000000' })).statusCode).toBe(404);
  });
});
