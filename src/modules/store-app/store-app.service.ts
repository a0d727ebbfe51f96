// The store side (README.md): what a store can buy, its cart priced by the engine, and
// the promotions taking part for it. Every function takes a store the membership guard
// (store-app.membership.ts) already found for the person.
import { AppError, validationError } from '../../lib/errors.ts';
import { priceCart, promotionsTakingPart } from '../pricing/pricing.engine.ts';
import type { CartLine, PricingResult, StoredPricingPromotion } from '../pricing/pricing.types.ts';
import { promotionsForPricing } from '../promotions/promotions.service.ts';
import { listPrices } from '../pricelists/pricelists.service.ts';
import { todayOf, type StoreAppContext } from './store-app.context.ts';
import { pricingInputFor, productsFromDatabase, type InForce, type ProductSource, type StoreContext } from './store-app.pricing-context.ts';
import { countingOtherOrders, previewDate, violationsRefusal, zoneOf } from './store-app.minimums.ts';
import { orderDelivery } from '../delivery/delivery.service.ts';
import type { ZoneRow } from '../delivery/delivery.repository.ts';
import * as repo from './store-app.repository.ts';
import type { CatalogPromotion, StorePromotion } from './store-app.schemas.ts';

/** A promotion as the catalog shows it: its code, name, type and the one tier field it has, as stored. */
function catalogPromotion(p: StoredPricingPromotion): CatalogPromotion {
  const tiers = (['discountTiersData', 'discountTiersDataCash', 'bonusTierData', 'bonusTierDataCash'] as const).filter((k) => p[k] != null);
  return { internalCode: p.internalCode, name: p.name, type: p.type, ...(Object.fromEntries(tiers.map((k) => [k, p[k]])) as Partial<CatalogPromotion>) };
}

/**
 * The promotions in force today, read once per change (store cache): the list in the
 * engine's shape and order, the promotions naming each product (in that order), and each
 * one as the catalog shows it.
 */
export async function inForce(ctx: StoreAppContext, supplierId: number): Promise<InForce> {
  const today = await todayOf(ctx, supplierId);
  return ctx.cache.get(`promotions:${supplierId}:${today}`, async () => {
    const list = await promotionsForPricing(ctx.db, supplierId, { today });
    const byProduct = new Map<string, StoredPricingPromotion[]>();
    for (const promo of list) {
      for (const { internalCode } of promo.products) {
        const named = byProduct.get(internalCode);
        if (!named) byProduct.set(internalCode, [promo]);
        else if (named.at(-1) !== promo) named.push(promo);
      }
    }
    const giftSizes = [...new Set(list.flatMap((p) => [p.bonusTierData?.units, p.bonusTierDataCash?.units]).filter((u): u is number => !!u))];
    return { list, byProduct, shown: new Map(list.map((p) => [p, catalogPromotion(p)])), giftSizes };
  });
}

function byCode<T extends { internal_code: string }>(rows: T[]) {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(row.internal_code);
    if (list) list.push(row);
    else map.set(row.internal_code, [row]);
  }
  return map;
}

/**
 * Products, prices and stock rules for pricing: the supplier's products, the list's prices
 * and the grouper's rules each read once per change (store cache) and looked up by code.
 * When the cache cannot be trusted (not listening), from the database by code instead, so
 * a cart never loads a whole list.
 */
export function productSource(ctx: StoreAppContext, context: StoreContext): ProductSource {
  if (!ctx.cache.isListening) return productsFromDatabase(ctx.db, context);
  const supplierId = context.store.supplier_id;
  const { priceList, groupers } = context;
  const none = Promise.resolve(new Map<string, never[]>());
  return async (codes) => {
    const [products, prices, rules] = await Promise.all([
      ctx.cache.get(`products:${supplierId}`, async () => byCode(await repo.allProducts(ctx.db, supplierId))),
      priceList?.enabled ? ctx.cache.get(`prices:${supplierId}:${priceList.id}`, async () => byCode(await listPrices(ctx.db, supplierId, priceList.id))) : none,
      groupers.stockGrouperId !== undefined ? ctx.cache.get(`rules:${supplierId}:${groupers.stockGrouperId}`, async () => byCode(await repo.grouperStockRules(ctx.db, supplierId, groupers.stockGrouperId!))) : none,
    ]);
    return {
      products: codes.flatMap((c) => products.get(c) ?? []),
      prices: codes.flatMap((c) => prices.get(c) ?? []),
      rules: codes.flatMap((c) => rules.get(c) ?? []),
    };
  };
}

