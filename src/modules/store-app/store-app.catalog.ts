// The store catalogue: what a store can buy, computed once per price list and stock
// grouper (every store with the same ones shares it) and kept in the store cache until
// something it was read from changes. A request filters and pages it in memory and adds
// the promotions that take part for its store, so its cost follows the page it answers,
// not the size of the supplier's catalogue. The filters' choices (the categories and
// brands of those products, with their names) are computed with it.
import type { Static } from 'typebox';
import { page } from '../../lib/pagination.ts';
import { notFound } from '../../lib/errors.ts';
import { loadImageViews, type ImageUrls } from '../images/images.service.ts';
import { takingPartFor } from '../pricing/pricing.engine.ts';
import { listPrices } from '../pricelists/pricelists.service.ts';
import { todayOf, type StoreAppContext } from './store-app.context.ts';
import type { CatalogItem } from './store-app.schemas.ts';
import { unavailableFrom, type StoreContext } from './store-app.pricing-context.ts';
import * as repo from './store-app.repository.ts';
import { inForce } from './store-app.service.ts';
import { catalogChangeTimes } from './store-app.changes.repository.ts';
import { decodeCursor, deltaPossible, encodeCursor, promotionsDigest, shapeDigest, type CatalogCursor } from './store-app.changes.ts';

export interface CatalogFilter {
  search?: string;
  category?: string;
  brand?: string;
  /** A cursor of an earlier answer, or `0`: answer what changed since, with the next cursor (store-app.changes.ts). */
  changedSince?: string;
  take: number;
  page: number;
}

/** A catalogue product as cached: the answer's fields but those computed per request, plus what filtering reads. */
type CatalogProduct = Omit<Static<typeof CatalogItem>, 'imageUrls' | 'images' | 'promotions'> & {
  /** The supplier's image URLs: only looked up, never answered (the answer has the service's versions). */
  source: { image: string | null; images: string[] };
  /** For filters: lowercased name and code; the parent category's code. */
  folded: { name: string; code: string; parentCategory: string | null };
  /** When the product, a price of it in the list or a stock rule of it last changed (ms). */
  changedAt: number;
};

export interface FilterChoice {
  code: string;
  name: string;
}

/** The choices of the shop's filters: what the catalogue's products use, by name. */
export interface CatalogFilters {
  /** Level-1 categories each followed by their subcategories, each level by name. */
  categories: (FilterChoice & { parentCode: string | null })[];
  brands: FilterChoice[];
}

interface Catalog {
  products: CatalogProduct[];
  filters: CatalogFilters;
  /** The latest `changedAt` of its products, and the digest of its codes and sizes (store-app.changes.ts). */
  changedAt: number;
  shape: string;
}

const byName = (a: FilterChoice, b: FilterChoice) => a.name.localeCompare(b.name) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);

/**
 * The categories and brands the products use. A product in a subcategory also brings its
 * parent, because the catalogue's category filter matches a parent's products too.
 */
function filtersOf(rows: repo.CatalogProductRow[]): CatalogFilters {
  const brands = new Map<string, FilterChoice>();
  const parents = new Map<string, FilterChoice>();
  const subs = new Map<string, FilterChoice & { parentCode: string }>();
  for (const r of rows) {
    brands.set(r.brand_code, { code: r.brand_code, name: r.brand_name });
    if (r.parent_category_code === null) parents.set(r.category_code, { code: r.category_code, name: r.category_name });
    else {
      parents.set(r.parent_category_code, { code: r.parent_category_code, name: r.parent_category_name ?? r.parent_category_code });
      subs.set(r.category_code, { code: r.category_code, name: r.category_name, parentCode: r.parent_category_code });
    }
  }
  const children = [...subs.values()].sort(byName);
  const categories = [...parents.values()]
    .sort(byName)
    .flatMap((p) => [{ ...p, parentCode: null }, ...children.filter((c) => c.parentCode === p.code)]);
  return { categories, brands: [...brands.values()].sort(byName) };
}

