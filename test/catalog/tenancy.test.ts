// Catalog tenancy (another supplier's data answers as missing; codes are per supplier)
// and scopes (catalog.read, catalog.write, catalog.bulkwrite).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { PG_FOREIGN_KEY_VIOLATION } from '../../src/db/errors.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let a: TestSupplier;
let b: TestSupplier;
let productBatch: string;

async function batch(s: TestSupplier, url: string, body: unknown) {
  const { ids } = await t.runBatch(s, url, body);
  return ids[0]!;
}

/** Another credential of the same supplier, holding only `scopes`. */
async function credential(s: TestSupplier, scopes: string[]): Promise<TestSupplier> {
  const issued = await t.credential(s, scopes);
  expect(issued.scope).toBe(scopes.join(' '));
  return issued;
}

beforeAll(async () => {
  t = await createTestApp();
  a = await t.supplier();
  b = await t.supplier();
  expect((await as(t, a, 'PUT', '/category', { internalCode: 'C-A', name: 'A drinks' })).statusCode).toBe(200);
  expect((await as(t, a, 'PUT', '/subcategory', { internalCode: 'C-A-1', name: 'A colas', parentCategoryInternalCode: 'C-A' })).statusCode).toBe(200);
  await batch(a, '/batch/brand', [{ internalCode: 'B-A', name: 'A brand' }]);
  productBatch = await batch(a, '/batch/product', { upsert: [{ internalCode: 'P-A', name: 'A cola', brandInternalCode: 'B-A', categoryInternalCode: 'C-A-1' }] });
});
afterAll(() => t.close());

