// The store side (store-app.md): what a store can buy, its cart priced by the engine, and
// its orders. A store user reaches only the stores they belong to; any other store or
// order answers 404, exactly like one that does not exist.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import { page } from '../../lib/pagination.ts';
import { priceCart, promotionsTakingPart } from '../pricing/pricing.engine.ts';
import type { CartLine, PricingResult } from '../pricing/pricing.types.ts';
import { pricingInputFor, unavailableFrom } from './pricing-context.ts';
import * as repo from './storefront.repository.ts';

export interface StorefrontContext {
  db: Kysely<DB>;
  today: string;
  currencyDecimals: number;
  /** Wakes this process's workers: an event was just recorded. */
  wake: () => void;
}

export async function requireStore(db: Kysely<DB>, personId: number, storeId: number) {
  const store = await repo.storeOfPerson(db, personId, storeId);
  if (!store) throw notFound('store', String(storeId), '/params/storeId');
  return store;
}

export async function priceStoreCart(ctx: StorefrontContext, store: repo.StoreOfPerson, lines: CartLine[]): Promise<PricingResult> {
  return priceCart(await pricingInputFor(ctx.db, store, lines, ctx.today, ctx.currencyDecimals));
}

export async function previewCart(ctx: StorefrontContext, personId: number, storeId: number, lines: CartLine[]) {
  return priceStoreCart(ctx, await requireStore(ctx.db, personId, storeId), lines);
}

/** Placing is refused, never trimmed: each failed line is a problem with its own code. */
export function refusalOf(result: PricingResult): AppError | undefined {
  const errors = result.lines.flatMap((line, i) =>
    'error' in line ? [{ pointer: `/lines/${i}`, code: line.error, message: `${line.productInternalCode} in packages of ${line.units} cannot be ordered: ${line.error}` }] : [],
  );
  if (errors.length > 0) return validationError(errors, errors.length === 1 ? undefined : `${errors.length} lines cannot be ordered`);
  if (result.minimumOrder) {
    const { amount, missing } = result.minimumOrder;
    return new AppError('BELOW_MINIMUM_ORDER', `the minimum order is ${amount}; ${missing} more is needed`, {
      errors: [{ pointer: '/lines', code: 'BELOW_MINIMUM_ORDER', message: `add ${missing} to reach the minimum order of ${amount}` }],
    });
  }
  return undefined;
}

export async function storeCatalog(ctx: StorefrontContext, personId: number, storeId: number, filter: repo.CatalogFilter) {
  const store = await requireStore(ctx.db, personId, storeId);
  const supplierId = store.supplier_id;
  const [priceList, groupers] = await Promise.all([
    repo.storePriceList(ctx.db, supplierId, store.internal_code),
    repo.storeGroupers(ctx.db, supplierId, store.internal_code),
  ]);
  if (!priceList?.enabled) return page([], 0, filter.page, filter.take);
  const { rows, total } = await repo.catalogPage(ctx.db, supplierId, priceList.id, groupers.stockGrouperId, filter);
  const ids = rows.map((r) => r.id);
  const [prices, rules, input] = await Promise.all([
    repo.pricesOf(ctx.db, supplierId, priceList.id, ids),
    groupers.stockGrouperId !== undefined ? repo.stockRulesOf(ctx.db, supplierId, groupers.stockGrouperId, ids) : Promise.resolve([]),
    pricingInputFor(ctx.db, store, [], ctx.today, ctx.currencyDecimals),
  ]);
  const codeOf = new Map(rows.map((r) => [r.id, r.internal_code]));
  const sizes = (id: number) => prices.filter((p) => p.product_id === id).sort((a, b) => a.units - b.units);
  const unavailable = unavailableFrom(
    rules.map((r) => ({ code: codeOf.get(r.product_id)!, units: r.units, available: r.available })),
    (code) => prices.filter((p) => codeOf.get(p.product_id) === code).map((p) => p.units),
  );
  const isUnavailable = (code: string, units: number) => unavailable.some((u) => u.productInternalCode === code && (u.units == null || u.units === units));
  const taking = promotionsTakingPart(input);
  const promotionsOf = (code: string) =>
    taking
      .filter((p) => (Array.isArray(p.products) ? p.products : [p.products]).some((x) => x.internalCode === code))
      .map((p) => ({ internalCode: p.internalCode, name: p.name ?? null, type: p.type }));
  const data = rows.map((r) => {
    const names = new Map((r.display_products ?? []).map((d) => [d.units, d.name]));
    return {
      internalCode: r.internal_code,
      name: r.name,
      description: r.description,
      brandInternalCode: r.brand_code,
      categoryInternalCode: r.category_code,
      image: r.image,
      images: r.images,
      sizes: sizes(r.id)
        .filter((p) => !isUnavailable(r.internal_code, p.units))
        .map((p) => ({ units: p.units, name: names.get(p.units) ?? null, price: Number(p.price) })),
      promotions: promotionsOf(r.internal_code),
    };
  });
  return page(data, total, filter.page, filter.take);
}

export async function storePromotions(ctx: StorefrontContext, personId: number, storeId: number) {
  const store = await requireStore(ctx.db, personId, storeId);
  const input = await pricingInputFor(ctx.db, store, [], ctx.today, ctx.currencyDecimals);
  return { data: promotionsTakingPart(input) };
}