async function computeCatalog(ctx: StoreAppContext, supplierId: number, priceListId: number, stockGrouperId: number | undefined): Promise<Catalog> {
  const [rows, prices, rules, changes] = await Promise.all([
    repo.catalogProducts(ctx.db, supplierId, priceListId, stockGrouperId),
    listPrices(ctx.db, supplierId, priceListId),
    stockGrouperId !== undefined ? repo.grouperStockRules(ctx.db, supplierId, stockGrouperId) : Promise.resolve([]),
    catalogChangeTimes(ctx.db, supplierId, priceListId, stockGrouperId),
  ]);
  const sizesById = new Map<number, { units: number; price: string | number }[]>();
  for (const p of prices) {
    const list = sizesById.get(p.product_id);
    if (list) list.push(p);
    else sizesById.set(p.product_id, [p]);
  }
  const codeOf = new Map(rows.map((r) => [r.id, r.internal_code]));
  const idOf = new Map(rows.map((r) => [r.internal_code, r.id]));
  // The same rule as the cart's (unavailableFrom), over the rules of the products shown.
  const unavailable = unavailableFrom(
    rules.filter((r) => codeOf.has(r.product_id)).map((r) => ({ code: codeOf.get(r.product_id)!, units: r.units, available: r.available })),
    (code) => (sizesById.get(idOf.get(code)!) ?? []).map((p) => p.units),
  );
  const off = new Map<string, (number | null | undefined)[]>();
  for (const u of unavailable) off.set(u.productInternalCode, [...(off.get(u.productInternalCode) ?? []), u.units]);
  const isUnavailable = (code: string, units: number) => off.get(code)?.some((u) => u == null || u === units) ?? false;
  const products = rows.map((r) => {
    const names = new Map((r.display_products ?? []).map((d) => [d.units, d.name]));
    return {
      internalCode: r.internal_code,
      name: r.name,
      description: r.description,
      brandInternalCode: r.brand_code,
      categoryInternalCode: r.category_code,
      source: { image: r.image, images: r.images },
      sizes: [...(sizesById.get(r.id) ?? [])]
        .sort((a, b) => a.units - b.units)
        .filter((p) => !isUnavailable(r.internal_code, p.units))
        .map((p) => ({ units: p.units, name: names.get(p.units) ?? null, price: Number(p.price) })),
      folded: { name: r.name.toLowerCase(), code: r.internal_code.toLowerCase(), parentCategory: r.parent_category_code },
      changedAt: changes.get(r.id) ?? 0,
    };
  });
  return { products, filters: filtersOf(rows), changedAt: products.reduce((max, p) => Math.max(max, p.changedAt), 0), shape: shapeDigest(products) };
}

function matches(p: CatalogProduct, f: CatalogFilter, search: string | undefined) {
  if (search !== undefined && !p.folded.name.includes(search) && !p.folded.code.includes(search)) return false;
  if (f.category !== undefined && p.categoryInternalCode !== f.category && p.folded.parentCategory !== f.category) return false;
  if (f.brand !== undefined && p.brandInternalCode !== f.brand) return false;
  return true;
}

/** The catalogue of the store's price list and stock grouper (store cache); undefined without an enabled list. */
async function catalogOf(ctx: StoreAppContext, store: StoreContext): Promise<Catalog | undefined> {
  const { priceList, groupers } = store;
  if (!priceList?.enabled) return undefined;
  const supplierId = store.store.supplier_id;
  const key = `catalog:${supplierId}:${priceList.id}:${groupers.stockGrouperId ?? ''}`;
  return ctx.cache.get(key, () => computeCatalog(ctx, supplierId, priceList.id, groupers.stockGrouperId));
}

/** The stored versions of these URLs, in their order; an image not stored (yet) is left out. */
function storedVersions(urls: string[], view: (url: string) => { imageUrls: ImageUrls | null }): ImageUrls[] {
  if (urls.length === 0) return [];
  const stored: ImageUrls[] = [];
  for (const url of urls) {
    const versions = view(url).imageUrls;
    if (versions) stored.push(versions);
  }
  return stored;
}

