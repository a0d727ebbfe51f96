// The words the service writes for a store buyer come in the buyer's language (issue 34):
// the cancel reasons of GET /app/stores/{id}/cancel-codes and an order's cancellation, in
// the request's Accept-Language (a saved language words messages, not answers); the supplier API
// keeps answering the stored (English) reason, and a client that says nothing gets it too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { importPendingOrders } from '../helpers/fixtures.ts';
import { acceptedLanguage } from '../../src/modules/messages/messages.templates.ts';

let t: TestApp;
let s: TestSupplier;
let anaToken: string;
let storeId: number;

const ana = { phone: '+573001119988', name: 'Ana' };

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  await t.runBatch(s, '/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda Ana' }] });
  expect((await as(t, s, 'POST', '/store/S1/add/user', { users: [ana] })).statusCode).toBe(200);
  anaToken = (await t.admin('POST', '/admin/store-users/token', { phone: ana.phone })).json().access_token;
  storeId = (await get('/app/me')).json().stores[0].id;
});
afterAll(() => t.close());

function get(url: string, language?: string) {
  return t.request({ method: 'GET', url, headers: { authorization: `Bearer ${anaToken}`, ...(language ? { 'accept-language': language } : {}) } });
}
const reasons = async (language?: string) => (await get(`/app/stores/${storeId}/cancel-codes`, language)).json().data.map((c: { reason: string }) => c.reason);

describe("the buyer's language", () => {
  it('words the cancel reasons by Accept-Language: Spanish, Portuguese, English; as stored when the request names none', async () => {
    expect(await reasons('es-CO,es;q=0.9,en;q=0.8')).toEqual(['Voy a hacer un pedido nuevo', 'Elegí mal los productos o las cantidades', 'Ya no necesito el pedido', 'La fecha de entrega no me sirve']);
    expect((await reasons('pt-BR'))[0]).toBe('Vou fazer um novo pedido');
    expect((await reasons('en-US,en;q=0.9'))[0]).toBe('I will place a new order');
    expect((await reasons('fr-FR, de;q=0.5, pt;q=0.3'))[0]).toBe('Vou fazer um novo pedido');
    expect((await reasons())[0]).toBe('I will place a new order');
  });

  it("translates an order's cancellation for the buyer; the supplier API answers the stored reason", async () => {
    const [id] = await importPendingOrders(t, s, [['lang-1', [{ internalCode: 'P1', units: 1, quantity: 2, unitPrice: 1000 }]]]);
    const cancelled = await as(t, s, 'PUT', `/order/${id}/cancel`, { cancelCode: 'OUT_OF_STOCK' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().cancellation.reason).toBe('The products are out of stock');
    expect((await get(`/app/orders/${id}`, 'es-CO')).json().cancellation).toMatchObject({ code: 'OUT_OF_STOCK', reason: 'Los productos están agotados' });
    expect((await get(`/app/orders/${id}`, 'pt-BR')).json().cancellation.reason).toBe('Os produtos estão esgotados');
    const list = (await get(`/app/stores/${storeId}/orders`, 'es')).json().data;
    expect(list.find((o: { id: number }) => o.id === id).cancellation.reason).toBe('Los productos están agotados');
    expect((await as(t, s, 'GET', `/order/${id}`)).json().cancellation.reason).toBe('The products are out of stock');
  });

  it("a store's own cancellation reads back in its language", async () => {
    const [id] = await importPendingOrders(t, s, [['lang-2', [{ internalCode: 'P1', units: 1, quantity: 1, unitPrice: 1000 }]]]);
    const res = await t.request({ method: 'POST', url: `/app/orders/${id}/cancel`, headers: { authorization: `Bearer ${anaToken}`, 'accept-language': 'es' }, payload: { cancelCode: 'NO_LONGER_NEEDED' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().cancellation).toMatchObject({ code: 'NO_LONGER_NEEDED', reason: 'Ya no necesito el pedido', by: 'STORE' });
  });

  it('a language the person saved leaves a request that names none as stored (the recorded answers); the request words it', async () => {
    const saved = await t.request({ method: 'PUT', url: '/app/me/preferences', headers: { authorization: `Bearer ${anaToken}` }, payload: { language: 'pt-BR' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await reasons())[0]).toBe('I will place a new order');
    expect((await reasons('es-CO'))[0]).toBe('Voy a hacer un pedido nuevo');
  });

  it("answers a supplier's own reasons as written", async () => {
    await t.admin('PUT', `/admin/suppliers/${s.id}/cancel-codes`, [
      { code: 'NEW_ORDER', reason: 'Haré otro pedido', usage: 'STORE' },
      { code: 'OUT_OF_STOCK', reason: 'The products are out of stock', usage: 'SUPPLIER' },
    ]);
    expect(await reasons('en')).toEqual(['Haré otro pedido']);
  });

  it('reads Accept-Language by its weights', () => {
    expect(acceptedLanguage('en;q=0.2, pt-PT;q=0.8')).toBe('pt-BR');
    expect(acceptedLanguage('*')).toBeUndefined();
    expect(acceptedLanguage('es;q=0, en')).toBe('en');
    expect(acceptedLanguage(undefined)).toBeUndefined();
  });
});
