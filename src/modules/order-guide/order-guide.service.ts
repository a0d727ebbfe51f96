// "Lo de siempre" (README.md): the order guide of a store, its preferences, what to order
// to reach the par, and repeating a past order. Every function takes a store the
// membership guard (../store-app/store-app.membership.ts) already found for the person.
// Prices and availability come from the store side's one pricing path (priceStoreCart),
// for the guide's products only.
import type { Static } from 'typebox';
import { notFound, validationError } from '../../lib/errors.ts';
import { orderById } from '../orders/orders.service.ts';
import { takingPartFor } from '../pricing/pricing.engine.ts';
import type { CartLine, LineErrorCode } from '../pricing/pricing.types.ts';
import { todayOf, type StoreAppContext } from '../store-app/store-app.context.ts';
import type { StoreContext } from '../store-app/store-app.pricing-context.ts';
import { productsByCode } from '../store-app/store-app.repository.ts';
import { inForce, priceStoreCart, productSource } from '../store-app/store-app.service.ts';
import * as repo from './order-guide.repository.ts';
import { compareGuide, fillToPar, productHistories, toMultiple, type GuideSort, type ProductHistory } from './order-guide.rules.ts';
import type { Fill, FillBody, GuideItem, OrderGuide, Preference, PreferenceBody, Repeat } from './order-guide.schemas.ts';

const DAY_MS = 86_400_000;

/** What the guide and the cadence suggestions read of a store's window. */
export interface StoreHistory {
  windowDays: number;
  histories: ProductHistory[];
  preferences: Map<string, repo.Preference>;
}

/** The store's history in its supplier's window, ending `at`, and its preferences. */
export async function storeHistory(ctx: StoreAppContext, { store }: StoreContext, at: Date, timezone: string): Promise<StoreHistory> {
  const windowDays = await repo.guideDays(ctx.db, store.supplier_id);
  const [lines, preferences] = await Promise.all([
    repo.historyLines(ctx.db, store.id, new Date(at.getTime() - windowDays * DAY_MS), at, timezone),
    repo.preferencesOf(ctx.db, store.id),
  ]);
  return { windowDays, histories: productHistories(lines), preferences: new Map(preferences.map((p) => [p.code, p])) };
}

interface Priced {
  unitPrice: number | null;
  error: LineErrorCode | null;
}

/**
 * Today's price of each line for this store by the pricing engine, or why it cannot be
 * ordered, by "code/units". One engine run over the lines: a line's unit price does not
 * depend on the others (promotions change discounts, never the price).
 */
export async function priceLines(ctx: StoreAppContext, store: StoreContext, lines: CartLine[]): Promise<Map<string, Priced>> {
  const out = new Map<string, Priced>();
  if (lines.length === 0) return out;
  const result = await priceStoreCart(ctx, store, lines);
  for (const line of result.lines) {
    out.set(`${line.productInternalCode}/${line.units}`, 'error' in line ? { unitPrice: null, error: line.error } : { unitPrice: line.unitPrice, error: null });
  }
  return out;
}

/** The promotions taking part for the store today, by product code, as badges. */
async function badges(ctx: StoreAppContext, store: StoreContext) {
  const promotions = await inForce(ctx, store.store.supplier_id);
  const takesPart = takingPartFor({ today: await todayOf(ctx, store.store.supplier_id), groupers: store.supplierGroupers, store: store.pricingStore });
  return (code: string) => (promotions.byProduct.get(code) ?? []).filter(takesPart).map((p) => promotions.shown.get(p)!);
}

/** Guide items for products with or without history, priced today; hidden ones only when asked. */
export async function guideItems(ctx: StoreAppContext, store: StoreContext, history: StoreHistory, includeHidden: boolean): Promise<GuideItem[]> {
  const byCode = new Map(history.histories.map((h) => [h.code, h]));
  const pinned = [...history.preferences.values()].filter((p) => p.pinned).map((p) => p.code);
  const codes = [...new Set([...byCode.keys(), ...pinned])].filter((code) => includeHidden || !history.preferences.get(code)?.hidden);
  if (codes.length === 0) return [];
  const [data, multiples, badgesOf] = await Promise.all([productSource(ctx, store)(codes), repo.caseMultiples(ctx.db, store.store.supplier_id, codes), badges(ctx, store)]);
  const names = new Map(data.products.map((p) => [p.internal_code, p.name]));
  const smallestSize = new Map<string, number>();
  for (const p of data.prices) smallestSize.set(p.internal_code, Math.min(p.units, smallestSize.get(p.internal_code) ?? Infinity));
  const rows = codes.map((code) => {
    const h = byCode.get(code);
    const multiple = multiples.get(code) ?? 1;
    const units = h?.units ?? smallestSize.get(code) ?? 1;
    return { code, h, multiple, units, usualQuantity: toMultiple(h?.usualQuantity ?? 1, multiple, units) };
  });
  const priced = await priceLines(ctx, store, rows.map((r) => ({ productInternalCode: r.code, units: r.units, quantity: r.usualQuantity })));
  return rows.map(({ code, h, multiple, units, usualQuantity }) => {
    const price = priced.get(`${code}/${units}`) ?? { unitPrice: null, error: 'UNKNOWN_PRODUCT' as const };
    const preference = history.preferences.get(code);
    return {
      productInternalCode: code,
      name: names.get(code) ?? code,
      units,
      timesOrdered: h?.timesOrdered ?? 0,
      lastOrderedAt: h?.lastOrderedAt ?? null,
      lastQuantity: h?.lastQuantity ?? null,
      usualQuantity,
      multiple,
      unitPrice: price.unitPrice,
      available: price.error === null,
      unavailableReason: price.error,
      promotions: badgesOf(code),
      pinned: preference?.pinned ?? false,
      hidden: preference?.hidden ?? false,
      par: preference?.par ?? null,
    };
  });
}

