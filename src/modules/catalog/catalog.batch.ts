// POST /batch/brand and POST /batch/product on the batch engine. Products are a staged kind
// (batch README, "Staging"): their items are a row per chunk in batch_product_chunks,
// written with COPY when the request is accepted, and each chunk is applied from its row by
// one statement (writeStagedProducts); no product item passes through Node after its 202.
import type { FastifyError, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { actionFor, completed, defineBatchKind, failed, itemsOfOneAction, upsertByCode, type PlacedOutcome, type StagedValue } from '../batch/batch.kinds.ts';
import { NewRowsGuess } from '../../db/insert-first.ts';
import { registerImageUrls } from '../images/images.service.ts';
import * as repo from './catalog.repository.ts';
import { BrandBatchBody, ProductBatchBody, ProductInput } from './catalog.schemas.ts';

const brandAction = actionFor(BrandBatchBody);
const productAction = actionFor(ProductBatchBody);


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

const upsertBrands = upsertByCode(brandAction, {
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

type ProductItem = Static<typeof ProductInput>;

/** An item's staged values, in the order of productItemsStaging's columns. */
const stageProduct = (i: ProductItem): readonly StagedValue[] => [
  i.internalCode,
  i.name,
  i.description,
  i.brandInternalCode,
  i.categoryInternalCode,
  i.image,
  i.images,
  i.ean,
  i.enabled,
  i.displayProducts,
  (Object.keys(repo.SENT) as (keyof typeof repo.SENT)[]).reduce((bits, field) => (i[field] === undefined ? bits : bits | repo.SENT[field]), 0),
  i.minUnits,
  i.maxUnits,
  i.multiple,
];

/** A staged item as the client sent it (unknown fields dropped by the schema), its fields in the schema's order. */
const productOf = (r: repo.StagedProduct): ProductItem => ({
  internalCode: r.code,
  name: r.name,
  ...(r.sent & repo.SENT.description ? { description: r.description } : {}),
  brandInternalCode: r.brand,
  categoryInternalCode: r.category,
  ...(r.sent & repo.SENT.image ? { image: r.image } : {}),
  ...(r.images === null ? {} : { images: r.images }),
  ...(r.enabled === null ? {} : { enabled: r.enabled }),
  ...(r.sent & repo.SENT.ean ? { ean: r.ean } : {}),
  ...(r.display_products === null ? {} : { displayProducts: r.display_products as ProductItem['displayProducts'] }),
  ...(r.sent & repo.SENT.minUnits ? { minUnits: r.min_units } : {}),
  ...(r.sent & repo.SENT.maxUnits ? { maxUnits: r.max_units } : {}),
  ...(r.sent & repo.SENT.multiple ? { multiple: r.multiple } : {}),
});


const unresolvedOutcome = (u: repo.UnresolvedProduct): PlacedOutcome => ({
  idx: u.idx,
  outcome: u.rules_conflict
    ? failed('INVALID_VALUE', 'minUnits is above maxUnits: no quantity could be ordered')
    : u.brand_known
      ? failed('UNKNOWN_CATEGORY', `category ${u.category} does not exist`)
      : failed('UNKNOWN_BRAND', `brand ${u.brand} does not exist`),
});

const upsertProducts = upsertByCode(productAction, {
  stage: stageProduct,
  async applyStaged(trx, supplierId, run) {
    const written = await repo.writeStagedProducts(trx, supplierId, run, newProducts.expectNew(supplierId));
    newProducts.saw(supplierId, written);
    return written.unresolved.map(unresolvedOutcome);
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
  staging: { ...repo.productItemsStaging, items: itemsOfOneAction('upsert', repo.readStagedProducts, productOf) },
  actions: () => [upsertProducts],
  wakesImages: true,
});
