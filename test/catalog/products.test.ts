// POST /batch/product and GET /product/{code}: item failures in the batch detail,
// partial updates, later items winning, and structural validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { ISO } from '../helpers/fixtures.ts';

let t: TestApp;
let s: TestSupplier;
beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  expect((await as(t, s, 'PUT', '/category', { internalCode: 'C-1', name: 'Drinks' })).statusCode).toBe(200);
  expect((await as(t, s, 'PUT', '/subcategory', { internalCode: 'C-1-1', name: 'Colas', parentCategoryInternalCode: 'C-1' })).statusCode).toBe(200);
  const brands = await as(t, s, 'POST', '/batch/brand', [{ internalCode: 'B-1', name: 'Cola Co' }, { internalCode: 'B-2', name: 'Agua' }]);
  await t.waitForBatches(s, brands.json().batchId);
});
afterAll(() => t.close());

async function products(upsert: unknown[]) {
  const { ids: [id], statuses: [status] } = await t.runBatch(s, '/batch/product', { upsert });
  return { id: id!, status };
}
const product = async (code: string) => {
  const res = await as(t, s, 'GET', `/product/${code}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const detail = async (id: string, query = '') => (await as(t, s, 'GET', `/batch/${id}/detail${query}`)).json();

describe('POST /batch/product', () => {
  it('creates a product with every field; GET /product/{code} answers it', async () => {
    const item = {
      internalCode: 'P-1',
      name: 'Cola 350 ml',
      description: 'Cold and sweet',
      brandInternalCode: 'B-1',
      categoryInternalCode: 'C-1-1',
      image: 'https://img.example.com/p1.png',
      images: ['https://img.example.com/p1-a.png', 'http://img.example.com/p1-b.png'],
      enabled: true,
      ean: '7702004003508',
      displayProducts: [
        { units: 1, name: 'Unit', default: true },
        { units: 24, name: 'Box x24' },
      ],
    };
    const { status } = await products([item]);
    expect(status).toMatchObject({ endpoint: '/batch/product', status: 'processed', total: 1, processed: 1, completed: 1, failed: 0 });
    // No image worker runs in this file: the images wait to be downloaded.
    const pending = { imageUrls: null, imageStatus: 'pending', imageError: null };
    expect(await product('P-1')).toEqual({
      ...item,
      ...pending,
      imagesDetail: item.images.map((url) => ({ url, ...pending })),
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
  });

  it('defaults the optional fields; a product may sit in a level-1 category', async () => {
    await products([{ internalCode: 'P-MIN', name: 'Plain', brandInternalCode: 'B-2', categoryInternalCode: 'C-1' }]);
    expect(await product('P-MIN')).toEqual({
      internalCode: 'P-MIN',
      name: 'Plain',
      description: null,
      brandInternalCode: 'B-2',
      categoryInternalCode: 'C-1',
      image: null,
      imageUrls: null,
      imageStatus: null,
      imageError: null,
      images: [],
      imagesDetail: [],
      enabled: true,
      ean: null,
      displayProducts: [],
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
  });

  it('on a later upsert, absent fields keep their values, null clears, brand and category move', async () => {
    await products([
      {
        internalCode: 'P-U', name: 'Before', description: 'd', brandInternalCode: 'B-1', categoryInternalCode: 'C-1-1',
        image: 'https://img.example.com/u.png', images: ['https://img.example.com/u1.png'], enabled: false, ean: '123',
        displayProducts: [{ units: 6, name: 'Six' }],
      },
    ]);
    await products([{ internalCode: 'P-U', name: 'After', brandInternalCode: 'B-2', categoryInternalCode: 'C-1' }]);
    expect(await product('P-U')).toMatchObject({
      name: 'After', description: 'd', brandInternalCode: 'B-2', categoryInternalCode: 'C-1', image: 'https://img.example.com/u.png',
      images: ['https://img.example.com/u1.png'], enabled: false, ean: '123', displayProducts: [{ units: 6, name: 'Six' }],
    });
    await products([
      { internalCode: 'P-U', name: 'After', brandInternalCode: 'B-2', categoryInternalCode: 'C-1', description: null, image: null, ean: null, images: [], displayProducts: [], enabled: true },
    ]);
    expect(await product('P-U')).toMatchObject({ description: null, image: null, ean: null, images: [], displayProducts: [], enabled: true });
  });

  it('fails unknown brands and categories per item, shows them in the detail and applies the rest', async () => {
    const items = [
      { internalCode: 'P-OK-1', name: 'Fine', brandInternalCode: 'B-1', categoryInternalCode: 'C-1' },
      { internalCode: 'P-NOBRAND', name: 'No brand', brandInternalCode: 'B-404', categoryInternalCode: 'C-1' },
      { internalCode: 'P-NOCAT', name: 'No category', brandInternalCode: 'B-1', categoryInternalCode: 'C-404' },
      { internalCode: 'P-OK-2', name: 'Also fine', brandInternalCode: 'B-2', categoryInternalCode: 'C-1-1' },
    ];
    const { id, status } = await products(items);
    expect(status).toMatchObject({ status: 'processed', total: 4, processed: 4, completed: 2, failed: 2, finishedAt: expect.stringMatching(ISO) });

    const d = await detail(id);
    expect(d.uuid).toBe(id);
    expect(d.detail).toEqual(
      items.map((item, i) => ({
        code: item.internalCode,
        endpoint: '/batch/product',
        action: 'upsert',
        batchItem: expect.any(String),
        status: i === 1 || i === 2 ? 'failed' : 'completed',
        errorCode: i === 1 ? 'UNKNOWN_BRAND' : i === 2 ? 'UNKNOWN_CATEGORY' : null,
        message: i === 1 ? 'brand B-404 does not exist' : i === 2 ? 'category C-404 does not exist' : null,
        finishedAt: expect.stringMatching(ISO),
      })),
    );
    expect(d.detail.map((x: any) => JSON.parse(x.batchItem))).toEqual(items);
    expect((await detail(id, '?status=failed')).detail.map((x: any) => x.code)).toEqual(['P-NOBRAND', 'P-NOCAT']);

    expect((await product('P-OK-1')).brandInternalCode).toBe('B-1');
    expect((await product('P-OK-2')).categoryInternalCode).toBe('C-1-1');
    for (const code of ['P-NOBRAND', 'P-NOCAT']) expect((await as(t, s, 'GET', `/product/${code}`)).statusCode).toBe(404);
  });

  it('fails every item when none can be applied: batch status failed', async () => {
    const { status } = await products([{ internalCode: 'P-F', name: 'x', brandInternalCode: 'NOPE', categoryInternalCode: 'NOPE' }]);
    expect(status).toMatchObject({ status: 'failed', total: 1, processed: 1, completed: 0, failed: 1 });
  });

  it('a later item for the same code in the same batch wins; fields it omits keep the earlier values', async () => {
    const { status } = await products([
      { internalCode: 'P-TWICE', name: 'First', brandInternalCode: 'B-1', categoryInternalCode: 'C-1', ean: '111', image: 'https://img.example.com/t.png' },
      { internalCode: 'P-TWICE', name: 'Broken', brandInternalCode: 'B-404', categoryInternalCode: 'C-1' },
      { internalCode: 'P-TWICE', name: 'Second', brandInternalCode: 'B-2', categoryInternalCode: 'C-1-1', enabled: false },
    ]);
    expect(status).toMatchObject({ total: 3, completed: 2, failed: 1 });
    expect(await product('P-TWICE')).toMatchObject({
      name: 'Second', brandInternalCode: 'B-2', categoryInternalCode: 'C-1-1', ean: '111', image: 'https://img.example.com/t.png', enabled: false,
    });
  });

  it('refuses structural problems with 402 and pointers, queuing nothing', async () => {
    const res = await as(t, s, 'POST', '/batch/product', {
      upsert: [
        { internalCode: 'P-S1', name: 'x', brandInternalCode: 'B-1' },
        { internalCode: 'P-S2', name: 'x', brandInternalCode: 'B-1', categoryInternalCode: 'C-1', images: 'https://a.example/x.png' },
        { internalCode: 'P-S3', name: 'x', brandInternalCode: 'B-1', categoryInternalCode: 'C-1', displayProducts: [{ units: 0, name: 'Zero' }, { units: 2.5, name: 'Half' }, { units: 3 }] },
      ],
    });
    expect(res.statusCode).toBe(402);
    expect(res.json().code).toBe('BATCH_VALIDATION_FAILED');
    expect(res.json().errors.map((e: any) => [e.pointer, e.code]).sort()).toEqual([
      ['/upsert/0/categoryInternalCode', 'REQUIRED'],
      ['/upsert/1/images', 'INVALID_TYPE'],
      ['/upsert/2/displayProducts/0/units', 'OUT_OF_RANGE'],
      ['/upsert/2/displayProducts/1/units', 'INVALID_TYPE'],
      ['/upsert/2/displayProducts/2/name', 'REQUIRED'],
    ]);
    for (const code of ['P-S1', 'P-S2', 'P-S3']) expect((await as(t, s, 'GET', `/product/${code}`)).statusCode).toBe(404);
    const bare = await as(t, s, 'POST', '/batch/product', []);
    expect(bare.statusCode).toBe(402);
  });

  it('ignores unknown fields, also inside display products', async () => {
    await products([
      { internalCode: 'P-X', name: 'x', brandInternalCode: 'B-1', categoryInternalCode: 'C-1', colour: 'red', displayProducts: [{ units: 1, name: 'U', sku: 'z' }] },
    ]);
    const p = await product('P-X');
    expect(p).not.toHaveProperty('colour');
    expect(p.displayProducts).toEqual([{ units: 1, name: 'U' }]);
  });

  it('answers 404 for a product that does not exist', async () => {
    const res = await as(t, s, 'GET', '/product/NOPE');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND', errors: [{ pointer: '/params/code', code: 'NOT_FOUND' }] });
  });
});