export async function storeCatalog(ctx: StoreAppContext, store: StoreContext, filter: CatalogFilter) {
  const supplierId = store.store.supplier_id;
  const [catalog, promotions] = await Promise.all([catalogOf(ctx, store), inForce(ctx, supplierId)]);
  if (!catalog) return page([], 0, filter.page, filter.take);
  const all = catalog.products;
  const search = filter.search?.toLowerCase();
  let filtered = search === undefined && filter.category === undefined && filter.brand === undefined ? all : all.filter((p) => matches(p, filter, search));
  // "What changed since": the items changed past the phone's cursor, or everything (`full`).
  let changes: { cursor: string; full: boolean } | undefined;
  if (filter.changedSince !== undefined) {
    const sent = decodeCursor(filter.changedSince);
    const today = await todayOf(ctx, supplierId);
    const takesPartToday = takingPartFor({ today, groupers: store.supplierGroupers, store: store.pricingStore });
    const taking = promotions.list.filter(takesPartToday).map((x) => promotions.shown.get(x));
    const now: CatalogCursor = { t: catalog.changedAt, s: catalog.shape, p: promotionsDigest(taking), d: today };
    const delta = deltaPossible(sent, now);
    if (delta) filtered = filtered.filter((p) => p.changedAt > sent.t);
    changes = { cursor: encodeCursor(now), full: !delta };
  }
  const from = (filter.page - 1) * filter.take;
  const data = await answerItems(ctx, store, promotions, filtered.slice(from, from + filter.take));
  const answer = page(data, filtered.length, filter.page, filter.take);
  return changes ? { ...answer, ...changes } : answer;
}

/**
 * The items of an answer: the service's versions of their images, read per page and never
 * kept, because the image worker makes them ready on its own time (one query by URL; none
 * without images; only stored versions, never the supplier's URL: README, "Images"), and
 * the promotions taking part for the store that name them (never all in force).
 */
async function answerItems(ctx: StoreAppContext, store: StoreContext, promotions: Awaited<ReturnType<typeof inForce>>, shown: CatalogProduct[]) {
  const supplierId = store.store.supplier_id;
  const image = await loadImageViews(ctx.db, supplierId, shown.flatMap((p) => [p.source.image, ...p.source.images]), ctx.publicUrl);
  const takesPart = takingPartFor({ today: await todayOf(ctx, supplierId), groupers: store.supplierGroupers, store: store.pricingStore });
  // Each item is written field by field: copying a cached product with a rest pattern
  // (`{ folded, ...p }`) took V8's slow generic path and left objects the serializer read
  // slowly; writing the fields doubled the page's throughput (docs/benchmarks.md, store
  // side, session 12). Typed as the answer's item: a field CatalogItem gains and this
  // copy lacks fails to compile here.
  return shown.map((p): Static<typeof CatalogItem> => ({
    internalCode: p.internalCode,
    name: p.name,
    description: p.description,
    brandInternalCode: p.brandInternalCode,
    categoryInternalCode: p.categoryInternalCode,
    imageUrls: image(p.source.image).imageUrls,
    images: storedVersions(p.source.images, image),
    sizes: p.sizes,
    promotions: (promotions.byProduct.get(p.internalCode) ?? []).filter(takesPart).map((x) => promotions.shown.get(x)!),
  }));
}

/**
 * One product of the store's catalogue by its exact code, as the catalogue answers it, with
 * the sizes priced in the store's list that its stock grouper marks out of stock (the same
 * rule, `unavailableFrom`). A product the catalogue does not list (disabled, not priced,
 * out of stock in every size, another supplier's) is a 404, as for a store.
 */
export async function storeProduct(ctx: StoreAppContext, store: StoreContext, code: string) {
  const supplierId = store.store.supplier_id;
  const [catalog, promotions] = await Promise.all([catalogOf(ctx, store), inForce(ctx, supplierId)]);
  const product = catalog?.products.find((p) => p.internalCode === code);
  if (!product || !store.priceList) throw notFound('product', code, '/params/code');
  const grouperId = store.groupers.stockGrouperId;
  const [prices, rules, [item]] = await Promise.all([
    repo.pricesByCode(ctx.db, supplierId, store.priceList.id, [code]),
    grouperId === undefined ? Promise.resolve([]) : repo.stockRulesByCode(ctx.db, supplierId, grouperId, [code]),
    answerItems(ctx, store, promotions, [product]),
  ]);
  const listed = new Set(product.sizes.map((s) => s.units));
  const off = unavailableFrom(
    rules.map((r) => ({ code, units: r.units, available: r.available })),
    () => prices.map((p) => p.units),
  );
  const outOfStock = prices
    .map((p) => p.units)
    .filter((units) => !listed.has(units) && off.some((u) => u.units == null || u.units === units))
    .sort((a, b) => a - b)
    .map((units) => ({ units }));
  return { ...item!, outOfStock };
}

/** The filters' choices: the categories and brands of the products this store can buy, with their names. */
export async function storeCatalogFilters(ctx: StoreAppContext, store: StoreContext): Promise<CatalogFilters> {
  const catalog = await catalogOf(ctx, store);
  return catalog?.filters ?? { categories: [], brands: [] };
}