describe('tenancy', () => {
  it("answers another supplier's brand, category, subcategory, product and batch as missing (404)", async () => {
    for (const url of ['/brand/B-A', '/category/C-A', '/category/C-A-1', '/product/P-A', `/batch/${productBatch}/status`, `/batch/${productBatch}/detail`]) {
      const theirs = await as(t, b, 'GET', url);
      expect(theirs.statusCode, url).toBe(404);
      expect(theirs.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
      expect(theirs.body).not.toContain('A brand');
      expect((await as(t, a, 'GET', url)).statusCode, url).toBe(200);
    }
    expect((await as(t, b, 'GET', '/category')).json()).toEqual({ data: [], page: 1, take: 50, total: 0, totalPages: 0 });
  });

  it("cannot hang a subcategory under another supplier's category", async () => {
    const res = await as(t, b, 'PUT', '/subcategory', { internalCode: 'C-B-1', name: 'x', parentCategoryInternalCode: 'C-A' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'UNKNOWN_CATEGORY', errors: [{ pointer: '/parentCategoryInternalCode' }] });
  });

  it("fails a product that names another supplier's brand or category", async () => {
    await as(t, b, 'PUT', '/category', { internalCode: 'C-B', name: 'B drinks' });
    await batch(b, '/batch/brand', [{ internalCode: 'B-B', name: 'B brand' }]);
    const id = await batch(b, '/batch/product', {
      upsert: [
        { internalCode: 'P-B1', name: 'x', brandInternalCode: 'B-A', categoryInternalCode: 'C-B' },
        { internalCode: 'P-B2', name: 'x', brandInternalCode: 'B-B', categoryInternalCode: 'C-A-1' },
      ],
    });
    const detail = (await as(t, b, 'GET', `/batch/${id}/detail`)).json().detail;
    expect(detail.map((d: any) => [d.code, d.status, d.errorCode])).toEqual([
      ['P-B1', 'failed', 'UNKNOWN_BRAND'],
      ['P-B2', 'failed', 'UNKNOWN_CATEGORY'],
    ]);
  });

  it("is kept by the database too: a product row cannot point at another supplier's brand or category (migration 0029)", async () => {
    const ids = async (supplierId: number, brand: string, category: string) =>
      (
        await sql<{ brand: number; category: number }>`
          select (select id from brands where supplier_id = ${supplierId} and internal_code = ${brand}) as brand,
                 (select id from categories where supplier_id = ${supplierId} and internal_code = ${category}) as category`.execute(t.deps.db)
      ).rows[0]!;
    const theirs = await ids(a.id, 'B-A', 'C-A-1');
    const own = await ids(b.id, 'B-B', 'C-B');
    const insert = (code: string, brand: number, category: number) =>
      sql`insert into products (supplier_id, internal_code, name, brand_id, category_id) values (${b.id}, ${code}, 'x', ${brand}, ${category})`.execute(t.deps.db);
    for (const [code, brand, category, constraint] of [
      ['P-DB1', theirs.brand, own.category, 'products_brand_fkey'],
      ['P-DB2', own.brand, theirs.category, 'products_category_fkey'],
    ] as const) {
      const error = await insert(code, brand, category).then(() => undefined, (e: unknown) => e);
      expect(error, code).toMatchObject({ code: PG_FOREIGN_KEY_VIOLATION, constraint });
    }
    await insert('P-DB3', own.brand, own.category);
    expect((await as(t, b, 'GET', '/product/P-DB3')).json()).toMatchObject({ brandInternalCode: 'B-B', categoryInternalCode: 'C-B' });
  });

  it('lets both suppliers use the same codes independently', async () => {
    expect((await as(t, b, 'PUT', '/category', { internalCode: 'SAME', name: 'B same', weight: 2 })).statusCode).toBe(200);
    expect((await as(t, a, 'PUT', '/category', { internalCode: 'SAME', name: 'A same' })).statusCode).toBe(200);
    // The same code may even be a subcategory for one supplier and a category for the other.
    expect((await as(t, b, 'PUT', '/subcategory', { internalCode: 'SAME-2', name: 'B sub', parentCategoryInternalCode: 'SAME' })).statusCode).toBe(200);
    expect((await as(t, a, 'PUT', '/category', { internalCode: 'SAME-2', name: 'A top' })).statusCode).toBe(200);
    await batch(a, '/batch/brand', [{ internalCode: 'SAME', name: 'A brand same' }]);
    await batch(b, '/batch/brand', [{ internalCode: 'SAME', name: 'B brand same', weight: 9 }]);
    await batch(a, '/batch/product', { upsert: [{ internalCode: 'SAME', name: 'A product', brandInternalCode: 'SAME', categoryInternalCode: 'SAME' }] });
    await batch(b, '/batch/product', { upsert: [{ internalCode: 'SAME', name: 'B product', brandInternalCode: 'SAME', categoryInternalCode: 'SAME-2' }] });

    expect((await as(t, a, 'GET', '/category/SAME')).json()).toMatchObject({ name: 'A same', weight: null, subcategories: [] });
    expect((await as(t, b, 'GET', '/category/SAME')).json()).toMatchObject({ name: 'B same', weight: 2, subcategories: [{ internalCode: 'SAME-2' }] });
    expect((await as(t, a, 'GET', '/category/SAME-2')).json()).toMatchObject({ name: 'A top', parentCategoryInternalCode: null });
    expect((await as(t, b, 'GET', '/category/SAME-2')).json()).toMatchObject({ name: 'B sub', parentCategoryInternalCode: 'SAME' });
    expect((await as(t, a, 'GET', '/brand/SAME')).json()).toMatchObject({ name: 'A brand same', weight: null });
    expect((await as(t, b, 'GET', '/brand/SAME')).json()).toMatchObject({ name: 'B brand same', weight: 9 });
    expect((await as(t, a, 'GET', '/product/SAME')).json()).toMatchObject({ name: 'A product', categoryInternalCode: 'SAME' });
    expect((await as(t, b, 'GET', '/product/SAME')).json()).toMatchObject({ name: 'B product', categoryInternalCode: 'SAME-2' });
  });
});

describe('scopes', () => {
  const forbidden = (res: { statusCode: number; json(): any }, scope: string) => {
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE', detail: expect.stringContaining(scope) });
  };

  it('catalog.read reads but cannot write', async () => {
    const reader = await credential(a, ['supplier/catalog.read']);
    forbidden(await as(t, reader, 'POST', '/batch/brand', [{ internalCode: 'B-R', name: 'x' }]), 'supplier/catalog.bulkwrite');
    forbidden(await as(t, reader, 'POST', '/batch/product', { upsert: [] }), 'supplier/catalog.bulkwrite');
    forbidden(await as(t, reader, 'PUT', '/category', { internalCode: 'C-R', name: 'x' }), 'supplier/catalog.write');
    forbidden(await as(t, reader, 'POST', '/subcategory', { internalCode: 'C-R', name: 'x', parentCategoryInternalCode: 'C-A' }), 'supplier/catalog.write');
    expect((await as(t, reader, 'GET', '/brand/B-A')).json()).toMatchObject({ internalCode: 'B-A', name: 'A brand' });
    expect((await as(t, reader, 'GET', '/product/P-A')).json()).toMatchObject({ internalCode: 'P-A', brandInternalCode: 'B-A' });
    expect((await as(t, reader, 'GET', '/category/C-A')).statusCode).toBe(200);
    expect((await as(t, reader, 'GET', '/category')).statusCode).toBe(200);
    expect((await as(t, a, 'GET', '/brand/B-R')).statusCode).toBe(404);
    expect((await as(t, a, 'GET', '/category/C-R')).statusCode).toBe(404);
  });

  it('catalog.write writes categories only; catalog.bulkwrite submits batches only', async () => {
    const writer = await credential(a, ['supplier/catalog.write']);
    expect((await as(t, writer, 'PUT', '/category', { internalCode: 'C-W', name: 'w' })).statusCode).toBe(200);
    forbidden(await as(t, writer, 'GET', '/category/C-W'), 'supplier/catalog.read');
    forbidden(await as(t, writer, 'POST', '/batch/brand', [{ internalCode: 'B-W', name: 'x' }]), 'supplier/catalog.bulkwrite');

    const bulk = await credential(a, ['supplier/catalog.bulkwrite']);
    const res = await as(t, bulk, 'POST', '/batch/brand', [{ internalCode: 'B-W', name: 'w' }]);
    expect(res.statusCode).toBe(202);
    forbidden(await as(t, bulk, 'GET', `/batch/${res.json().batchId[0]}/status`), 'supplier/batch.read');
    forbidden(await as(t, bulk, 'PUT', '/category', { internalCode: 'C-W', name: 'x' }), 'supplier/catalog.write');
    await t.waitForBatches(a, res.json().batchId);
    expect((await as(t, a, 'GET', '/brand/B-W')).json().name).toBe('w');
  });

  it("a read credential of another supplier does not see the first supplier's brand", async () => {
    const reader = await credential(b, ['supplier/catalog.read']);
    expect((await as(t, reader, 'GET', '/brand/B-A')).statusCode).toBe(404);
  });
});