/** The engine's input and result for a cart of the store, with its zone's minimum (`zone`: the store's, read by the caller). */
export async function pricedCart(ctx: StoreAppContext, store: StoreContext, lines: CartLine[], zone: ZoneRow | null) {
  const supplierId = store.store.supplier_id;
  const promotions = await inForce(ctx, supplierId);
  const input = await pricingInputFor(productSource(ctx, store), store, promotions, lines, await todayOf(ctx, supplierId), ctx.currencyDecimals, zone?.minimum_order ?? null);
  return { input, result: priceCart(input) };
}

/** The cart priced for the store: the cart alone (the order guide's prices). */
export async function priceStoreCart(ctx: StoreAppContext, store: StoreContext, lines: CartLine[]): Promise<PricingResult> {
  return (await pricedCart(ctx, store, lines, await zoneOf(ctx, store.store))).result;
}

/**
 * The cart preview: priced as placing prices it, the minimum counting the store's other
 * orders for the delivery date (asked for, checked as placing checks it; else the zone's
 * first; none without a zone), so a top-up cart shows what it still lacks, if anything.
 */
export async function previewCart(ctx: StoreAppContext, store: StoreContext, body: { lines: CartLine[]; deliveryDate?: string }, now: Date): Promise<PricingResult> {
  const zone = await zoneOf(ctx, store.store);
  if (body.deliveryDate !== undefined) orderDelivery(zone, now, body.deliveryDate, await todayOf(ctx, store.store.supplier_id));
  const { input, result } = await pricedCart(ctx, store, body.lines, zone);
  return countingOtherOrders(ctx, store.store.id, input, result, previewDate(zone, now, body.deliveryDate));
}

/**
 * Placing is refused, never trimmed: each failed line is a problem with its own code, and
 * so is each broken case rule (the minimum is the placement's own, with the date's other orders).
 */
export function refusalOf(result: PricingResult, lines: readonly CartLine[]): AppError | undefined {
  const errors = result.lines.flatMap((line, i) =>
    'error' in line ? [{ pointer: `/lines/${i}`, code: line.error, message: `${line.productInternalCode} in packages of ${line.units} cannot be ordered: ${line.error}` }] : [],
  );
  if (errors.length > 0) return validationError(errors, errors.length === 1 ? undefined : `${errors.length} lines cannot be ordered`);
  return violationsRefusal(result, lines);
}

/**
 * The promotions taking part for the store, each product with its `name`, and a crossed
 * bonus's gift with its `productName` (null for a code the supplier does not have): the
 * shop names them even when the store cannot buy them (an unavailable gift).
 */
export async function storePromotions(ctx: StoreAppContext, store: StoreContext): Promise<{ data: StorePromotion[] }> {
  const { list } = await inForce(ctx, store.store.supplier_id);
  const taking = promotionsTakingPart({ today: await todayOf(ctx, store.store.supplier_id), groupers: store.supplierGroupers, store: store.pricingStore, promotions: list });
  const gift = (p: StoredPricingPromotion) => [p.bonusTierData?.productInternalCode, p.bonusTierDataCash?.productInternalCode].filter((c): c is string => typeof c === 'string');
  const codes = [...new Set(taking.flatMap((p) => [...p.products.map((x) => x.internalCode), ...gift(p)]))];
  const { products } = codes.length ? await productSource(ctx, store)(codes) : { products: [] };
  const names = new Map(products.map((p) => [p.internal_code, p.name]));
  const named = <T extends { internalCode: string }>(x: T) => ({ ...x, name: names.get(x.internalCode) ?? null });
  const namedGift = <T extends { productInternalCode?: string }>(tier: T) =>
    tier.productInternalCode ? { ...tier, productName: names.get(tier.productInternalCode) ?? null } : tier;
  return {
    data: taking.map((p) => ({
      ...p,
      products: p.products.map(named),
      ...(p.bonusTierData ? { bonusTierData: namedGift(p.bonusTierData) } : {}),
      ...(p.bonusTierDataCash ? { bonusTierDataCash: namedGift(p.bonusTierDataCash) } : {}),
    })),
  };
}
