// What an order operation's body may and may not leave out (issue 13): a delivery or a
// return must say what moved, a confirmation needs no body at all, `null` in an optional
// field is the field left out, and an unknown cancel code names the ones accepted. Each
// refusal is checked on the single endpoint and as an item of POST /batch/order, and the
// order is checked unchanged after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;

async function submit(url: string, body: unknown) {
  const { ids } = await t.runBatch(s, url, body);
  return (await as(t, s, 'GET', `/batch/${ids[0]}/detail`)).json().detail as { action: string; code: string; errorCode: string | null; message: string | null }[];
}

let seq = 0;
/** Imports orders in the given state (two lines each) and answers their ids. */
async function orders(n: number, status: 'PENDING' | 'CONFIRMED' | 'DELIVERED'): Promise<number[]> {
  const tag = `bodies-${++seq}`;
  const list = Array.from({ length: n }, (_, i) => ({
    externalId: `${tag}-${i}`,
    storeInternalCode: 'S1',
    createdAt: '2026-03-01T10:00:00Z',
    status,
    products: [
      { internalCode: 'P1', units: 12, quantity: 3, unitPrice: 100 },
      { internalCode: 'P2', units: 1, quantity: 10, unitPrice: 5 },
    ],
  }));
  await submit('/order/bulk-import', { orders: list });
  const found = (await as(t, s, 'GET', '/order?take=50')).json().data as { id: number; externalId: string }[];
  return list.map((o) => found.find((x) => x.externalId === o.externalId)!.id);
}

const order = async (id: number) => (await as(t, s, 'GET', `/order/${id}`)).json();

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  await submit('/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda' }] });
});
afterAll(() => t.close());

const LINE = { internalCode: 'P1', units: 12, quantity: 1 };

// [body, the field the 400 names, its code]
const REFUSED: [string, unknown, string, string][] = [
  ['an empty object', {}, '/complete', 'REQUIRED'],
  ['complete: false alone', { complete: false }, '/products', 'REQUIRED'],
  ['an empty products array', { products: [] }, '/products', 'INVALID_LENGTH'],
  ['complete: false with an empty products array', { complete: false, products: [] }, '/products', 'INVALID_LENGTH'],
  ['only unknown fields', { delivered: true, lines: [LINE] }, '/complete', 'REQUIRED'],
  ['complete: null', { complete: null }, '/complete', 'REQUIRED'],
];

describe('PUT /order/{id}/deliver and /return refuse a body that does not say what moved', () => {
  for (const op of ['deliver', 'return'] as const) {
    const from = op === 'deliver' ? 'CONFIRMED' : 'DELIVERED';
    for (const [what, body, pointer, code] of REFUSED) {
      it(`${op}: ${what} is a 400 naming ${pointer}, and the order is unchanged`, async () => {
        const [id] = await orders(1, from);
        const before = await order(id!);
        const res = await as(t, s, 'PUT', `/order/${id}/${op}`, body);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ code, errors: [{ pointer, code }] });
        expect(res.json().detail).toMatch(/products|complete/);
        expect(await order(id!)).toEqual(before);
      });
    }

    it(`${op}: no body at all is a 400 too (POST)`, async () => {
      const [id] = await orders(1, from);
      const res = await t.request({ method: 'POST', url: `/order/${id}/${op}`, headers: s.headers });
      expect(res.json()).toMatchObject({ status: 400, code: 'REQUIRED', errors: [{ pointer: '/complete' }] });
      expect((await order(id!)).status).toBe(from);
    });
  }

  it('return: a reason alone is a 400, the order still DELIVERED', async () => {
    const [id] = await orders(1, 'DELIVERED');
    const res = await as(t, s, 'PUT', `/order/${id}/return`, { reason: 'broken' });
    expect(res.json()).toMatchObject({ status: 400, code: 'REQUIRED', errors: [{ pointer: '/complete' }] });
    expect((await order(id!)).status).toBe('DELIVERED');
  });

  it('accepts complete: true, or products (complete false, absent or null)', async () => {
    const [a, b, c] = await orders(3, 'CONFIRMED');
    expect((await as(t, s, 'PUT', `/order/${a}/deliver`, { complete: true })).json()).toMatchObject({ status: 'DELIVERED', products: [{ deliveredQuantity: 3 }, { deliveredQuantity: 10 }] });
    expect((await as(t, s, 'PUT', `/order/${b}/deliver`, { complete: false, products: [LINE] })).json().products.map((l: { deliveredQuantity: number }) => l.deliveredQuantity)).toEqual([1, 0]);
    expect((await as(t, s, 'PUT', `/order/${c}/deliver`, { complete: null, products: [LINE] })).json().products.map((l: { deliveredQuantity: number }) => l.deliveredQuantity)).toEqual([1, 0]);
    const returned = await as(t, s, 'PUT', `/order/${b}/return`, { products: [LINE], reason: null });
    expect(returned.json()).toMatchObject({ status: 'RETURNED' });
    expect(returned.json().history.at(-1)).not.toHaveProperty('note');
    expect((await as(t, s, 'PUT', `/order/${a}/return`, { complete: true, products: null })).json().status).toBe('RETURNED');
  });
});

