// POST /batch/brand and GET /brand/{code}: upsert semantics, partial updates, the bare
// array form, structural validation (402 with pointers) and unknown fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { appWithSupplier, ISO } from '../helpers/fixtures.ts';

let t: TestApp;
let s: TestSupplier;
beforeAll(async () => {
  ({ t, s } = await appWithSupplier());
});
afterAll(() => t.close());


/** Submits a brand batch, waits for it and returns its status body. */
async function brands(body: unknown) {
  const { ids, statuses: [status] } = await t.runBatch(s, '/batch/brand', body);
  expect(ids).toHaveLength(1);
  return { id: ids[0]!, status };
}

const brand = async (code: string) => (await as(t, s, 'GET', `/brand/${encodeURIComponent(code)}`)).json();

/** A 402 problem and its errors, sorted by pointer. */
async function refused(body: unknown) {
  const res = await as(t, s, 'POST', '/batch/brand', body);
  expect(res.statusCode, res.body).toBe(402);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = res.json();
  return { problem, errors: [...problem.errors].sort((a: any, b: any) => a.pointer.localeCompare(b.pointer)) };
}

describe('POST /batch/brand', () => {
  it('creates brands from {upsert: [...]} and GET /brand/{code} answers them', async () => {
    const { status } = await brands({
      upsert: [
        { internalCode: 'B-1', name: 'Cola Co', weight: 2.5, image: 'https://cdn.example.com/b1.png', enabled: false },
        { internalCode: 'B-2', name: 'Agua Pura' },
      ],
    });
    expect(status).toMatchObject({ endpoint: '/batch/brand', status: 'processed', total: 2, processed: 2, completed: 2, failed: 0 });

    const res = await as(t, s, 'GET', '/brand/B-1');
    expect(res.statusCode).toBe(200);
    const b1 = res.json();
    expect(b1).toEqual({
      internalCode: 'B-1',
      name: 'Cola Co',
      weight: 2.5,
      image: 'https://cdn.example.com/b1.png',
      // No image worker runs in this file: the image waits to be downloaded.
      imageUrls: null,
      imageStatus: 'pending',
      imageError: null,
      enabled: false,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(await brand('B-2')).toEqual({
      internalCode: 'B-2',
      name: 'Agua Pura',
      weight: null,
      image: null,
      imageUrls: null,
      imageStatus: null,
      imageError: null,
      enabled: true,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
  });

  it('accepts a bare array as the upsert list', async () => {
    const { status } = await brands([{ internalCode: 'B-ARR', name: 'Array Brand', weight: -3 }]);
    expect(status).toMatchObject({ status: 'processed', total: 1, completed: 1 });
    expect(await brand('B-ARR')).toMatchObject({ internalCode: 'B-ARR', name: 'Array Brand', weight: -3, image: null, enabled: true });
  });

  it('updates the name; absent optional fields keep their values, explicit null clears them', async () => {
    await brands({ upsert: [{ internalCode: 'B-U', name: 'First', weight: 7, image: 'http://img.example.com/u.jpg', enabled: false }] });
    const before = await brand('B-U');

    await brands({ upsert: [{ internalCode: 'B-U', name: 'Renamed' }] });
    const renamed = await brand('B-U');
    expect(renamed).toMatchObject({ name: 'Renamed', weight: 7, image: 'http://img.example.com/u.jpg', enabled: false });
    expect(renamed.createdAt).toBe(before.createdAt);
    expect(Date.parse(renamed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));

    await brands({ upsert: [{ internalCode: 'B-U', name: 'Renamed', weight: null, image: null, enabled: true }] });
    expect(await brand('B-U')).toMatchObject({ name: 'Renamed', weight: null, image: null, enabled: true });
  });

  it('applies several items for one code in order: fields a later item omits keep what an earlier one set', async () => {
    const { status } = await brands({
      upsert: [
        { internalCode: 'B-SEQ', name: 'One', weight: 1, image: 'https://img.example.com/seq.png' },
        { internalCode: 'B-SEQ', name: 'Two', enabled: false },
        { internalCode: 'B-SEQ', name: 'Three', weight: null },
      ],
    });
    expect(status).toMatchObject({ total: 3, completed: 3, failed: 0 });
    expect(await brand('B-SEQ')).toMatchObject({ name: 'Three', weight: null, image: 'https://img.example.com/seq.png', enabled: false });
  });

  it('ignores unknown fields and never returns them', async () => {
    await brands({ upsert: [{ internalCode: 'B-X', name: 'Extra', color: 'red', nested: { a: 1 } }], somethingElse: true });
    const b = await brand('B-X');
    expect(Object.keys(b).sort()).toEqual(['createdAt', 'enabled', 'image', 'imageError', 'imageStatus', 'imageUrls', 'internalCode', 'name', 'updatedAt', 'weight']);
    expect(b).toMatchObject({ internalCode: 'B-X', name: 'Extra' });
  });

  it('refuses a single structural problem with its own code and pointer, queuing nothing', async () => {
    const { problem } = await refused({ upsert: [{ internalCode: 'B-NONAME' }] });
    expect(problem).toMatchObject({
      status: 402,
      code: 'REQUIRED',
      errors: [{ pointer: '/upsert/0/name', code: 'REQUIRED', message: 'name is required' }],
      requestId: expect.any(String),
    });
    expect((await as(t, s, 'GET', '/brand/B-NONAME')).statusCode).toBe(404);
  });

  it('lists every structural problem with a pointer (402 BATCH_VALIDATION_FAILED)', async () => {
    const { problem, errors } = await refused({
      upsert: [
        { internalCode: ' B-LEAD', name: 'Leading space' },
        { internalCode: 'X'.repeat(101), name: 'Too long' },
        { internalCode: 'B-T', name: 42, weight: '5', enabled: 'yes' },
        { internalCode: 'B-IMG', name: 'Ftp', image: 'ftp://files.example.com/a.png' },
        { internalCode: 'B-TRAIL ', name: '' },
      ],
    });
    expect(problem.code).toBe('BATCH_VALIDATION_FAILED');
    expect(errors).toContainEqual({ pointer: '/upsert/3/image', code: 'INVALID_FORMAT', message: expect.any(String) });
    // The shared validator also reports the null branch of a nullable field ("must be
    // null", INVALID_TYPE) when a string fails its format: noise, not asserted here.
    const stable = errors.filter((e: any) => !(e.pointer === '/upsert/3/image' && e.code === 'INVALID_TYPE'));
    expect(stable.map((e: any) => [e.pointer, e.code])).toEqual([
      ['/upsert/0/internalCode', 'INVALID_FORMAT'],
      ['/upsert/1/internalCode', 'INVALID_LENGTH'],
      ['/upsert/2/enabled', 'INVALID_TYPE'],
      ['/upsert/2/name', 'INVALID_TYPE'],
      ['/upsert/2/weight', 'INVALID_TYPE'],
      ['/upsert/3/image', 'INVALID_FORMAT'],
      ['/upsert/4/internalCode', 'INVALID_FORMAT'],
      ['/upsert/4/name', 'INVALID_LENGTH'],
    ]);
    // Nothing was queued: a later batch has run (a supplier's batches run in order), and still no brand.
    await brands([{ internalCode: 'B-AFTER', name: 'After' }]);
    for (const code of ['B-LEAD', 'B-T', 'B-IMG']) expect((await as(t, s, 'GET', `/brand/${code}`)).statusCode).toBe(404);
  });

  it('points into a bare array as it was sent', async () => {
    const { problem } = await refused([{ internalCode: 'B-OK', name: 'Fine' }, { internalCode: 'B-BAD' }]);
    expect(problem.errors).toEqual([{ pointer: '/1/name', code: 'REQUIRED', message: 'name is required' }]);
  });

  it('refuses an empty request, a missing upsert node and a wrong-typed one', async () => {
    expect((await refused({})).problem).toMatchObject({ code: 'REQUIRED', errors: [{ pointer: '/upsert', code: 'REQUIRED' }] });
    for (const body of [[], { upsert: [] }]) {
      expect((await refused(body)).problem).toMatchObject({ code: 'BATCH_VALIDATION_FAILED', errors: [{ pointer: '', code: 'EMPTY_BATCH' }] });
    }
    const { problem } = await refused({ upsert: { internalCode: 'B-1', name: 'x' } });
    expect(problem.errors).toEqual([{ pointer: '/upsert', code: 'INVALID_TYPE', message: expect.any(String) }]);
  });

  it('answers 404 for a brand that does not exist', async () => {
    const res = await as(t, s, 'GET', '/brand/NOPE');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 404, code: 'NOT_FOUND', errors: [{ pointer: '/params/code', code: 'NOT_FOUND' }] });
  });

  it('treats codes as case-sensitive', async () => {
    await brands([{ internalCode: 'b-case', name: 'lower' }, { internalCode: 'B-CASE', name: 'upper' }]);
    expect((await brand('b-case')).name).toBe('lower');
    expect((await brand('B-CASE')).name).toBe('upper');
  });

  it('takes any code without control characters or outer spaces, also in the path', async () => {
    const codes = ['A/B', 'A B', 'Café-ñ', 'x%y', 'a?b#c', '中文', 'X'.repeat(100)];
    await brands(codes.map((code, i) => ({ internalCode: code, name: `odd ${i}` })));
    for (const [i, code] of codes.entries()) expect(await brand(code)).toMatchObject({ internalCode: code, name: `odd ${i}` });
  });
});