export async function orderGuide(
  ctx: StoreAppContext,
  store: StoreContext,
  query: { sort?: GuideSort; includeHidden?: boolean },
  at: Date,
  timezone: string,
): Promise<Static<typeof OrderGuide>> {
  const sort = query.sort ?? 'frequency';
  const history = await storeHistory(ctx, store, at, timezone);
  const data = await guideItems(ctx, store, history, query.includeHidden ?? false);
  return { windowDays: history.windowDays, sort, data: data.sort(compareGuide(sort)) };
}

/** Pins, hides or sets the par of a product of the supplier for the store; an empty body changes nothing. */
export async function setPreference(ctx: StoreAppContext, { store }: StoreContext, code: string, body: Static<typeof PreferenceBody>): Promise<Static<typeof Preference>> {
  const [product] = await productsByCode(ctx.db, store.supplier_id, [code]);
  if (!product) throw notFound('product', code, '/params/productInternalCode');
  const view = (p: repo.Preference | undefined) => ({ productInternalCode: code, pinned: p?.pinned ?? false, hidden: p?.hidden ?? false, par: p?.par ?? null });
  if (body.pinned === undefined && body.hidden === undefined && body.par === undefined) {
    return view((await repo.preferencesOf(ctx.db, store.id)).find((p) => p.code === code));
  }
  return view(await repo.upsertPreference(ctx.db, { supplierId: store.supplier_id, storeId: store.id, code }, body));
}

/** What to order to bring each counted shelf back to its par (README, "Par"). */
export async function fill(ctx: StoreAppContext, store: StoreContext, body: Static<typeof FillBody>, at: Date, timezone: string): Promise<Static<typeof Fill>> {
  const seen = new Map<string, number>();
  const duplicates = body.counts.flatMap((c, i) => {
    const first = seen.get(c.productInternalCode);
    seen.set(c.productInternalCode, first ?? i);
    return first === undefined ? [] : [{ pointer: `/counts/${i}/productInternalCode`, code: 'DUPLICATE_PRODUCT' as const, message: `product ${c.productInternalCode} is counted more than once` }];
  });
  if (duplicates.length > 0) throw validationError(duplicates);
  const history = await storeHistory(ctx, store, at, timezone);
  const items = new Map((await guideItems(ctx, store, history, true)).map((i) => [i.productInternalCode, i]));
  const out: Static<typeof Fill> = { lines: [], skipped: [] };
  for (const { productInternalCode, onHand } of body.counts) {
    const item = items.get(productInternalCode);
    if (!item) out.skipped.push({ productInternalCode, reason: 'NOT_IN_GUIDE' });
    else if (item.par === null) out.skipped.push({ productInternalCode, reason: 'NO_PAR' });
    else out.lines.push({ productInternalCode, units: item.units, quantity: fillToPar(item.par, onHand, item.multiple, item.units), par: item.par, onHand, available: item.available });
  }
  return out;
}

/**
 * A past order of the store as it would be ordered today (places nothing): its lines
 * priced by the engine, those that cannot be ordered with why, and those whose price
 * changed. Another store's order answers 404, exactly as one that does not exist.
 */
export async function repeatOrder(ctx: StoreAppContext, store: StoreContext, orderId: number): Promise<Static<typeof Repeat>> {
  const found = await orderById(ctx.db, orderId);
  if (!found || found.storeId !== store.store.id) throw notFound('order', String(orderId), '/params/orderId');
  // One line per product and size, as the engine merges them; the first line's price and name.
  const merged = new Map<string, { productInternalCode: string; name: string | null; units: number; quantity: number; previousUnitPrice: number }>();
  for (const line of found.view.products as { internalCode: string; name?: string | null; units: number; quantity: number; unitPrice: number }[]) {
    const key = `${line.internalCode}/${line.units}`;
    const earlier = merged.get(key);
    if (earlier) earlier.quantity += line.quantity;
    else merged.set(key, { productInternalCode: line.internalCode, name: line.name ?? null, units: line.units, quantity: line.quantity, previousUnitPrice: Number(line.unitPrice) });
  }
  const lines = [...merged.values()];
  const priced = await priceLines(ctx, store, lines.map(({ productInternalCode, units, quantity }) => ({ productInternalCode, units, quantity })));
  const out: Static<typeof Repeat> = { orderId, lines: [], unavailable: [], repriced: [] };
  for (const line of lines) {
    const price = priced.get(`${line.productInternalCode}/${line.units}`)!;
    if (price.error !== null || price.unitPrice === null) {
      out.unavailable.push({ ...line, reason: price.error ?? 'NOT_PRICED' });
      continue;
    }
    const priceChanged = price.unitPrice !== line.previousUnitPrice;
    out.lines.push({ ...line, unitPrice: price.unitPrice, priceChanged });
    if (priceChanged) out.repriced.push({ ...line, unitPrice: price.unitPrice });
  }
  return out;
}