describe('POST /batch/order: the same bodies are item failures', () => {
  it('fails each deliver and return item that does not say what moved, and applies the rest', async () => {
    const confirmed = await orders(REFUSED.length + 1, 'CONFIRMED');
    const delivered = await orders(REFUSED.length + 1, 'DELIVERED');
    const detail = await submit('/batch/order', {
      deliver: [...REFUSED.map(([, body], i) => ({ ...(body as object), id: confirmed[i] })), { id: confirmed.at(-1), products: [LINE] }],
      return: [...REFUSED.map(([, body], i) => ({ ...(body as object), id: delivered[i] })), { id: delivered.at(-1), complete: true }],
    });
    const expected = (action: string, ids: number[]) => [
      ...REFUSED.map(([, , , code], i) => `${action} ${ids[i]} ${code}`),
      `${action} ${ids.at(-1)} null`,
    ];
    expect(detail.map((d) => `${d.action} ${d.code} ${d.errorCode}`)).toEqual([...expected('deliver', confirmed), ...expected('return', delivered)]);
    for (const d of detail.filter((x) => x.errorCode !== null)) expect(d.message).toMatch(/\b(products|complete)\b/);
    for (const id of confirmed.slice(0, -1)) expect((await order(id)).status).toBe('CONFIRMED');
    for (const id of delivered.slice(0, -1)) expect((await order(id)).status).toBe('DELIVERED');
    expect((await order(confirmed.at(-1)!)).status).toBe('DELIVERED');
    expect((await order(delivered.at(-1)!)).status).toBe('RETURNED');
  });

  it('confirms items with no deliveryDate or a null one, and still refuses an empty request with EMPTY_BATCH', async () => {
    const [a, b] = await orders(2, 'PENDING');
    const detail = await submit('/batch/order', { confirm: [{ id: a }, { id: b, deliveryDate: null }] });
    expect(detail.map((d) => d.errorCode)).toEqual([null, null]);
    expect((await order(b!)).status).toBe('CONFIRMED');
    for (const payload of [undefined, '', '{}']) {
      const res = await t.request({ method: 'POST', url: '/batch/order', headers: { ...s.headers, 'content-type': 'application/json' }, payload });
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(402);
      expect(res.json().errors).toEqual([expect.objectContaining({ code: 'EMPTY_BATCH' })]);
    }
  });
});

describe('PUT /order/{id}/confirm needs no body', () => {
  const ways: [string, Record<string, unknown>][] = [
    ['no body and no content type', {}],
    ['an empty body as application/json', { payload: '', headers: { 'content-type': 'application/json' } }],
    ['a blank body as application/json', { payload: ' \n', headers: { 'content-type': 'application/json' } }],
    ['{}', { payload: {} }],
    ['a JSON null', { payload: 'null', headers: { 'content-type': 'application/json' } }],
    ['deliveryDate: null', { payload: { deliveryDate: null } }],
  ];
  for (const [what, request] of ways) {
    it(`confirms with ${what}`, async () => {
      const [id] = await orders(1, 'PENDING');
      const res = await t.request({ method: 'PUT', url: `/order/${id}/confirm`, ...request, headers: { ...s.headers, ...(request.headers as object) } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id, status: 'CONFIRMED', deliveryDate: null });
    });
  }

  it('still refuses a body that is not JSON or not an object', async () => {
    const [id] = await orders(1, 'PENDING');
    const bad = await t.request({ method: 'PUT', url: `/order/${id}/confirm`, payload: '{', headers: { ...s.headers, 'content-type': 'application/json' } });
    expect(bad.json()).toMatchObject({ status: 400, code: 'MALFORMED_JSON' });
    expect((await as(t, s, 'PUT', `/order/${id}/confirm`, [])).json()).toMatchObject({ status: 400, code: 'INVALID_TYPE' });
    expect((await order(id!)).status).toBe('PENDING');
  });

  it('a missing body on a route with a required field names that field', async () => {
    const [id] = await orders(1, 'PENDING');
    const res = await t.request({ method: 'PUT', url: `/order/${id}/cancel`, headers: s.headers });
    expect(res.json()).toMatchObject({ status: 400, code: 'REQUIRED', errors: [{ pointer: '/cancelCode' }] });
  });
});

