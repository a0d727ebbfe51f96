// Every date a client sends, in a query or a body, is in years 0001 to 9999 or the request
// is a 400 naming the field (402 on a batch endpoint). Year 0000 parses in JavaScript but
// PostgreSQL refuses it: before, `?from=0000-01-01` reached the database and answered 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;
beforeAll(async () => {
  t = await createTestApp({ worker: false });
  s = await t.supplier();
});
afterAll(() => t.close());

describe('dates outside years 0001 to 9999', () => {
  it.each([
    ['/order?from=0000-01-01', '/query/from'],
    ['/order?to=0000-12-31', '/query/to'],
    ['/order?from=10000-01-01', '/query/from'],
    ['/webhook/deliveries?from=0000-01-01', '/query/from'],
    ['/webhook/deliveries?to=0000-01-01T00:00:00Z', '/query/to'],
    ['/webhook/deliveries?from=0000-06-01T10:00:00%2B02:00', '/query/from'],
  ])('GET %s is a 400 naming %s', async (url, pointer) => {
    const res = await as(t, s, 'GET', url);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual([expect.objectContaining({ pointer, code: 'INVALID_FORMAT', message: expect.stringContaining('0001 to 9999') })]);
  });

  it('an admin query too', async () => {
    const res = await t.admin('GET', `/admin/suppliers/${s.id}/webhook/deliveries?from=0000-01-01`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ pointer: '/query/from', code: 'INVALID_FORMAT' });
  });

  it('the first and last years are accepted', async () => {
    expect((await as(t, s, 'GET', '/order?from=0001-01-01&to=9999-12-31')).statusCode).toBe(200);
    expect((await as(t, s, 'GET', '/webhook/deliveries?from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59Z')).statusCode).toBe(200);
  });

  it('in a body: a promotion starting in year 0000 is a 400 naming /start', async () => {
    const res = await as(t, s, 'PUT', '/promotion/discount/simple', {
      internalCode: 'P0',
      name: 'year zero',
      enabled: true,
      start: '0000-01-01',
      end: '2030-01-01',
      products: { internalCode: 'X', units: 1 },
      discountTiersData: [{ quantityFrom: 1, discountPercentage: 10 }],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toContainEqual(expect.objectContaining({ pointer: '/start', code: 'INVALID_FORMAT' }));
  });

  it('in a batch body: a 402 naming the item field, nothing queued', async () => {
    const confirm = await as(t, s, 'POST', '/batch/order', { confirm: [{ id: 1, deliveryDate: '0000-02-01' }] });
    expect(confirm.statusCode, confirm.body).toBe(402);
    expect(confirm.json().errors).toEqual([expect.objectContaining({ pointer: '/confirm/0/deliveryDate', code: 'INVALID_FORMAT' })]);
    const order = { storeInternalCode: 'S1', status: 'DELIVERED', products: [{ internalCode: 'P1', units: 1, quantity: 1, unitPrice: 1 }] };
    for (const createdAt of ['0000-01-01', '0000-01-01T10:00:00Z', '2025-13-01 10:00', '2025-01-01 nonsense']) {
      const res = await as(t, s, 'POST', '/order/bulk-import', { orders: [{ ...order, createdAt }] });
      expect(res.statusCode, `${createdAt}: ${res.body}`).toBe(402);
      expect(res.json().errors).toEqual([expect.objectContaining({ pointer: '/orders/0/createdAt', code: 'INVALID_FORMAT' })]);
    }
    const fine = await as(t, s, 'POST', '/order/bulk-import', { orders: [{ ...order, createdAt: '2025-01-01 10:00' }] });
    expect(fine.statusCode, fine.body).toBe(202);
  });
});
