// POST /batch/store (upsert only) and GET /store/{code}: absent fields keep their values,
// nulls clear, links (price list, stock grouper, promotion groupers) assign, move and
// unassign, unknown references fail the whole item, structure problems are a 402.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { ISO } from '../helpers/fixtures.ts';

let t: TestApp;
let s: TestSupplier;
beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  for (const pl of ['PL-A', 'PL-B']) expect((await as(t, s, 'POST', '/pricelist', { internalCode: pl })).statusCode).toBe(200);
  for (const w of ['W-A', 'W-B']) expect((await as(t, s, 'POST', '/grouper/stock', { internalCode: w, name: w })).statusCode).toBe(200);
  for (const g of ['SEG-A', 'SEG-B', 'SEG-C']) expect((await as(t, s, 'POST', '/grouper/promotion', { internalCode: g, name: g })).statusCode).toBe(200);
});
afterAll(() => t.close());

async function run(url: string, body: unknown) {
  const { ids, statuses } = await t.runBatch(s, url, body);
  const detail = (await as(t, s, 'GET', `/batch/${ids[0]}/detail`)).json().detail;
  return { status: statuses[0], statuses, detail };
}
const upsert = (...stores: object[]) => run('/batch/store', { upsert: stores });
async function store(code: string) {
  const res = await as(t, s, 'GET', `/store/${code}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const listStores = async (pl: string) => (await as(t, s, 'GET', `/pricelist/${pl}`)).json().stores.map((x: any) => x.storeInternalCode);
const grouperStores = async (kind: 'stock' | 'promotion', g: string) => (await as(t, s, 'GET', `/grouper/${g}/${kind}`)).json().stores.map((x: any) => x.storeInternalCode);

let seq = 0;
const newCode = () => `S-${++seq}`;

const full = (code: string) => ({
  internalCode: code,
  name: 'Tienda La 14',
  legalName: 'Almacenes La 14 S.A.',
  legalId: '890300346-1',
  ownerName: 'Ana Pérez',
  phone: '+573001234567',
  email: 'compras@la14.example',
  enabled: true,
  addresses: [
    { street: 'Calle 14 # 5-20', city: 'Cali', state: 'Valle del Cauca', country: 'CO', postalCode: '760001', latitude: 3.4516, longitude: -76.532, default: true },
    { street: 'Carrera 7 # 32-16', city: 'Bogotá' },
  ],
  priceListCode: 'PL-A',
  stockGrouperCode: 'W-A',
  promotionGrouperCodes: ['SEG-B', 'SEG-A'],
  settings: { dropSize: 150000.5 },
});

describe('POST /batch/store and GET /store/{code}', () => {
  it('creates a store with every field and GET answers it whole', async () => {
    const code = newCode();
    const { status, detail } = await upsert({ ...full(code), unknownField: 'dropped' });
    expect(status).toMatchObject({ endpoint: '/batch/store', status: 'processed', total: 1, completed: 1, failed: 0 });
    expect(detail).toMatchObject([{ code, action: 'upsert', status: 'completed', errorCode: null, message: null }]);
    expect(JSON.parse(detail[0].batchItem)).not.toHaveProperty('unknownField');
    const { internalCode, name, legalName, legalId, ownerName, phone, email, enabled, addresses, priceListCode, stockGrouperCode } = full(code);
    expect(await store(code)).toEqual({
      internalCode,
      name,
      legalName,
      legalId,
      ownerName,
      phone,
      email,
      enabled,
      addresses,
      priceListCode,
      stockGrouperCode,
      promotionGrouperCodes: ['SEG-A', 'SEG-B'],
      settings: { dropSize: 150000.5 },
      users: [],
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(await listStores('PL-A')).toContain(code);
    expect(await grouperStores('stock', 'W-A')).toContain(code);
    expect(await grouperStores('promotion', 'SEG-A')).toContain(code);
  });

  it('a store with only a code and a name gets the defaults', async () => {
    const code = newCode();
    await upsert({ internalCode: code, name: 'Minimal' });
    expect(await store(code)).toEqual({
      internalCode: code,
      name: 'Minimal',
      legalName: null,
      legalId: null,
      ownerName: null,
      phone: null,
      email: null,
      enabled: true,
      addresses: [],
      priceListCode: null,
      stockGrouperCode: null,
      promotionGrouperCodes: [],
      settings: { dropSize: null },
      users: [],
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
  });

  it('answers 404 for an unknown store (codes are case-sensitive)', async () => {
    const code = newCode();
    await upsert({ internalCode: code, name: 'Case' });
    for (const url of ['/store/NOPE', `/store/${code.toLowerCase()}`]) {
      const res = await as(t, s, 'GET', url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: 404, code: 'NOT_FOUND', errors: [{ pointer: '/params/code' }] });
    }
  });

  it('an absent field keeps its value; settings without dropSize keeps it too', async () => {
    const code = newCode();
    await upsert(full(code));
    const before = await store(code);
    await new Promise((r) => setTimeout(r, 5));
    await upsert({ internalCode: code, name: 'Renamed' });
    const after = await store(code);
    expect(after).toEqual({ ...before, name: 'Renamed', updatedAt: expect.stringMatching(ISO) });
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect(after.createdAt).toBe(before.createdAt);
    await upsert({ internalCode: code, name: 'Renamed', settings: {} });
    expect((await store(code)).settings).toEqual({ dropSize: 150000.5 });
    // enabled: false is kept when absent, too.
    await upsert({ internalCode: code, name: 'Renamed', enabled: false });
    await upsert({ internalCode: code, name: 'Renamed' });
    expect((await store(code)).enabled).toBe(false);
  });

  it('null clears a field, a link or the drop size', async () => {
    const code = newCode();
    await upsert(full(code));
    // Each field sent as null is answered null; what was not sent keeps its value.
    const cleared = { legalName: null, legalId: null, ownerName: null, phone: null, email: null, priceListCode: null, stockGrouperCode: null, settings: { dropSize: null } };
    await upsert({ internalCode: code, name: 'Cleared', ...cleared });
    expect(await store(code)).toMatchObject({ name: 'Cleared', ...cleared, promotionGrouperCodes: ['SEG-A', 'SEG-B'], addresses: full(code).addresses });
    expect(await listStores('PL-A')).not.toContain(code);
    expect(await grouperStores('stock', 'W-A')).not.toContain(code);
    // Unassigning what is not assigned is harmless.
    const again = await upsert({ internalCode: code, name: 'Cleared', priceListCode: null, stockGrouperCode: null });
    expect(again.status).toMatchObject({ completed: 1, failed: 0 });
  });

  it('priceListCode assigns and moves the store: one price list per store', async () => {
    const code = newCode();
    await upsert({ internalCode: code, name: 'Mover', priceListCode: 'PL-A' });
    expect(await listStores('PL-A')).toContain(code);
    await upsert({ internalCode: code, name: 'Mover', priceListCode: 'PL-B' });
    expect((await store(code)).priceListCode).toBe('PL-B');
    expect(await listStores('PL-A')).not.toContain(code);
    expect(await listStores('PL-B')).toContain(code);
    // A link written by POST /batch/pricelist is the same link: the store moves from it.
    await run('/batch/pricelist', { upsert: { stores: [{ priceListInternalCode: 'PL-A', storeInternalCode: code }] } });
    expect((await store(code)).priceListCode).toBe('PL-A');
    await upsert({ internalCode: code, name: 'Mover', priceListCode: 'PL-B' });
    expect(await listStores('PL-A')).not.toContain(code);
    expect((await as(t, s, 'GET', '/pricelist/PL-B')).json().stores).toContainEqual({ priceListInternalCode: 'PL-B', storeInternalCode: code });
  });

  it('stockGrouperCode assigns and moves the store: one stock grouper per store', async () => {
    const code = newCode();
    await upsert({ internalCode: code, name: 'Mover', stockGrouperCode: 'W-A' });
    await upsert({ internalCode: code, name: 'Mover', stockGrouperCode: 'W-B' });
    expect((await store(code)).stockGrouperCode).toBe('W-B');
    expect(await grouperStores('stock', 'W-A')).not.toContain(code);
    expect(await grouperStores('stock', 'W-B')).toContain(code);
    // And a move through POST /batch/grouper/stock shows in the store.
    await run('/batch/grouper/stock', { add: { stores: [{ groupInternalCode: 'W-A', storeInternalCode: code }] } });
    expect((await store(code)).stockGrouperCode).toBe('W-A');
  });

  it('promotionGrouperCodes: present replaces the set, absent keeps it, [] clears it', async () => {
    const code = newCode();
    await upsert({ internalCode: code, name: 'Segments', promotionGrouperCodes: ['SEG-A', 'SEG-B'] });
    expect((await store(code)).promotionGrouperCodes).toEqual(['SEG-A', 'SEG-B']);
    await upsert({ internalCode: code, name: 'Segments', promotionGrouperCodes: ['SEG-C', 'SEG-B', 'SEG-C'] });
    expect((await store(code)).promotionGrouperCodes).toEqual(['SEG-B', 'SEG-C']);
    expect(await grouperStores('promotion', 'SEG-A')).not.toContain(code);
    await upsert({ internalCode: code, name: 'Segments' });
    expect((await store(code)).promotionGrouperCodes).toEqual(['SEG-B', 'SEG-C']);
    // A link added through the grouper batch joins the set; the next replacement drops it.
    await run('/batch/grouper/promotion', { add: { stores: [{ groupInternalCode: 'SEG-A', storeInternalCode: code }] } });
    expect((await store(code)).promotionGrouperCodes).toEqual(['SEG-A', 'SEG-B', 'SEG-C']);
    await upsert({ internalCode: code, name: 'Segments', promotionGrouperCodes: [] });
    expect((await store(code)).promotionGrouperCodes).toEqual([]);
    for (const g of ['SEG-A', 'SEG-B', 'SEG-C']) expect(await grouperStores('promotion', g)).not.toContain(code);
    // The stock grouper is not a promotion grouper: clearing the set leaves it.
    await upsert({ internalCode: code, name: 'Segments', stockGrouperCode: 'W-B', promotionGrouperCodes: ['SEG-A'] });
    await upsert({ internalCode: code, name: 'Segments', promotionGrouperCodes: [] });
    expect(await store(code)).toMatchObject({ stockGrouperCode: 'W-B', promotionGrouperCodes: [] });
  });

  it('links written before the store exist take effect when it is created', async () => {
    const code = newCode();
    await run('/batch/pricelist', { upsert: { stores: [{ priceListInternalCode: 'PL-B', storeInternalCode: code }] } });
    await run('/batch/grouper/stock', { add: { stores: [{ groupInternalCode: 'W-B', storeInternalCode: code }] } });
    await run('/batch/grouper/promotion', { add: { stores: [{ groupInternalCode: 'SEG-C', storeInternalCode: code }] } });
    expect((await as(t, s, 'GET', `/store/${code}`)).statusCode).toBe(404);
    await upsert({ internalCode: code, name: 'Late' });
    expect(await store(code)).toMatchObject({ priceListCode: 'PL-B', stockGrouperCode: 'W-B', promotionGrouperCodes: ['SEG-C'] });
    // A store that names its own links at creation replaces the waiting ones.
    const other = newCode();
    await run('/batch/grouper/promotion', { add: { stores: [{ groupInternalCode: 'SEG-C', storeInternalCode: other }] } });
    await run('/batch/pricelist', { upsert: { stores: [{ priceListInternalCode: 'PL-B', storeInternalCode: other }] } });
    await upsert({ internalCode: other, name: 'Own links', priceListCode: 'PL-A', promotionGrouperCodes: ['SEG-A'] });
    expect(await store(other)).toMatchObject({ priceListCode: 'PL-A', promotionGrouperCodes: ['SEG-A'] });
  });

  it('settings.dropSize keeps exact decimals and 0', async () => {
    const a = newCode();
    const b = newCode();
    await upsert({ internalCode: a, name: 'Drop', settings: { dropSize: 99999999999.9999 } }, { internalCode: b, name: 'Zero', settings: { dropSize: 0 } });
    expect((await store(a)).settings).toEqual({ dropSize: 99999999999.9999 });
    expect((await store(b)).settings).toEqual({ dropSize: 0 });
    await upsert({ internalCode: a, name: 'Drop', settings: { dropSize: 0.0001 } });
    expect((await store(a)).settings).toEqual({ dropSize: 0.0001 });
  });

  it('addresses: present replaces the list, absent keeps it, [] clears it', async () => {
    const code = newCode();
    await upsert(full(code));
    const one = [{ street: 'Avenida 68 # 1-1', city: 'Bogotá', latitude: -90, longitude: 180, default: false }];
    await upsert({ internalCode: code, name: 'Addr', addresses: one });
    expect((await store(code)).addresses).toEqual(one);
    await upsert({ internalCode: code, name: 'Addr' });
    expect((await store(code)).addresses).toEqual(one);
    await upsert({ internalCode: code, name: 'Addr', addresses: [] });
    expect((await store(code)).addresses).toEqual([]);
  });

  it('fails an item with an unknown reference whole, writing nothing for it', async () => {
    const code = newCode();
    await upsert(full(code));
    const before = await store(code);
    const { status, detail } = await upsert(
      { internalCode: code, name: 'Changed 1', phone: null, priceListCode: 'PL-NOPE', stockGrouperCode: 'W-B', promotionGrouperCodes: [] },
      { internalCode: code, name: 'Changed 2', email: null, priceListCode: 'PL-B', stockGrouperCode: 'W-NOPE' },
      { internalCode: code, name: 'Changed 3', settings: { dropSize: 1 }, promotionGrouperCodes: ['SEG-C', 'SEG-NOPE'] },
      { internalCode: code, name: 'Changed 4', stockGrouperCode: 'SEG-A' },
      { internalCode: code, name: 'Changed 5', promotionGrouperCodes: ['W-A'] },
      { internalCode: code, name: 'Changed 6', priceListCode: 'W-A' },
      { internalCode: 'S-NEW-FAILED', name: 'Never', priceListCode: 'PL-NOPE' },
    );
    expect(status).toMatchObject({ status: 'failed', total: 7, completed: 0, failed: 7 });
    expect(detail.map((d: any) => [d.code, d.status, d.errorCode, d.message])).toEqual([
      [code, 'failed', 'UNKNOWN_PRICE_LIST', 'price list PL-NOPE does not exist'],
      [code, 'failed', 'UNKNOWN_STOCK_GROUPER', 'stock grouper W-NOPE does not exist'],
      [code, 'failed', 'UNKNOWN_GROUPER', 'promotion grouper SEG-NOPE does not exist'],
      [code, 'failed', 'UNKNOWN_STOCK_GROUPER', 'stock grouper SEG-A does not exist'],
      [code, 'failed', 'UNKNOWN_GROUPER', 'promotion grouper W-A does not exist'],
      [code, 'failed', 'UNKNOWN_PRICE_LIST', 'price list W-A does not exist'],
      ['S-NEW-FAILED', 'failed', 'UNKNOWN_PRICE_LIST', 'price list PL-NOPE does not exist'],
    ]);
    expect(await store(code)).toEqual(before);
    expect((await as(t, s, 'GET', '/store/S-NEW-FAILED')).statusCode).toBe(404);
    expect(await listStores('PL-A')).not.toContain('S-NEW-FAILED');
  });

  it('several items for one store in a request apply in order: a later item keeps what it leaves out', async () => {
    const code = newCode();
    const { status } = await upsert(
      { internalCode: code, name: 'First', phone: '+573009998877', priceListCode: 'PL-A', stockGrouperCode: 'W-A', settings: { dropSize: 5000 }, addresses: [{ street: 'Calle 1', city: 'Cali' }] },
      { internalCode: code, name: 'Second', email: 'second@example.com', promotionGrouperCodes: ['SEG-A'], settings: {} },
      { internalCode: code, name: 'Failed', phone: null, priceListCode: 'PL-NOPE' },
      { internalCode: code, name: 'Third', stockGrouperCode: null, promotionGrouperCodes: ['SEG-B'], enabled: false },
    );
    expect(status).toMatchObject({ total: 4, completed: 3, failed: 1 });
    expect(await store(code)).toMatchObject({
      name: 'Third',
      phone: '+573009998877',
      email: 'second@example.com',
      enabled: false,
      priceListCode: 'PL-A',
      stockGrouperCode: null,
      promotionGrouperCodes: ['SEG-B'],
      settings: { dropSize: 5000 },
      addresses: [{ street: 'Calle 1', city: 'Cali' }],
    });
    // The same sequence split over separate requests ends in the same state.
    const split = newCode();
    for (const item of [
      { internalCode: split, name: 'First', phone: '+573009998877', priceListCode: 'PL-A', stockGrouperCode: 'W-A', settings: { dropSize: 5000 }, addresses: [{ street: 'Calle 1', city: 'Cali' }] },
      { internalCode: split, name: 'Second', email: 'second@example.com', promotionGrouperCodes: ['SEG-A'], settings: {} },
      { internalCode: split, name: 'Failed', phone: null, priceListCode: 'PL-NOPE' },
      { internalCode: split, name: 'Third', stockGrouperCode: null, promotionGrouperCodes: ['SEG-B'], enabled: false },
    ]) {
      await upsert(item);
    }
    const [a, b] = [await store(code), await store(split)];
    expect({ ...b, internalCode: code, createdAt: a.createdAt, updatedAt: a.updatedAt }).toEqual(a);
  });

  it('loads thousands of stores across batches', async () => {
    const n = 7_000;
    const items = Array.from({ length: n }, (_, i) => ({
      internalCode: `BULK-${String(i).padStart(5, '0')}`,
      name: `Store ${i}`,
      phone: `+5730${String(10_000_000 + i)}`,
      ...(i % 2 ? { priceListCode: 'PL-B' } : { stockGrouperCode: 'W-B' }),
      promotionGrouperCodes: i % 3 ? ['SEG-C'] : [],
      settings: { dropSize: i },
    }));
    const { statuses } = await run('/batch/store', { upsert: items });
    expect(statuses.map((x: any) => [x.status, x.total, x.completed, x.failed])).toEqual([
      ['processed', 5000, 5000, 0],
      ['processed', 2000, 2000, 0],
    ]);
    expect(await store('BULK-06999')).toMatchObject({ name: 'Store 6999', phone: '+573010006999', priceListCode: 'PL-B', stockGrouperCode: null, promotionGrouperCodes: [], settings: { dropSize: 6999 } });
    expect(await store('BULK-06998')).toMatchObject({ priceListCode: null, stockGrouperCode: 'W-B', promotionGrouperCodes: ['SEG-C'] });
    expect(await store('BULK-00000')).toMatchObject({ priceListCode: null, stockGrouperCode: 'W-B', promotionGrouperCodes: [], settings: { dropSize: 0 } });
    expect((await listStores('PL-B')).filter((c: string) => c.startsWith('BULK-'))).toHaveLength(n / 2);
    expect((await grouperStores('promotion', 'SEG-C')).filter((c: string) => c.startsWith('BULK-'))).toHaveLength(n - Math.ceil(n / 3));
  });

  it('refuses a bad structure with 402 and a pointer per problem, queuing nothing', async () => {
    const bad = async (body: unknown) => {
      const res = await as(t, s, 'POST', '/batch/store', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(402);
      expect(res.headers['content-type']).toContain('application/problem+json');
      return res.json();
    };
    expect(await bad({ upsert: [{ internalCode: 'S-402', name: 'x', phone: '3001234567' }] })).toMatchObject({
      status: 402,
      code: 'INVALID_FORMAT',
      errors: [{ pointer: '/upsert/0/phone', code: 'INVALID_FORMAT' }],
    });
    const several = await bad({
      upsert: [
        { internalCode: 'S-402', name: 'ok' },
        { internalCode: 'S-402', name: 'x', email: 'not-an-email' },
        { internalCode: 'S-402' },
        { internalCode: 'S-402', name: 'x', addresses: [{ city: 'Cali', latitude: 91 }] },
        { internalCode: 'S-402', name: 'x', settings: { dropSize: -1 } },
        { internalCode: 'S-402', name: 'x', settings: { dropSize: 1.23456 } },
        { internalCode: 'S-402', name: 'x', promotionGrouperCodes: 'SEG-A' },
        { internalCode: 'S-402', name: 'x', priceListCode: '', stockGrouperCode: 7 },
        { internalCode: 'S-402', name: 'x', enabled: null, phone: '+57 300 123 4567' },
      ],
    });
    expect(several.code).toBe('BATCH_VALIDATION_FAILED');
    expect(several.errors.map((e: any) => [e.pointer, e.code])).toEqual([
      ['/upsert/1/email', 'INVALID_FORMAT'],
      ['/upsert/2/name', 'REQUIRED'],
      ['/upsert/3/addresses/0/street', 'REQUIRED'],
      ['/upsert/3/addresses/0/latitude', 'OUT_OF_RANGE'],
      ['/upsert/4/settings/dropSize', 'OUT_OF_RANGE'],
      ['/upsert/5/settings/dropSize', 'INVALID_PRECISION'],
      ['/upsert/6/promotionGrouperCodes', 'INVALID_TYPE'],
      ['/upsert/7/priceListCode', 'INVALID_LENGTH'],
      ['/upsert/7/stockGrouperCode', 'INVALID_TYPE'],
      // `enabled: null` is `enabled` left out (docs/conventions.md): only the phone is wrong.
      ['/upsert/8/phone', 'INVALID_FORMAT'],
    ]);
    expect((await bad({ upsert: { internalCode: 'S-402', name: 'x' } })).errors).toMatchObject([{ pointer: '/upsert', code: 'INVALID_TYPE' }]);
    expect((await bad({})).errors).toMatchObject([{ pointer: '/upsert', code: 'REQUIRED' }]);
    expect((await bad({ upsert: [] })).errors).toMatchObject([{ code: 'EMPTY_BATCH' }]);
    expect((await as(t, s, 'GET', '/store/S-402')).statusCode).toBe(404);
  });
});
