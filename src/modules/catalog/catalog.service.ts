import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import { page } from '../../lib/pagination.ts';
import { loadImageViews, registerImageUrls, type ImageView } from '../images/images.service.ts';
import * as repo from './catalog.repository.ts';

const iso = (d: Date) => d.toISOString();

// `publicUrl` (PUBLIC_URL) makes the absolute URLs of the stored images in `imageUrls`.

export async function getBrand(db: Kysely<DB>, supplierId: number, code: string, publicUrl: string) {
  const b = await repo.findBrand(db, supplierId, code);
  if (!b) throw notFound('brand', code);
  return entryView(b, await loadImageViews(db, supplierId, [b.image], publicUrl));
}

type Views = (url: string | null) => ImageView;

/** A brand, or a category without its place in the tree (catalog.schemas.ts's CatalogEntryFields). */
interface EntryRow {
  internal_code: string;
  name: string;
  weight: number | null;
  image: string | null;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

function entryView(r: EntryRow, image: Views) {
  return {
    internalCode: r.internal_code,
    name: r.name,
    weight: r.weight,
    image: r.image,
    ...image(r.image),
    enabled: r.enabled,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

const categoryView = (c: repo.CategoryRow, image: Views) => ({ ...entryView(c, image), parentCategoryInternalCode: c.parent_code ?? null });

const subcategoryView = (c: repo.CategoryRow, image: Views) => ({ ...categoryView(c, image), parentCategoryInternalCode: c.parent_code! });

export async function getCategory(db: Kysely<DB>, supplierId: number, code: string, publicUrl: string) {
  const c = await repo.findCategory(db, supplierId, code);
  if (!c) throw notFound('category', code);
  const subs = c.parent_id === null ? await repo.listSubcategories(db, supplierId, [c.id]) : [];
  const image = await loadImageViews(db, supplierId, [c, ...subs].map((x) => x.image), publicUrl);
  if (c.parent_id !== null) return categoryView(c, image);
  return { ...categoryView(c, image), subcategories: subs.map((s) => subcategoryView(s, image)) };
}

export async function listCategories(
  db: Kysely<DB>,
  supplierId: number,
  query: { enabled?: boolean; take: number; page: number },
  publicUrl: string,
) {
  const { rows, total } = await repo.listTopCategories(db, supplierId, query);
  const subs = await repo.listSubcategories(db, supplierId, rows.map((r) => r.id), query.enabled);
  const image = await loadImageViews(db, supplierId, [...rows, ...subs].map((x) => x.image), publicUrl);
  const data = rows.map((c) => ({
    ...categoryView(c, image),
    subcategories: subs.filter((s) => s.parent_id === c.id).map((s) => subcategoryView(s, image)),
  }));
  return page(data, total, query.page, query.take);
}

interface CategoryInput {
  internalCode: string;
  name: string;
  weight?: number | null;
  image?: string | null;
  enabled?: boolean;
}

/**
 * upsertCategory (level 1) and upsertSubcategory (level 2). Categories and subcategories
 * share one namespace per supplier, and a code keeps its level for life: a category
 * code cannot be upserted as a subcategory, nor the other way round (409), so no
 * product or subcategory is silently moved to another level.
 */
export async function upsertCategory(
  db: Kysely<DB>,
  supplierId: number,
  input: CategoryInput & { parentCategoryInternalCode?: string },
  publicUrl: string,
) {
  const isSub = input.parentCategoryInternalCode !== undefined;
  await inTransaction(db, async (trx) => {
    let parentId: number | null = null;
    if (isSub) {
      const parent = await repo.findCategory(trx, supplierId, input.parentCategoryInternalCode!);
      if (!parent || parent.parent_id !== null) {
        throw fieldError(
          'UNKNOWN_CATEGORY',
          '/parentCategoryInternalCode',
          `${input.parentCategoryInternalCode} is not an existing level-1 category`,
        );
      }
      parentId = parent.id;
    }
    if (!(await repo.upsertCategory(trx, supplierId, { ...input, code: input.internalCode, parentId }))) {
      throw new AppError('ALREADY_EXISTS', `${input.internalCode} exists as a ${isSub ? 'level-1 category' : 'subcategory'}`, {
        errors: [{ pointer: '/internalCode', code: 'ALREADY_EXISTS', message: 'a code keeps its level; use another code' }],
      });
    }
    if (input.image) await registerImageUrls(trx, supplierId, [input.image]);
  });
  return getCategory(db, supplierId, input.internalCode, publicUrl);
}

/**
 * A product's `image` has its fields next to it, like every entity's; each entry of
 * `images` has the same fields in `imagesDetail`, in the same order.
 */
function productView(p: repo.ProductRecord, image: Views) {
  return {
    internalCode: p.internal_code,
    name: p.name,
    description: p.description,
    brandInternalCode: p.brand_code,
    categoryInternalCode: p.category_code,
    image: p.image,
    ...image(p.image),
    images: p.images,
    imagesDetail: p.images.map((url) => ({ url, ...image(url) })),
    enabled: p.enabled,
    ean: p.ean,
    displayProducts: p.display_products,
    // Case rules only when set: a product without them answers as before.
    ...(p.min_units === null ? {} : { minUnits: p.min_units }),
    ...(p.max_units === null ? {} : { maxUnits: p.max_units }),
    ...(p.multiple === null ? {} : { multiple: p.multiple }),
    createdAt: iso(p.created_at),
    updatedAt: iso(p.updated_at),
  };
}

export async function getProduct(db: Kysely<DB>, supplierId: number, code: string, publicUrl: string) {
  const p = await repo.findProduct(db, supplierId, code);
  if (!p) throw notFound('product', code);
  return productView(p, await loadImageViews(db, supplierId, [p.image, ...p.images], publicUrl));
}

/** A page of products by code, each as GET /product/{code} answers it. */
export async function listProducts(db: Kysely<DB>, supplierId: number, query: repo.ProductFilter, publicUrl: string) {
  const { rows, total } = await repo.listProducts(db, supplierId, query);
  const image = await loadImageViews(db, supplierId, rows.flatMap((p) => [p.image, ...p.images]), publicUrl);
  return page(rows.map((p) => productView(p, image)), total, query.page, query.take);
}
