// How a chunk of products is written from its staging row: a plain INSERT first while the
// supplier's codes have been new, the upsert in a savepoint when one exists
// (writeStagedProducts, src/db/insert-first.ts).
// Whatever the path, the rows must be exactly those of applying every item one after
// another; chunks of 3 put new and existing codes in every order within and across chunks.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { productBatchKind } from '../../src/modules/catalog/catalog.batch.ts';
import * as repo from '../../src/modules/catalog/catalog.repository.ts';
import { as, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { stepAgainstModel, stepDrawnBatches } from '../helpers/drawn-batches.ts';
import { appForFile } from '../helpers/fixtures.ts';
import { stagedUpsert, writtenBothWays } from '../helpers/staging.ts';

let t: TestApp;
appForFile((app) => (t = app), { env: { BATCH_CHUNK_SIZE: '3' } });

async function newSupplier() {
  const s = await t.supplier();
  expect((await as(t, s, 'PUT', '/category', { internalCode: 'C-1', name: 'Drinks' })).statusCode).toBe(200);
  expect((await as(t, s, 'PUT', '/subcategory', { internalCode: 'C-1-1', name: 'Colas', parentCategoryInternalCode: 'C-1' })).statusCode).toBe(200);
  const brands = await as(t, s, 'POST', '/batch/brand', [{ internalCode: 'B-1', name: 'Cola Co' }, { internalCode: 'B-2', name: 'Agua' }]);
  await t.waitForBatches(s, brands.json().batchId);
  return s;
}

interface Row {
  name: string;
  brand: string;
  category: string;
  description: string | null;
  image: string | null;
  images: string[];
  ean: string | null;
  enabled: boolean;
  displayProducts: unknown[];
}
type Item = Record<string, unknown> & { internalCode: string; name: string; brandInternalCode: string; categoryInternalCode: string };

/** The reference: items applied one after another (absent keeps, null clears, a new product takes the defaults). */
class Model {
  readonly rows = new Map<string, Row>();
  apply(item: Item): 'completed' | 'failed' {
    if (!['B-1', 'B-2'].includes(item.brandInternalCode) || !['C-1', 'C-1-1'].includes(item.categoryInternalCode)) return 'failed';
    const row: Row = this.rows.get(item.internalCode) ?? { name: '', brand: '', category: '', description: null, image: null, images: [], ean: null, enabled: true, displayProducts: [] };
    const next: Row = { ...row, name: item.name, brand: item.brandInternalCode, category: item.categoryInternalCode };
    for (const [field, key] of [['description', 'description'], ['image', 'image'], ['images', 'images'], ['ean', 'ean'], ['enabled', 'enabled'], ['displayProducts', 'displayProducts']] as const) {
      if (item[field] !== undefined) (next as unknown as Record<string, unknown>)[key] = item[field];
    }
    this.rows.set(item.internalCode, next);
    return 'completed';
  }
}

async function stored(s: TestSupplier): Promise<Map<string, Row>> {
  const rows = await t.deps.db
    .selectFrom('products as p')
    .innerJoin('brands as b', 'b.id', 'p.brand_id')
    .innerJoin('categories as c', 'c.id', 'p.category_id')
    .select(['p.internal_code', 'p.name', 'b.internal_code as brand', 'c.internal_code as category', 'p.description', 'p.image', 'p.images', 'p.ean', 'p.enabled', 'p.display_products'])
    .where('p.supplier_id', '=', s.id)
    .execute();
  return new Map(
    rows.map((r) => [
      r.internal_code,
      { name: r.name, brand: r.brand, category: r.category, description: r.description, image: r.image, images: r.images, ean: r.ean, enabled: r.enabled, displayProducts: r.display_products as unknown[] },
    ]),
  );
}

/** Sends the items as one batch and checks every outcome and every row against the model. */
const step = (s: TestSupplier, model: Model, items: Item[]) => stepAgainstModel(t, s, '/batch/product', model, items, () => stored(s));

const p = (code: string, fields: Partial<Item> = {}): Item => ({ internalCode: code, name: `name of ${code}`, brandInternalCode: 'B-1', categoryInternalCode: 'C-1', ...fields });

describe('product chunks: plain insert first, upsert when a code exists', () => {
  it('new and existing codes in every order within and across chunks end as if applied one by one', async () => {
    const s = await newSupplier();
    const model = new Model();
    const full = { description: 'd', image: 'https://img.example.com/a.png', images: ['https://img.example.com/b.png'], ean: '770', enabled: false, displayProducts: [{ units: 6, name: 'Six' }] };
    // All new: two chunks of plain inserts.
    await step(s, model, [p('P-1', full), p('P-2'), p('P-3', { ean: '3' }), p('P-4'), p('P-5', { description: 'five' })]);
    // An existing code first, then new ones: the first chunk falls back, the next ones are upserts until one is all new.
    await step(s, model, [p('P-1', { name: 'renamed', brandInternalCode: 'B-2' }), p('P-6'), p('P-7'), p('P-8'), p('P-9'), p('P-10')]);
    // New codes before an existing one in one chunk: the new rows of the failed insert are undone and written once.
    await step(s, model, [p('P-11', { image: 'https://img.example.com/11.png' }), p('P-12'), p('P-2', { description: null, enabled: false })]);
    // All new again after a fallback, then an existing code in the last position of the second chunk.
    await step(s, model, [p('P-13'), p('P-14'), p('P-15'), p('P-16'), p('P-17'), p('P-3', { ean: null, categoryInternalCode: 'C-1-1' })]);
    // One code twice in a chunk (new, then again) and across chunks; a failed item among new ones writes nothing.
    await step(s, model, [p('P-18', full), p('P-18', { name: 'second', description: null }), p('P-19', { brandInternalCode: 'B-404' }), p('P-20'), p('P-18', { images: [] }), p('P-19')]);
    // Absent fields of existing rows keep their values; null and [] clear them.
    await step(s, model, [p('P-1'), p('P-18', { image: null, displayProducts: [] }), p('P-21', { enabled: true })]);
    expect(model.rows.size).toBe(21);
  });

  it('any mix of new, existing, repeated and failing items, 24 batches drawn at random (seeded)', async () => {
    const s = await newSupplier();
    const model = new Model();
    await stepDrawnBatches(18, 24, model, (code, batch, i, { random, pick }) => {
      const item = p(code, { name: `n${batch}.${i}`, brandInternalCode: pick(['B-1', 'B-2', 'B-1', 'B-2', 'B-404']), categoryInternalCode: pick(['C-1', 'C-1-1']) });
      if (random() < 0.5) item.description = pick([null, `d${batch}`]);
      if (random() < 0.4) item.image = pick([null, `https://img.example.com/${batch}.png`]);
      if (random() < 0.3) item.images = pick([[], [`https://img.example.com/i${batch}.png`]]);
      if (random() < 0.4) item.ean = pick([null, `e${batch}`]);
      if (random() < 0.4) item.enabled = random() < 0.5;
      if (random() < 0.3) item.displayProducts = pick([[], [{ units: batch + 1, name: `x${batch}` }]]);
      return item;
    }, (items) => step(s, model, items));
    expect(model.rows.size).toBe(30);
  });

  it('both forms of the write give a new code the same row, and say whether every code was new', async () => {
    const items: Item[] = [
      { ...p('F-1', { name: 'every field' }), description: 'd', image: 'https://img.example.com/f.png', images: ['https://img.example.com/g.png'], ean: '1', enabled: false, displayProducts: [{ units: 2, name: 'Two' }] },
      p('F-2', { name: 'nothing sent' }),
      { ...p('F-3', { name: 'nulls sent' }), description: null, image: null, images: [], ean: null, enabled: true, displayProducts: [] },
    ];
    // Each write reads a staging row of its own (a chunk of a batch that exists only there).
    const write = stagedUpsert(t.deps.db, productBatchKind, repo.writeStagedProducts);
    const row = (s: TestSupplier) =>
      t.deps.db
        .selectFrom('products')
        .select(['internal_code', 'name', 'description', 'image', 'images', 'ean', 'enabled', 'display_products', sql<boolean>`created_at = updated_at`.as('untouched')])
        .where('supplier_id', '=', s.id)
        .orderBy('internal_code')
        .execute();
    // a: the plain insert; b: the upsert alone.
    const a = await writtenBothWays(newSupplier, write, row, items, { unresolved: [] });
    expect((await row(a)).map((r) => [r.images, r.enabled, r.display_products])).toEqual([[['https://img.example.com/g.png'], false, [{ units: 2, name: 'Two' }]], [[], true, []], [[], true, []]]);
    // The image URLs the rows send are registered for download, each once.
    const urls = await t.deps.db.selectFrom('images').select('url').where('supplier_id', '=', a.id).orderBy('url').execute();
    expect(urls.map((u) => u.url)).toEqual(['https://img.example.com/f.png', 'https://img.example.com/g.png']);
    // An existing code among new ones: the plain insert gives way, and the answer says so.
    const more = [items[0]!, { ...items[1]!, internalCode: 'F-4' }];
    expect(await write(a, more, true)).toEqual({ allNew: false, unresolved: [] });
    expect(await write(a, [{ ...items[1]!, internalCode: 'F-5' }], false)).toEqual({ allNew: true, unresolved: [] });
    expect((await row(a)).map((r) => r.internal_code)).toEqual(['F-1', 'F-2', 'F-3', 'F-4', 'F-5']);
    // An unknown brand or category is answered by the item's place, brand first; nothing of it is written.
    const unknown = [p('F-6', { brandInternalCode: 'B-404', categoryInternalCode: 'C-404' }), p('F-7', { categoryInternalCode: 'C-404' }), p('F-8')];
    expect(await write(a, unknown, true)).toEqual({
      allNew: true,
      unresolved: [
        { idx: 0, brand: 'B-404', category: 'C-404', brand_known: false },
        { idx: 1, brand: 'B-1', category: 'C-404', brand_known: true },
      ],
    });
    expect((await row(a)).map((r) => r.internal_code)).toEqual(['F-1', 'F-2', 'F-3', 'F-4', 'F-5', 'F-8']);
  });
});
