// GET /app/stores/{storeId}/cancel-codes: the reasons a store may give, from its supplier's
// STORE codes, only for stores the person belongs to. And GET /app/me's settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let a: TestSupplier;
let b: TestSupplier;
let anaToken: string;
let bobToken: string;

const ana = { phone: '+573001112233', name: 'Ana' };
const bob = { phone: '+573004445566', name: 'Bob' };

beforeAll(async () => {
  t = await createTestApp({ env: { CURRENCY: 'BRL', LOCALE: 'pt-BR', TIMEZONE: 'America/Sao_Paulo', CURRENCY_DECIMALS: '2' } });
  a = await t.supplier();
  b = await t.supplier();
  for (const [s, user] of [[a, ana], [b, bob]] as const) {
    await t.runBatch(s, '/batch/store', { upsert: [{ internalCode: 'S-1', name: `Tienda de ${s.code}` }] });
    expect((await as(t, s, 'POST', '/store/S-1/add/user', { users: [user] })).statusCode).toBe(200);
  }
  const token = async (phone: string) => (await t.admin('POST', '/admin/store-users/token', { phone })).json().access_token as string;
  anaToken = await token(ana.phone);
  bobToken = await token(bob.phone);
});
afterAll(() => t.close());

const get = (url: string, token: string) => t.request({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
const storeOf = async (token: string) => (await get('/app/me', token)).json().stores[0].id as number;

describe('store cancel codes', () => {
  it("answers the supplier's STORE codes only, with their reasons", async () => {
    const res = await get(`/app/stores/${await storeOf(anaToken)}/cancel-codes`, anaToken);
    expect(res.statusCode).toBe(200);
    const codes = res.json().data;
    expect(codes.map((c: { code: string }) => c.code)).toEqual(['NEW_ORDER', 'WRONG_PRODUCTS', 'NO_LONGER_NEEDED', 'DELIVERY_TOO_LATE']);
    expect(codes[0]).toEqual({ code: 'NEW_ORDER', reason: 'I will place a new order' });
  });

  it("follows the supplier's own list once the admin replaces it", async () => {
    const replaced = await t.admin('PUT', `/admin/suppliers/${a.id}/cancel-codes`, [
      { code: 'TOO_EXPENSIVE', reason: 'Muy caro', usage: 'STORE' },
      { code: 'NO_TRUCK', reason: 'Sin camión', usage: 'SUPPLIER' },
    ]);
    expect(replaced.statusCode).toBe(200);
    expect((await get(`/app/stores/${await storeOf(anaToken)}/cancel-codes`, anaToken)).json()).toEqual({ data: [{ code: 'TOO_EXPENSIVE', reason: 'Muy caro' }] });
  });

  it("answers 404 for another person's store, 401 without a store token", async () => {
    const bobStore = await storeOf(bobToken);
    const res = await get(`/app/stores/${bobStore}/cancel-codes`, anaToken);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
    expect((await get(`/app/stores/999999/cancel-codes`, anaToken)).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/app/stores/${bobStore}/cancel-codes`, headers: { authorization: `Bearer ${b.token}` } })).statusCode).toBe(401);
    expect((await get('/app/stores/abc/cancel-codes', anaToken)).statusCode).toBe(400);
  });

  it('GET /app/me answers how to show money and dates (CURRENCY, CURRENCY_DECIMALS, LOCALE, TIMEZONE)', async () => {
    expect((await get('/app/me', anaToken)).json().settings).toEqual({ currency: 'BRL', currencyDecimals: 2, locale: 'pt-BR', timezone: 'America/Sao_Paulo' });
  });
});
