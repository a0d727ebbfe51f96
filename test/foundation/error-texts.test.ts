// Error texts fit their route (issue 13): TOO_MANY_ITEMS speaks of a batch request only on
// a batch endpoint, and a value outside a list of allowed values names them all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;
beforeAll(async () => {
  t = await createTestApp({ worker: false, env: { MAX_BATCH_REQUEST_ITEMS: '2' } });
  s = await t.supplier();
});
afterAll(() => t.close());

const promotion = {
  internalCode: 'P',
  name: 'P',
  enabled: true,
  start: '2026-01-01',
  end: '2026-02-01',
  discountTiersData: [{ min: 1, discountPercentage: 5 }],
};

describe('TOO_MANY_ITEMS', () => {
  it('on an ordinary endpoint: 400, says how many the list may hold, and nothing of batches', async () => {
    const res = await as(t, s, 'PUT', '/promotion/discount/simple', { ...promotion, products: [{ internalCode: 'A' }, { internalCode: 'B' }] });
    expect(res.json()).toMatchObject({
      status: 400,
      code: 'TOO_MANY_ITEMS',
      title: 'Too many items',
      detail: '/products must hold at most 1 items',
      errors: [{ pointer: '/products', code: 'TOO_MANY_ITEMS', message: 'must hold at most 1 items' }],
    });
    expect(res.body).not.toMatch(/batch/i);
  });

  it('on a batch endpoint: 402, and the detail names the batch request limit', async () => {
    const res = await as(t, s, 'POST', '/batch/order', { confirm: [{ id: 1 }, { id: 2 }, { id: 3 }] });
    expect(res.json()).toMatchObject({ status: 402, code: 'TOO_MANY_ITEMS', title: 'Too many items', detail: 'a batch request holds at most 2 items; this one has 3' });
  });

  it('too few items says how many are needed', async () => {
    const res = await as(t, s, 'POST', '/store/S/add/user', { users: [] });
    expect(res.json()).toMatchObject({ status: 400, code: 'INVALID_LENGTH', errors: [{ pointer: '/users', message: 'must hold at least 1 item' }] });
  });
});

describe('a value outside its list', () => {
  it('names the allowed values, in a query string', async () => {
    const res = await as(t, s, 'GET', '/order?status=SHIPPED');
    expect(res.json()).toMatchObject({
      status: 400,
      code: 'INVALID_VALUE',
      detail: '/query/status must be one of: PENDING, CONFIRMED, DELIVERED, RETURNED, CANCELLED',
      errors: [{ pointer: '/query/status', code: 'INVALID_VALUE', message: 'must be one of: PENDING, CONFIRMED, DELIVERED, RETURNED, CANCELLED' }],
    });
  });

  it('names the allowed values, in a body (an enum and a union of literals)', async () => {
    const res = await t.admin('PUT', `/admin/suppliers/${s.id}/cancel-codes`, [{ code: 'X', reason: 'x', usage: 'BOTH' }]);
    expect(res.json()).toMatchObject({ status: 400, code: 'INVALID_VALUE', errors: [{ pointer: '/0/usage', message: 'must be one of: STORE, SUPPLIER' }] });
    const tickets = await as(t, s, 'GET', '/support/ticket?status=OPEN');
    expect(tickets.json().errors).toEqual([
      { pointer: '/query/status', code: 'INVALID_VALUE', message: 'must be one of: PENDING, IN_PROGRESS, ADDITIONAL_INFO_REQUESTED, SOLVED, CLOSED' },
    ]);
  });
});
