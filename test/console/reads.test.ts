// The supplier API's reads for the console (docs/decisions.md, "Supplier API reads for the
// console"): lists with paging and search, a price list's entries by page and by cursor, a
// stock grouper's rules, batches with their counts, the webhook settings, the credentials,
// and a cart priced as a store sees it. Tenancy and scopes of every one of them are in
// test/hardening (the matrices walk the route table).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;
const batchIds: string[] = [];
const Q = Array.from({ length: 120 }, (_, i) => `Q-${String(i).padStart(3, '0')}`);

const get = async (url: string, who = s) => {
  const res = await as(t, who, 'GET', url);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};
const codes = (body: { data: { internalCode?: string; productInternalCode?: string }[] }) => body.data.map((d) => d.internalCode ?? d.productInternalCode);

async function batch(url: string, body: unknown) {
  const ids = await t.submitBatch(s, url, body);
  batchIds.push(...ids);
  return t.waitForBatches(s, ids);
}

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  await as(t, s, 'PUT', '/category', { internalCode: 'C-1', name: 'Drinks' });
  await as(t, s, 'PUT', '/subcategory', { internalCode: 'C-1-1', name: 'Sodas', parentCategoryInternalCode: 'C-1' });
  await as(t, s, 'PUT', '/category', { internalCode: 'C-2', name: 'Water' });
  await batch('/batch/brand', { upsert: [{ internalCode: 'B-1', name: 'Cola Co' }, { internalCode: 'B-2', name: 'Aqua' }] });
  const product = (internalCode: string, name: string, brand = 'B-2', category = 'C-2', enabled = true) => ({
    internalCode,
    name,
    brandInternalCode: brand,
    categoryInternalCode: category,
    enabled,
  });
  await batch('/batch/product', {
    upsert: [
      product('P-1', 'Cola 350 ml', 'B-1', 'C-1-1'),
      product('P-10', 'Cola Zero', 'B-1', 'C-1', false),
      product('P-2', 'Agua 600 ml'),
      product('P_X', 'Agua 100% natural'),
      product('p-lower', 'Zeta'),
      ...Q.map((code) => product(code, `Bulk ${code}`)),
    ],
  });
  for (const [code, name] of [['PL-BIG', 'Main list'], ['PL-2', 'Second'], ['OTHER', 'Promo prices']]) await as(t, s, 'POST', '/pricelist', { internalCode: code, name });
  await batch('/batch/pricelist', {
    upsert: {
      products: [
        ...['P-1', 'P-2', ...Q].flatMap((p) => [1, 6].map((units) => ({ priceListInternalCode: 'PL-BIG', productInternalCode: p, units, price: units * 1000 }))),
        { priceListInternalCode: 'PL-2', productInternalCode: 'P-1', units: 1, price: 900 },
      ],
    },
  });
  await as(t, s, 'POST', '/grouper/promotion', { internalCode: 'G-1', name: 'Segment North' });
  await as(t, s, 'POST', '/grouper/promotion', { internalCode: 'G-2', name: 'Segment South' });
  await as(t, s, 'POST', '/grouper/stock', { internalCode: 'W-1', name: 'Warehouse Bogotá' });
  await batch('/batch/store', {
    upsert: [
      { internalCode: 'S-1', name: 'Tienda La 14', priceListCode: 'PL-BIG', stockGrouperCode: 'W-1', promotionGrouperCodes: ['G-1'] },
      { internalCode: 'S-2', name: 'Minimercado Sol', enabled: false },
      { internalCode: 'S-10', name: 'Tienda Norte', priceListCode: 'PL-BIG' },
    ],
  });
  await batch('/batch/stock/grouper', {
    upsert: [
      { grouperCode: 'W-1', productInternalCode: 'P-2', available: false },
      { grouperCode: 'W-1', productInternalCode: 'P-2', units: 6, available: true },
      { grouperCode: 'W-1', productInternalCode: 'Q-000', available: true },
    ],
  });
  const promo = await as(t, s, 'PUT', '/promotion/discount/simple', {
    internalCode: 'PROMO-1',
    name: 'Cola 10%',
    start: '2000-01-01',
    end: '2099-12-31',
    enabled: true,
    products: { internalCode: 'P-1' },
    discountTiersData: [{ min: 10, discountPercentage: 10 }],
  });
  expect(promo.statusCode, promo.body).toBe(200);
  // One failing batch (an unknown product) for the counts.
  await batch('/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'PL-2', productInternalCode: 'NOPE', units: 1, price: 1 }] } });
}, 300_000);
afterAll(() => t.close());

