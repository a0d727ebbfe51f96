// What the pricing engine needs for one store and one cart, read with a fixed number of
// queries (never one per line): the store's price list and groupers, the promotions in
// force today, and the products, prices and availability of every product the cart or a
// promotion names.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { CartLine, PricingInput, PricingPromotion, UnavailableRule } from '../pricing/pricing.types.ts';
import { promotionsForPricing } from '../promotions/promotions.service.ts';
import * as repo from './storefront.repository.ts';

function codesOf(promotion: PricingPromotion): string[] {
  const products = Array.isArray(promotion.products) ? promotion.products : [promotion.products];
  const gifts = [promotion.bonusTierData?.productInternalCode, promotion.bonusTierDataCash?.productInternalCode];
  return [...products.map((p) => p.internalCode), ...gifts.filter((g): g is string => typeof g === 'string')];
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

export async function pricingInputFor(
  db: Kysely<DB>,
  store: repo.StoreOfPerson,
  cart: CartLine[],
  today: string,
  currencyDecimals: number,
): Promise<PricingInput> {
  const supplierId = store.supplier_id;
  const [priceList, groupers, promotions, supplierGroupers] = await Promise.all([
    repo.storePriceList(db, supplierId, store.internal_code),
    repo.storeGroupers(db, supplierId, store.internal_code),
    promotionsForPricing(db, supplierId, { today }),
    repo.promotionGroupers(db, supplierId),
  ]);
  const codes = [...new Set([...cart.map((l) => l.productInternalCode), ...promotions.flatMap(codesOf)])];
  const products = await repo.productsByCode(db, supplierId, codes);
  const ids = products.map((p) => p.id);
  const codeOf = new Map(products.map((p) => [p.id, p.internal_code]));
  const [prices, rules] = await Promise.all([
    priceList?.enabled ? repo.pricesOf(db, supplierId, priceList.id, ids) : Promise.resolve([]),
    groupers.stockGrouperId !== undefined ? repo.stockRulesOf(db, supplierId, groupers.stockGrouperId, ids) : Promise.resolve([]),
  ]);
  const entries = prices.map((p) => ({ productInternalCode: codeOf.get(p.product_id)!, units: p.units, price: Number(p.price) }));
  const giftSizes = promotions.flatMap((p) => [p.bonusTierData, p.bonusTierDataCash]).filter((t) => t?.units).map((t) => t!.units!);
  const sizesOf = (code: string) => [...entries.filter((e) => e.productInternalCode === code).map((e) => e.units), ...giftSizes];
  return {
    currencyDecimals,
    today,
    products: products.map((p) => ({ internalCode: p.internal_code, enabled: p.enabled })),
    prices: !priceList ? 'NO_PRICE_LIST' : !priceList.enabled ? 'PRICE_LIST_DISABLED' : entries,
    unavailable: unavailableFrom(
      rules.map((r) => ({ code: codeOf.get(r.product_id)!, units: r.units, available: r.available })),
      sizesOf,
    ),
    groupers: supplierGroupers.map((g) => ({ internalCode: g.internal_code, enabled: g.enabled })),
    store: { promotionGrouperCodes: groupers.promotionGrouperCodes, dropSize: store.drop_size === null ? null : Number(store.drop_size) },
    supplierMinimumOrder: store.minimum_order === null ? null : Number(store.minimum_order),
    promotions,
    cart,
  };
}
