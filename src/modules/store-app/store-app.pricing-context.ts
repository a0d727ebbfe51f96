// What the pricing engine needs for one store and one cart, read with a fixed number of
// queries (never one per line): the store's price list and groupers and the promotions in
// force today (both from the store cache), and the products, prices and availability of
// the products the cart and its promotions name.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { CartLine, PricingInput, PricingPromotion, StoredPricingPromotion, UnavailableRule, ZoneMinimumOrder } from '../pricing/pricing.types.ts';
import * as repo from './store-app.repository.ts';
import type { CatalogPromotion } from './store-app.schemas.ts';

/** The products a promotion gives (a crossed bonus's gift); an individual bonus gives the line's own product. */
function giftsOf(promotion: PricingPromotion): string[] {
  const gifts = [promotion.bonusTierData?.productInternalCode, promotion.bonusTierDataCash?.productInternalCode];
  return gifts.filter((g): g is string => typeof g === 'string');
}

/**
 * The stock rules as the engine's unavailable list. A product rule covers every size
 * except those with their own rule, so for a product marked unavailable each size the
 * store could meet (priced, or given as a gift) is listed unless its own rule allows it.
 */
export function unavailableFrom(
  rules: { code: string; units: number; available: boolean }[],
  sizesOf: (code: string) => number[],
): UnavailableRule[] {
  const byProduct = new Map<string, Map<number, boolean>>();
  for (const r of rules) {
    const sizes = byProduct.get(r.code) ?? new Map<number, boolean>();
    sizes.set(r.units, r.available);
    byProduct.set(r.code, sizes);
  }
  const out: UnavailableRule[] = [];
  for (const [code, sizes] of byProduct) {
    const productRule = sizes.get(0);
    const exceptions = [...sizes].filter(([units, available]) => units !== 0 && available);
    if (productRule === false && exceptions.length === 0) {
      out.push({ productInternalCode: code });
      continue;
    }
    const candidates = new Set([...sizesOf(code), ...[...sizes.keys()].filter((u) => u !== 0)]);
    for (const units of candidates) {
      const own = sizes.get(units);
      if (own === false || (own === undefined && productRule === false)) out.push({ productInternalCode: code, units });
    }
  }
  return out;
}

/** A store with what pricing needs of it besides the cart: kept in the store cache. */
export async function storeContextOf(db: Kysely<DB>, store: repo.MemberStore) {
  const supplierId = store.supplier_id;
  const [priceList, groupers, supplierGroupers] = await Promise.all([
    repo.storePriceList(db, supplierId, store.internal_code),
    repo.storeGroupers(db, supplierId, store.internal_code),
    repo.promotionGroupers(db, supplierId),
  ]);
  return {
    store,
    priceList,
    groupers,
    supplierGroupers: supplierGroupers.map((g) => ({ internalCode: g.internal_code, enabled: g.enabled })),
    pricingStore: { promotionGrouperCodes: groupers.promotionGrouperCodes, dropSize: store.drop_size === null ? null : Number(store.drop_size) },
  };
}

export type StoreContext = Awaited<ReturnType<typeof storeContextOf>>;

/** The promotions in force today (store cache): in the engine's order, by product named, and as the catalog shows them. */
export interface InForce {
  list: StoredPricingPromotion[];
  byProduct: Map<string, StoredPricingPromotion[]>;
  shown: Map<StoredPricingPromotion, CatalogPromotion>;
  /** The package sizes any promotion gives gifts in, each once. */
  giftSizes: number[];
}

/** The products, prices (in the store's list) and stock rules (of its grouper) of some product codes. */
export interface ProductData {
  products: { internal_code: string; name: string; enabled: boolean; min_units: number | null; max_units: number | null; multiple: number | null }[];
  prices: { internal_code: string; units: number; price: string | number }[];
  rules: { internal_code: string; units: number; available: boolean }[];
}
export type ProductSource = (codes: string[]) => Promise<ProductData>;

/** Reads them from the database: three statements at once (one round trip), each starting from the codes. */
export function productsFromDatabase(db: Kysely<DB>, context: StoreContext): ProductSource {
  const supplierId = context.store.supplier_id;
  const { priceList, groupers } = context;
  return async (codes) => {
    const [products, prices, rules] = await Promise.all([
      repo.productsByCode(db, supplierId, codes),
      priceList?.enabled ? repo.pricesByCode(db, supplierId, priceList.id, codes) : Promise.resolve([]),
      groupers.stockGrouperId !== undefined ? repo.stockRulesByCode(db, supplierId, groupers.stockGrouperId, codes) : Promise.resolve([]),
    ]);
    return { products, prices, rules };
  };
}

/**
 * The engine's input for one cart. Only the promotions that name a product of the cart
 * are passed: the engine gives nothing to any other (it needs qualifying lines), so the
 * result is the one all of them would give. The products read are the cart's and those
 * promotions' gifts: the engine prices and checks the cart's lines and checks the gifts it
 * gives, and never reads another product a promotion names (its qualifying lines come
 * from the cart), so a cart reads what it prices, not the hundreds of products its
 * promotions may name. The sizes gifts come in are still taken from every promotion, for
 * the availability rule of a product-wide stock rule.
 */
export async function pricingInputFor(
  source: ProductSource,
  context: StoreContext,
  promotions: InForce,
  cart: CartLine[],
  today: string,
  currencyDecimals: number,
  /** The minimum of the store's delivery zone (none without a zone, or a zone without one). */
  zoneMinimumOrder: ZoneMinimumOrder | null = null,
): Promise<PricingInput & { names: Map<string, string> }> {
  const { store, priceList } = context;
  const named = new Set<PricingPromotion>();
  for (const line of cart) for (const p of promotions.byProduct.get(line.productInternalCode) ?? []) named.add(p);
  const relevant = promotions.list.filter((p) => named.has(p));
  const codes = [...new Set([...cart.map((l) => l.productInternalCode), ...relevant.flatMap(giftsOf)])];
  const { products, prices, rules } = await source(codes);
  const entries = prices.map((p) => ({ productInternalCode: p.internal_code, units: p.units, price: Number(p.price) }));
  const sizesByCode = new Map<string, number[]>();
  for (const e of entries) sizesByCode.set(e.productInternalCode, [...(sizesByCode.get(e.productInternalCode) ?? []), e.units]);
  const sizesOf = (code: string) => [...(sizesByCode.get(code) ?? []), ...promotions.giftSizes];
  return {
    currencyDecimals,
    today,
    // Case rules only where the product has one, so a supplier without any passes what it did before.
    products: products.map((p) => ({
      internalCode: p.internal_code,
      enabled: p.enabled,
      name: p.name,
      ...(p.min_units === null ? {} : { minUnits: p.min_units }),
      ...(p.max_units === null ? {} : { maxUnits: p.max_units }),
      ...(p.multiple === null ? {} : { multiple: p.multiple }),
    })),
    prices: !priceList ? 'NO_PRICE_LIST' : !priceList.enabled ? 'PRICE_LIST_DISABLED' : entries,
    unavailable: unavailableFrom(
      rules.map((r) => ({ code: r.internal_code, units: r.units, available: r.available })),
      sizesOf,
    ),
    groupers: context.supplierGroupers,
    store: context.pricingStore,
    supplierMinimumOrder: store.minimum_order === null ? null : Number(store.minimum_order),
    ...(zoneMinimumOrder ? { zoneMinimumOrder } : {}),
    promotions: relevant,
    cart,
    names: new Map(products.map((p) => [p.internal_code, p.name])),
  };
}