describe('GET /product', () => {
  it('pages every product by code bytes, each as GET /product/{code} answers it', async () => {
    const first = await get('/product?take=3');
    expect(first).toMatchObject({ page: 1, take: 3, total: 125, totalPages: 42 });
    expect(codes(first)).toEqual(['P-1', 'P-10', 'P-2']);
    expect(first.data[0]).toEqual(await get('/product/P-1'));
    const last = await get('/product?take=3&page=42');
    expect(codes(last)).toEqual(['Q-119', 'p-lower']);
    expect((await get('/product?page=43&take=3')).data).toEqual([]);
  });

  it('searches code and name case-insensitively, taking % and _ literally', async () => {
    expect(codes(await get('/product?search=cola'))).toEqual(['P-1', 'P-10']);
    expect(codes(await get('/product?search=p-1'))).toEqual(['P-1', 'P-10']);
    expect(codes(await get(`/product?search=${encodeURIComponent('100%')}`))).toEqual(['P_X']);
    expect(codes(await get('/product?search=_'))).toEqual(['P_X']);
    expect((await get('/product?search=nothing-like-this')).total).toBe(0);
  });

  it('filters by state, brand, and category (a category takes in its subcategories)', async () => {
    expect(codes(await get('/product?enabled=false'))).toEqual(['P-10']);
    expect(codes(await get('/product?brand=B-1'))).toEqual(['P-1', 'P-10']);
    expect(codes(await get('/product?category=C-1'))).toEqual(['P-1', 'P-10']);
    expect(codes(await get('/product?category=C-1-1'))).toEqual(['P-1']);
  });

  it('refuses a take outside 1..50 and an empty search with 400 naming the field', async () => {
    for (const query of ['take=51', 'take=0', 'page=0', 'search=']) {
      const res = await as(t, s, 'GET', `/product?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errors[0].pointer, query).toMatch(/^\/query\//);
    }
  });
});

describe('GET /store', () => {
  it('pages stores by code with their links, without users', async () => {
    const body = await get('/store');
    expect(codes(body)).toEqual(['S-1', 'S-10', 'S-2']);
    const { users: _users, ...one } = await get('/store/S-1');
    expect(body.data[0]).toEqual(one);
    expect(body.data[0]).toMatchObject({ priceListCode: 'PL-BIG', stockGrouperCode: 'W-1', promotionGrouperCodes: ['G-1'] });
  });

  it('searches code and name and filters by state', async () => {
    expect(codes(await get('/store?search=tienda'))).toEqual(['S-1', 'S-10']);
    expect(codes(await get('/store?search=S-1'))).toEqual(['S-1', 'S-10']);
    expect(codes(await get('/store?enabled=false'))).toEqual(['S-2']);
  });
});

describe('GET /pricelist and /pricelist/{code}/entries', () => {
  it('pages price lists with their store counts, searching code and name', async () => {
    const body = await get('/pricelist');
    expect(body.data.map((l: { internalCode: string; storeCount: number }) => [l.internalCode, l.storeCount])).toEqual([
      ['OTHER', 0],
      ['PL-2', 0],
      ['PL-BIG', 2],
    ]);
    expect(codes(await get('/pricelist?search=promo'))).toEqual(['OTHER']);
    expect(codes(await get('/pricelist?search=PL-'))).toEqual(['PL-2', 'PL-BIG']);
  });

  it('pages entries by product code then units, and a cursor walk gives exactly the same rows', async () => {
    const first = await get('/pricelist/PL-BIG/entries?take=3');
    expect(first).toMatchObject({ page: 1, take: 3, total: 244, totalPages: 82 });
    expect(first.data).toEqual([
      { productInternalCode: 'P-1', productName: 'Cola 350 ml', units: 1, price: 1000, updatedAt: expect.any(String) },
      { productInternalCode: 'P-1', productName: 'Cola 350 ml', units: 6, price: 6000, updatedAt: expect.any(String) },
      { productInternalCode: 'P-2', productName: 'Agua 600 ml', units: 1, price: 1000, updatedAt: expect.any(String) },
    ]);
    const byOffset = [];
    for (let p = 1; p <= 5; p++) byOffset.push(...(await get(`/pricelist/PL-BIG/entries?page=${p}`)).data);
    const byCursor = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const body: { data: unknown[]; next: string | null; total: number } = await get(`/pricelist/PL-BIG/entries${next ? `?after=${encodeURIComponent(next)}` : ''}`);
      expect(body.total).toBe(244);
      byCursor.push(...body.data);
      next = body.next;
      pages++;
    } while (next);
    expect(pages).toBe(5);
    expect(byCursor).toEqual(byOffset);
    expect(byCursor).toHaveLength(244);
    const keys = byCursor.map((e: any) => `${e.productInternalCode}/${e.units}`);
    expect(new Set(keys).size).toBe(244);
    expect((await get('/pricelist/PL-BIG/entries?page=5')).next).toBeNull();
  });

  it('searches product code and name within the list', async () => {
    const body = await get('/pricelist/PL-BIG/entries?search=cola');
    expect(body.data.map((e: { productInternalCode: string; units: number }) => [e.productInternalCode, e.units])).toEqual([
      ['P-1', 1],
      ['P-1', 6],
    ]);
    expect(body).toMatchObject({ total: 2, next: null });
    expect((await get('/pricelist/PL-BIG/entries?search=Q-11')).total).toBe(20);
  });

  it('refuses a cursor it did not give out (400 at /query/after) and answers 404 for an unknown list', async () => {
    for (const after of ['not-a-cursor', Buffer.from('["P-1"]').toString('base64url'), Buffer.from('[1,"x"]').toString('base64url')]) {
      const res = await as(t, s, 'GET', `/pricelist/PL-BIG/entries?after=${after}`);
      expect(res.statusCode, after).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_FORMAT', errors: [{ pointer: '/query/after' }] });
    }
    const missing = await as(t, s, 'GET', '/pricelist/NOPE/entries');
    expect(missing.statusCode).toBe(404);
  });
});

describe('groupers and stock', () => {
  it('pages each kind of grouper apart, with store counts and search', async () => {
    const promotion = await get('/grouper/promotion');
    expect(promotion.data.map((g: { internalCode: string; storeCount: number }) => [g.internalCode, g.storeCount])).toEqual([
      ['G-1', 1],
      ['G-2', 0],
    ]);
    expect(codes(await get('/grouper/promotion?search=south'))).toEqual(['G-2']);
    expect(codes(await get('/grouper/stock'))).toEqual(['W-1']);
    expect((await get('/grouper/stock?enabled=false')).total).toBe(0);
  });

  it("pages a stock grouper's rules by product code, the rule for every size first (units null)", async () => {
    const body = await get('/grouper/W-1/stock/rules');
    expect(body.data.map((r: { productInternalCode: string; units: number | null; available: boolean }) => [r.productInternalCode, r.units, r.available])).toEqual([
      ['P-2', null, false],
      ['P-2', 6, true],
      ['Q-000', null, true],
    ]);
    expect(body.data[0]).toMatchObject({ productName: 'Agua 600 ml', updatedAt: expect.any(String) });
    expect((await get('/grouper/W-1/stock/rules?available=false')).total).toBe(1);
    expect((await get('/grouper/W-1/stock/rules?search=bulk')).total).toBe(1);
    expect((await as(t, s, 'GET', '/grouper/G-1/stock/rules')).statusCode).toBe(404);
  });
});

describe('GET /batch', () => {
  it('lists batches newest first, each as its status answers, with the count in each state', async () => {
    const body = await get('/batch');
    expect(body.total).toBe(batchIds.length);
    expect(body.data.map((b: { batchId: string }) => b.batchId)).toEqual([...batchIds].reverse());
    expect(body.data[0]).toEqual(await get(`/batch/${body.data[0].batchId}/status`));
    expect(body.counts).toEqual({ processing: 0, processed: batchIds.length - 1, failed: 1 });
  });

  it('filters by status and endpoint; the counts follow the endpoint filter only', async () => {
    const failed = await get('/batch?status=failed');
    expect(failed).toMatchObject({ total: 1, counts: { processing: 0, processed: batchIds.length - 1, failed: 1 } });
    expect(failed.data[0]).toMatchObject({ endpoint: '/batch/pricelist', status: 'failed' });
    const prices = await get(`/batch?endpoint=${encodeURIComponent('/batch/pricelist')}`);
    expect(prices).toMatchObject({ total: 2, counts: { processing: 0, processed: 1, failed: 1 } });
    expect((await as(t, s, 'GET', '/batch?status=done')).statusCode).toBe(400);
  });
});

describe("the supplier's webhook settings and credentials", () => {
  it('answers the webhook URL and state, never the secret; a rotation shows while the old secret signs', async () => {
    expect(await get('/webhook')).toEqual({ baseUrl: null, enabled: false, previousSecretExpiresAt: null, updatedAt: null });
    const set = await t.admin('PUT', `/admin/suppliers/${s.id}/webhook`, { baseUrl: 'https://erp.example/api', enabled: true });
    expect(set.statusCode, set.body).toBe(200);
    const settings = await get('/webhook');
    expect(settings).toEqual({ baseUrl: 'https://erp.example/api', enabled: true, previousSecretExpiresAt: null, updatedAt: expect.any(String) });
    expect((await t.admin('POST', `/admin/suppliers/${s.id}/webhook/rotate-secret`)).statusCode).toBe(200);
    const rotated = await as(t, s, 'GET', '/webhook');
    expect(rotated.json().previousSecretExpiresAt).toEqual(expect.any(String));
    expect(rotated.body).not.toContain('whsec_');
  });

  it('lists credentials newest first with scopes and revocation, never a secret or key', async () => {
    const extra = await t.admin('POST', `/admin/suppliers/${s.id}/credentials`, { scopes: ['supplier/batch.read'] });
    const issued = extra.json();
    expect((await t.admin('DELETE', `/admin/credentials/${issued.clientId}`)).statusCode).toBe(200);
    const res = await as(t, s, 'GET', '/credential');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 2, page: 1 });
    expect(body.data[0]).toEqual({ clientId: issued.clientId, scopes: ['supplier/batch.read'], createdAt: expect.any(String), revokedAt: expect.any(String) });
    expect(body.data[1]).toMatchObject({ clientId: s.clientId, revokedAt: null });
    expect(body.data[1].scopes).toContain('supplier/credential.read');
    for (const secret of [s.clientSecret, s.apiKey, issued.clientSecret, issued.apiKey]) expect(res.body).not.toContain(secret);
    expect(codes({ data: (await get('/credential?revoked=false')).data.map((c: { clientId: string }) => ({ internalCode: c.clientId })) })).toEqual([s.clientId]);
  });
});

describe('POST /store/{code}/cart', () => {
  it("prices a cart exactly as the store app answers that store's user, and changes nothing", async () => {
    expect((await as(t, s, 'POST', '/store/S-1/add/user', { users: [{ email: 'ana@example.com' }] })).statusCode).toBe(200);
    // Signed in through the real code flow, the code read where it was sent.
    const asked = await t.request({ method: 'POST', url: '/app/auth/code', payload: { email: 'ana@example.com' } });
    expect(asked.statusCode, asked.body).toBe(202);
    const code = await t.notifier.waitForCode('ana@example.com');
    const signedIn = await t.request({ method: 'POST', url: '/app/auth/token', payload: { email: 'ana@example.com', code } });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const token = signedIn.json().access_token;
    const me = await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token}` } });
    const storeId = me.json().stores.find((x: { internalCode: string }) => x.internalCode === 'S-1').id;
    const lines = [
      { productInternalCode: 'P-1', units: 1, quantity: 12 },
      { productInternalCode: 'P-2', units: 1, quantity: 1 },
      { productInternalCode: 'P-2', units: 6, quantity: 1 },
      { productInternalCode: 'NOPE', units: 1, quantity: 1 },
    ];
    const app = await t.request({ method: 'POST', url: `/app/stores/${storeId}/cart`, headers: { authorization: `Bearer ${token}` }, payload: { lines } });
    expect(app.statusCode, app.body).toBe(200);
    const ordersBefore = (await get('/order')).total;
    const supplier = await as(t, s, 'POST', '/store/S-1/cart', { lines });
    expect(supplier.statusCode, supplier.body).toBe(200);
    expect((await get('/order')).total).toBe(ordersBefore);
    expect(supplier.json()).toEqual(app.json());
    // The store's price list, promotion and stock rules are all in the answer.
    const body = supplier.json();
    expect(JSON.stringify(body)).toContain('PROMO-1');
    expect(body.lines.filter((l: { error?: string }) => 'error' in l).length).toBeGreaterThanOrEqual(2);
    // Another store of the same supplier, on another list, sees its own prices.
    const other = await as(t, s, 'POST', '/store/S-2/cart', { lines: lines.slice(0, 1) });
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json()).not.toEqual((await as(t, s, 'POST', '/store/S-1/cart', { lines: lines.slice(0, 1) })).json());
  });

  it('answers 404 for an unknown store and 400 for an empty cart', async () => {
    const missing = await as(t, s, 'POST', '/store/NOPE/cart', { lines: [{ productInternalCode: 'P-1', units: 1, quantity: 1 }] });
    expect(missing.statusCode).toBe(404);
    const empty = await as(t, s, 'POST', '/store/S-1/cart', { lines: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].pointer).toBe('/lines');
  });
});
