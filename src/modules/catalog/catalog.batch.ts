// POST /batch/brand and POST /batch/product on the batch engine.
import type { FastifyError, FastifyRequest } from 'fastify';
import { actionFor, completed, defineBatchKind, failed } from '../batch/batch.kinds.ts';
import { NewRowsGuess } from '../../db/insert-first.ts';
import { registerImageUrls } from '../images/images.service.ts';
import * as repo from './catalog.repository.ts';
import { BrandBatchBody, ProductBatchBody } from './catalog.schemas.ts';

const brandAction = actionFor(BrandBatchBody);
const productAction = actionFor(ProductBatchBody);

const unique = (values: string[]) => [...new Set(values)];

/**
 * One row per code, as if the items had been applied one after another: a later item
 * wins for every field it sends, and a field it leaves out keeps what an earlier item of
 * the same run set (ON CONFLICT cannot touch a row twice in one statement, and keeping
 * only the last item would lose those fields, but only when both items share a chunk).
 */
function mergePerCode<T extends { code: string }>(rows: T[], merge: (earlier: T, later: T) => T): T[] {
  const byCode = new Map<string, T>();
  for (const row of rows) {
    const earlier = byCode.get(row.code);
    byCode.set(row.code, earlier ? merge(earlier, row) : row);
  }
  return [...byCode.values()];
}

const mergeBrand = (a: repo.BrandRow, b: repo.BrandRow): repo.BrandRow => ({
  ...b,
  weight: b.has_weight ? b.weight : a.weight,
  has_weight: a.has_weight || b.has_weight,
  image: b.has_image ? b.image : a.image,
  has_image: a.has_image || b.has_image,
  enabled: b.enabled ?? a.enabled,
});

const mergeProduct = (a: repo.ProductRow, b: repo.ProductRow): repo.ProductRow => ({
  ...b,
  description: b.has_description ? b.description : a.description,
  has_description: a.has_description || b.has_description,
  image: b.has_image ? b.image : a.image,
  has_image: a.has_image || b.has_image,
  images: b.images ?? a.images,
  ean: b.has_ean ? b.ean : a.ean,
  has_ean: a.has_ean || b.has_ean,
  enabled: b.enabled ?? a.enabled,
  display_products: b.display_products ?? a.display_products,
});

const upsertBrands = brandAction({
  name: 'upsert',
  select: (body) => body.upsert,
  code: (item) => item.internalCode,
  key: (item) => item.internalCode,
  async apply(trx, supplierId, items) {
    const rows: repo.BrandRow[] = items.map((i) => ({
      code: i.internalCode,
      name: i.name,
      weight: i.weight ?? null,
      has_weight: i.weight !== undefined,
      image: i.image ?? null,
      has_image: i.image !== undefined,
      enabled: i.enabled ?? null,
    }));
    const merged = mergePerCode(rows, mergeBrand);
    await repo.upsertBrands(trx, supplierId, merged);
    await registerImageUrls(trx, supplierId, merged.flatMap((r) => (r.image ? [r.image] : [])));
    return items.map(() => completed);
  },
});

/** Per supplier, whether its last product chunk was all new codes (the next one then tries a plain insert first). */
const newProducts = new NewRowsGuess();

const upsertProducts = productAction({
  name: 'upsert',
  select: (body) => body.upsert,
  code: (item) => item.internalCode,
  key: (item) => item.internalCode,
  async apply(trx, supplierId, items) {
    const brands = await repo.brandIds(trx, supplierId, unique(items.map((i) => i.brandInternalCode)));
    const categories = await repo.categoryIds(trx, supplierId, unique(items.map((i) => i.categoryInternalCode)));
    const rows: repo.ProductRow[] = [];
    const outcomes = items.map((i) => {
      const brandId = brands.get(i.brandInternalCode);
      const categoryId = categories.get(i.categoryInternalCode);
      if (brandId === undefined) return failed('UNKNOWN_BRAND', `brand ${i.brandInternalCode} does not exist`);
      if (categoryId === undefined) return failed('UNKNOWN_CATEGORY', `category ${i.categoryInternalCode} does not exist`);
      rows.push({
        code: i.internalCode,
        name: i.name,
        brand_id: brandId,
        category_id: categoryId,
        description: i.description ?? null,
        has_description: i.description !== undefined,
        image: i.image ?? null,
        has_image: i.image !== undefined,
        images: i.images ?? null,
        ean: i.ean ?? null,
        has_ean: i.ean !== undefined,
        enabled: i.enabled ?? null,
        display_products: i.displayProducts ?? null,
      });
      return completed;
    });
    const merged = mergePerCode(rows, mergeProduct);
    newProducts.saw(supplierId, await repo.writeProducts(trx, supplierId, merged, newProducts.expectNew(supplierId)));
    await registerImageUrls(trx, supplierId, merged.flatMap((r) => [...(r.image ? [r.image] : []), ...(r.images ?? [])]));
    return outcomes;
  },
});

/** Requests to POST /batch/brand that sent a bare array (their body was wrapped as {upsert}). */
const bareArrays = new WeakSet<FastifyRequest>();

export const brandBatchKind = defineBatchKind({
  endpoint: '/batch/brand',
  body: BrandBatchBody,
  route: {
    scope: 'supplier/catalog.bulkwrite',
    tags: ['catalog'],
    summary: 'Upsert brands in bulk (asynchronous)',
    // A bare array of brands is the upsert list (openapi.json).
    preValidation: async (request) => {
      if (!Array.isArray(request.body)) return;
      request.body = { upsert: request.body };
      bareArrays.add(request);
    },
    // Pointers lead into the body as it was sent: in a bare array the second brand is
    // /1, not /upsert/1. Rethrown, the error goes on to the app's one error handler.
    errorHandler: (error: FastifyError, request) => {
      if (bareArrays.has(request) && error.validationContext === 'body') {
        for (const e of error.validation ?? []) e.instancePath = e.instancePath.replace(/^\/upsert(?=\/|$)/, '');
      }
      throw error;
    },
  },
  actions: () => [upsertBrands],
  wakesImages: true,
});

export const productBatchKind = defineBatchKind({
  endpoint: '/batch/product',
  body: ProductBatchBody,
  route: { scope: 'supplier/catalog.bulkwrite', tags: ['catalog'], summary: 'Upsert products in bulk (asynchronous)' },
  actions: () => [upsertProducts],
  wakesImages: true,
});