describe('an unknown cancel code lists the codes the caller may use', () => {
  it('for the supplier, on the endpoint and in a batch item', async () => {
    const [a, b] = await orders(2, 'PENDING');
    const res = await as(t, s, 'PUT', `/order/${a}/cancel`, { cancelCode: 'NOPE' });
    expect(res.json()).toMatchObject({ status: 400, code: 'INVALID_CANCEL_CODE', errors: [{ pointer: '/cancelCode', code: 'INVALID_CANCEL_CODE' }] });
    const supplierCodes = 'OUT_OF_STOCK, CREDIT_REFUSED, ADDRESS_NOT_SERVED, STORE_REQUEST';
    expect(res.json().detail).toBe(`NOPE is not a cancellation code for the supplier; use one of: ${supplierCodes}`);
    expect(res.json().errors[0].message).toBe(res.json().detail);
    // A store's code is not the supplier's either.
    expect((await as(t, s, 'PUT', `/order/${a}/cancel`, { cancelCode: 'NEW_ORDER' })).json().detail).toContain(`use one of: ${supplierCodes}`);
    const [item] = await submit('/batch/order', { cancel: [{ id: b, cancelCode: 'NOPE' }] });
    expect(item).toMatchObject({ errorCode: 'INVALID_CANCEL_CODE', message: `NOPE is not a cancellation code for the supplier; use one of: ${supplierCodes}` });
    expect((await order(a!)).status).toBe('PENDING');
    expect((await order(b!)).status).toBe('PENDING');
  });

  it("for the store, its own codes, and the supplier's own list once replaced", async () => {
    await as(t, s, 'POST', '/store/S1/add/user', { users: [{ phone: '+573005551313' }] });
    const token = (await t.admin('POST', '/admin/store-users/token', { phone: '+573005551313' })).json().access_token;
    const [id] = await orders(1, 'PENDING');
    const cancel = (cancelCode: string) =>
      t.request({ method: 'POST', url: `/app/orders/${id}/cancel`, headers: { authorization: `Bearer ${token}` }, payload: { cancelCode } });
    const res = await cancel('OUT_OF_STOCK');
    expect(res.json()).toMatchObject({ status: 400, code: 'INVALID_CANCEL_CODE', errors: [{ pointer: '/cancelCode' }] });
    expect(res.json().detail).toBe('OUT_OF_STOCK is not a cancellation code for the store; use one of: NEW_ORDER, WRONG_PRODUCTS, NO_LONGER_NEEDED, DELIVERY_TOO_LATE');
    await t.admin('PUT', `/admin/suppliers/${s.id}/cancel-codes`, [
      { code: 'MINE', reason: 'Mine', usage: 'SUPPLIER' },
      { code: 'THEIRS', reason: 'Theirs', usage: 'STORE' },
    ]);
    expect((await cancel('NEW_ORDER')).json().detail).toBe('NEW_ORDER is not a cancellation code for the store; use one of: THEIRS');
    expect((await as(t, s, 'PUT', `/order/${id}/cancel`, { cancelCode: 'THEIRS' })).json().detail).toBe(
      'THEIRS is not a cancellation code for the supplier; use one of: MINE',
    );
    expect((await cancel('THEIRS')).json().status).toBe('CANCELLED');
  });

  it('an empty replacement list is refused and the codes are kept', async () => {
    const before = (await as(t, s, 'GET', '/supplier/cancelcodes')).json();
    const res = await t.admin('PUT', `/admin/suppliers/${s.id}/cancel-codes`, []);
    expect(res.json()).toMatchObject({ status: 400, code: 'INVALID_LENGTH', errors: [{ pointer: '', message: 'must hold at least 1 item' }] });
    expect((await as(t, s, 'GET', '/supplier/cancelcodes')).json()).toEqual(before);
  });
});
