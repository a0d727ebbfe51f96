// PUT/POST /category and /subcategory, GET /category (list) and GET /category/{code}.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { appWithSupplier, ISO, stamps } from '../helpers/fixtures.ts';

let t: TestApp;
let s: TestSupplier;
beforeAll(async () => {
  ({ t, s } = await appWithSupplier());
});
afterAll(() => t.close());

/** The image fields of a category without an image (no image worker runs in this file). */
const noImage = { imageUrls: null, imageStatus: null, imageError: null };

async function ok(method: 'PUT' | 'POST', url: string, body: unknown) {
  const res = await as(t, s, method, url, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const get = (url: string) => as(t, s, 'GET', url);
const codes = (page: any) => page.data.map((c: any) => [c.internalCode, c.subcategories.map((x: any) => x.internalCode)]);

describe('PUT and POST /category', () => {
  it('creates a level-1 category and answers it as GET does', async () => {
    const body = await ok('PUT', '/category', { internalCode: 'C-1', name: 'Drinks', weight: 1, image: 'https://img.example.com/c1.png' });
    expect(body).toEqual({
      internalCode: 'C-1',
      name: 'Drinks',
      weight: 1,
      image: 'https://img.example.com/c1.png',
      imageUrls: null,
      imageStatus: 'pending',
      imageError: null,
      enabled: true,
      parentCategoryInternalCode: null,
      subcategories: [],
      ...stamps,
    });
    expect((await get('/category/C-1')).json()).toEqual(body);
  });

  it('POST does the same; absent fields keep their values, null clears, unknown fields are ignored', async () => {
    await ok('POST', '/category', { internalCode: 'C-P', name: 'Snacks', weight: 4, image: 'http://img.example.com/p.png', enabled: false });
    // parentCategoryInternalCode is not a field of /category: ignored, the code stays level 1.
    const kept = await ok('PUT', '/category', { internalCode: 'C-P', name: 'Snacks & more', flavour: 'salty', parentCategoryInternalCode: 'C-1' });
    expect(kept).toMatchObject({ name: 'Snacks & more', weight: 4, image: 'http://img.example.com/p.png', enabled: false, parentCategoryInternalCode: null });
    expect(kept).not.toHaveProperty('flavour');
    const cleared = await ok('POST', '/category', { internalCode: 'C-P', name: 'Snacks', weight: null, image: null, enabled: true });
    expect(cleared).toMatchObject({ name: 'Snacks', weight: null, image: null, enabled: true });
  });

  it('refuses a bad body with 400 and pointers', async () => {
    const res = await as(t, s, 'PUT', '/category', { internalCode: 'C-BAD ', name: 'x', weight: 'heavy' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(res.json().errors.map((e: any) => [e.pointer, e.code]).sort()).toEqual([
      ['/internalCode', 'INVALID_FORMAT'],
      ['/weight', 'INVALID_TYPE'],
    ]);
    const missing = await as(t, s, 'POST', '/category', { internalCode: 'C-NONAME' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'REQUIRED', errors: [{ pointer: '/name', code: 'REQUIRED' }] });
    expect((await get('/category/C-NONAME')).statusCode).toBe(404);
  });
});

describe('PUT and POST /subcategory', () => {
  beforeAll(async () => {
    await ok('PUT', '/category', { internalCode: 'PARENT-A', name: 'Parent A' });
    await ok('PUT', '/category', { internalCode: 'PARENT-B', name: 'Parent B' });
  });

  it('creates a subcategory under a level-1 category; GET shows it both ways', async () => {
    const sub = await ok('PUT', '/subcategory', { internalCode: 'SUB-1', name: 'Colas', parentCategoryInternalCode: 'PARENT-A', weight: 2 });
    expect(sub).toEqual({ internalCode: 'SUB-1', name: 'Colas', weight: 2, image: null, ...noImage, enabled: true, parentCategoryInternalCode: 'PARENT-A', ...stamps });
    expect((await get('/category/SUB-1')).json()).toEqual(sub);
    await ok('POST', '/subcategory', { internalCode: 'SUB-0', name: 'Waters', parentCategoryInternalCode: 'PARENT-A', weight: 2 });
    const parent = (await get('/category/PARENT-A')).json();
    expect(parent.parentCategoryInternalCode).toBeNull();
    expect(parent.subcategories).toEqual([
      { internalCode: 'SUB-0', name: 'Waters', weight: 2, image: null, ...noImage, enabled: true, parentCategoryInternalCode: 'PARENT-A', ...stamps },
      { ...sub, updatedAt: expect.stringMatching(ISO) },
    ]);
  });

  it('moves a subcategory to another parent when upserted with it', async () => {
    await ok('PUT', '/subcategory', { internalCode: 'SUB-MOVE', name: 'Moving', parentCategoryInternalCode: 'PARENT-A' });
    const moved = await ok('POST', '/subcategory', { internalCode: 'SUB-MOVE', name: 'Moved', parentCategoryInternalCode: 'PARENT-B' });
    expect(moved).toMatchObject({ name: 'Moved', parentCategoryInternalCode: 'PARENT-B' });
    expect((await get('/category/PARENT-A')).json().subcategories.map((c: any) => c.internalCode)).not.toContain('SUB-MOVE');
    expect((await get('/category/PARENT-B')).json().subcategories.map((c: any) => c.internalCode)).toEqual(['SUB-MOVE']);
  });

  it('requires parentCategoryInternalCode', async () => {
    const res = await as(t, s, 'PUT', '/subcategory', { internalCode: 'SUB-ORPHAN', name: 'Orphan' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'REQUIRED', errors: [{ pointer: '/parentCategoryInternalCode', code: 'REQUIRED' }] });
  });

  it('refuses an unknown parent or a parent that is itself a subcategory: 400 UNKNOWN_CATEGORY', async () => {
    await ok('PUT', '/subcategory', { internalCode: 'SUB-P', name: 'Level 2', parentCategoryInternalCode: 'PARENT-A' });
    for (const [method, parent] of [['PUT', 'NO-SUCH'], ['POST', 'SUB-P']] as const) {
      const res = await as(t, s, method, '/subcategory', { internalCode: 'SUB-X', name: 'X', parentCategoryInternalCode: parent });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        status: 400,
        code: 'UNKNOWN_CATEGORY',
        errors: [{ pointer: '/parentCategoryInternalCode', code: 'UNKNOWN_CATEGORY', message: expect.stringContaining(parent) }],
      });
    }
    expect((await get('/category/SUB-X')).statusCode).toBe(404);
  });

  it('keeps a code at its level: 409 ALREADY_EXISTS either way', async () => {
    await ok('PUT', '/category', { internalCode: 'TOP-L', name: 'Top' });
    await ok('PUT', '/subcategory', { internalCode: 'SUB-L', name: 'Sub', parentCategoryInternalCode: 'PARENT-A' });
    const asSub = await as(t, s, 'PUT', '/subcategory', { internalCode: 'TOP-L', name: 'x', parentCategoryInternalCode: 'PARENT-A' });
    expect(asSub.statusCode).toBe(409);
    expect(asSub.json()).toMatchObject({ status: 409, code: 'ALREADY_EXISTS', errors: [{ pointer: '/internalCode', code: 'ALREADY_EXISTS' }] });
    const asTop = await as(t, s, 'POST', '/category', { internalCode: 'SUB-L', name: 'x' });
    expect(asTop.statusCode).toBe(409);
    expect(asTop.json()).toMatchObject({ status: 409, code: 'ALREADY_EXISTS', errors: [{ pointer: '/internalCode', code: 'ALREADY_EXISTS' }] });
    const self = await as(t, s, 'PUT', '/subcategory', { internalCode: 'TOP-L', name: 'x', parentCategoryInternalCode: 'TOP-L' });
    expect(self.statusCode).toBe(409);
    expect((await get('/category/SUB-L')).json()).toMatchObject({ name: 'Sub', parentCategoryInternalCode: 'PARENT-A' });
    expect((await get('/category/TOP-L')).json()).toMatchObject({ name: 'Top', parentCategoryInternalCode: null, subcategories: [] });
  });
});

describe('concurrent first writes of one code at both levels', () => {
  it('lets exactly one succeed; the other answers 409 and GET shows the winner', async () => {
    await ok('PUT', '/category', { internalCode: 'RACE-PARENT', name: 'Parent' });
    for (let i = 0; i < 10; i++) {
      const code = `RACE-${i}`;
      const [top, sub] = await Promise.all([
        as(t, s, 'PUT', '/category', { internalCode: code, name: 'top' }),
        as(t, s, 'PUT', '/subcategory', { internalCode: code, name: 'sub', parentCategoryInternalCode: 'RACE-PARENT' }),
      ]);
      expect([top.statusCode, sub.statusCode].sort(), code).toEqual([200, 409]);
      const winner = top.statusCode === 200 ? top.json() : sub.json();
      expect((await get(`/category/${code}`)).json()).toMatchObject({ name: winner.name, parentCategoryInternalCode: winner.parentCategoryInternalCode });
    }
  });
});

describe('GET /category and GET /category/{code}', () => {
  let other: TestSupplier;
  beforeAll(async () => {
    // A supplier of its own, so the list holds exactly these.
    other = await t.supplier();
    const put = async (url: string, body: object) => expect((await as(t, other, 'PUT', url, body)).statusCode).toBe(200);
    await put('/category', { internalCode: 'L-B', name: 'B', weight: 1 });
    await put('/category', { internalCode: 'L-A', name: 'A', weight: 1 });
    await put('/category', { internalCode: 'L-C', name: 'C', weight: 0, enabled: false });
    await put('/category', { internalCode: 'L-D', name: 'D' }); // no weight: after every weighted one
    await put('/category', { internalCode: 'L-E', name: 'E', weight: -5 });
    await put('/subcategory', { internalCode: 'L-A-2', name: 'A2', parentCategoryInternalCode: 'L-A', weight: 3 });
    await put('/subcategory', { internalCode: 'L-A-1', name: 'A1', parentCategoryInternalCode: 'L-A', weight: 3, enabled: false });
    await put('/subcategory', { internalCode: 'L-A-0', name: 'A0', parentCategoryInternalCode: 'L-A' });
    await put('/subcategory', { internalCode: 'L-A-9', name: 'A9', parentCategoryInternalCode: 'L-A', weight: -1 });
    await put('/subcategory', { internalCode: 'L-C-1', name: 'C1', parentCategoryInternalCode: 'L-C', enabled: false });
  });
  const list = async (query = '') => {
    const res = await as(t, other, 'GET', `/category${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('lists level-1 categories by weight then code, each with its subcategories in the same order', async () => {
    const page = await list();
    expect({ ...page, data: undefined }).toEqual({ data: undefined, page: 1, take: 50, total: 5, totalPages: 1 });
    expect(codes(page)).toEqual([
      ['L-E', []],
      ['L-C', ['L-C-1']],
      ['L-A', ['L-A-9', 'L-A-1', 'L-A-2', 'L-A-0']],
      ['L-B', []],
      ['L-D', []],
    ]);
    expect(page.data[2].subcategories[0]).toEqual({
      internalCode: 'L-A-9', name: 'A9', weight: -1, image: null, ...noImage, enabled: true, parentCategoryInternalCode: 'L-A', ...stamps,
    });
  });

  it('applies the enabled filter to categories and to subcategories', async () => {
    expect(codes(await list('?enabled=true'))).toEqual([
      ['L-E', []],
      ['L-A', ['L-A-9', 'L-A-2', 'L-A-0']],
      ['L-B', []],
      ['L-D', []],
    ]);
    const disabled = await list('?enabled=false');
    expect(codes(disabled)).toEqual([['L-C', ['L-C-1']]]);
    expect(disabled).toMatchObject({ total: 1, totalPages: 1 });
  });

  it('pages with take and page (as strings or numbers)', async () => {
    const second = await list('?take=2&page=2');
    expect(codes(second).map((c: any) => c[0])).toEqual(['L-A', 'L-B']);
    expect(second).toMatchObject({ page: 2, take: 2, total: 5, totalPages: 3 });
    const beyond = await list('?take=2&page=4');
    expect(beyond).toEqual({ data: [], page: 4, take: 2, total: 5, totalPages: 3 });
  });

  it('orders codes by their bytes (upper case first), whatever the database locale', async () => {
    const own = await t.supplier();
    for (const code of ['b', 'A', 'a', 'B']) expect((await as(t, own, 'PUT', '/category', { internalCode: code, name: code })).statusCode).toBe(200);
    for (const code of ['x', 'Y']) expect((await as(t, own, 'PUT', '/subcategory', { internalCode: code, name: code, parentCategoryInternalCode: 'a' })).statusCode).toBe(200);
    const page = (await as(t, own, 'GET', '/category')).json();
    expect(codes(page)).toEqual([['A', []], ['B', []], ['a', ['Y', 'x']], ['b', []]]);
  });

  it('refuses take outside 1..50 and page below 1 with 400 and a /query pointer', async () => {
    for (const [query, pointer] of [['?take=0', '/query/take'], ['?take=51', '/query/take'], ['?page=0', '/query/page'], ['?take=abc', '/query/take']]) {
      const res = await as(t, other, 'GET', `/category${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errors.map((e: any) => e.pointer)).toEqual([pointer]);
    }
  });

  it('answers 404 for a code that does not exist', async () => {
    const res = await as(t, other, 'GET', '/category/NOPE');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 404, code: 'NOT_FOUND', errors: [{ pointer: '/params/code', code: 'NOT_FOUND' }] });
  });

  it('GET of a level-1 category lists every subcategory, disabled ones included', async () => {
    const c = (await as(t, other, 'GET', '/category/L-A')).json();
    expect(c.subcategories.map((x: any) => [x.internalCode, x.enabled])).toEqual([
      ['L-A-9', true],
      ['L-A-1', false],
      ['L-A-2', true],
      ['L-A-0', true],
    ]);
  });
});
