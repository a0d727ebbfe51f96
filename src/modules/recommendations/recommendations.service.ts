// Recommendations (README.md): the supplier publishes them (PUT, batch), reads them, and a
// store reads those shown to it today with the platform's cadence suggestion. Services
// without Fastify: the batch worker runs writeRecommendationRun, the routes the rest.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import { notFound } from '../../lib/errors.ts';
import { grouperIds } from '../groupers/groupers.repository.ts';
import { existingStoreCodes } from '../stores/stores.repository.ts';
import { lastPerKey } from '../batch/batch.kinds.ts';
import { priceLines, storeHistory } from '../order-guide/order-guide.service.ts';
import { cadenceOf, toMultiple } from '../order-guide/order-guide.rules.ts';
import { caseMultiples } from '../order-guide/order-guide.repository.ts';
import { todayOf, type StoreAppContext } from '../store-app/store-app.context.ts';
import type { StoreContext } from '../store-app/store-app.pricing-context.ts';
import { productSource } from '../store-app/store-app.service.ts';
import * as repo from './recommendations.repository.ts';
import { bodyProblems, referenceProblems, rejection, type Problem } from './recommendations.rules.ts';
import type { Recommendation, RecommendationBody, RecommendationInput } from './recommendations.schemas.ts';
import type { Static } from 'typebox';
import type { StoreRecommendation } from './recommendations.schemas.ts';

const unique = <T>(values: T[]) => [...new Set(values)];

export interface RunResult {
  problems: Problem[][];
  /** Per item: the store codes it names that no store has yet (kept; README). */
  unknownStores: string[][];
}

/**
 * Checks and writes a run of recommendations in order, set-based: one lookup per kind of
 * reference, one statement for every valid item (the last of a code wins, as if written
 * one after the other). An item breaking a rule is left out and answered its problems.
 */
export async function writeRecommendationRun(trx: Transaction<DB>, supplierId: number, items: RecommendationInput[]): Promise<RunResult> {
  const [products, groupers, stores] = await Promise.all([
    repo.existingProductCodes(trx, supplierId, unique(items.flatMap((i) => i.products.map((p) => p.productInternalCode)))),
    grouperIds(trx, supplierId, 'promotion', unique(items.flatMap((i) => i.promotionGrouperCodes ?? []))),
    existingStoreCodes(trx, supplierId, unique(items.flatMap((i) => i.storeInternalCodes ?? []))),
  ]);
  const grouperCodes = new Set(groupers.keys());
  const problems = items.map((i) => [...bodyProblems(i), ...referenceProblems(i, products, grouperCodes)]);
  const valid = items.filter((_, n) => problems[n]!.length === 0);
  await repo.writeRecommendations(
    trx,
    supplierId,
    lastPerKey(valid, (i) => i.internalCode).map((i) => ({
      code: i.internalCode,
      name: i.name,
      reason: i.reason,
      start: i.start,
      end: i.end,
      products: i.products,
      stores: unique(i.storeInternalCodes ?? []),
      groupers: unique(i.promotionGrouperCodes ?? []),
    })),
  );
  return { problems, unknownStores: items.map((i) => unique(i.storeInternalCodes ?? []).filter((s) => !stores.has(s))) };
}

function view(row: repo.RecommendationRow, today: string): Recommendation {
  return {
    internalCode: row.internal_code,
    name: row.name,
    reason: row.reason,
    start: row.start_date,
    end: row.end_date,
    storeInternalCodes: row.stores,
    promotionGrouperCodes: row.groupers,
    products: row.products,
    active: row.start_date <= today && today <= row.end_date,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export async function getRecommendation(db: Kysely<DB>, supplierId: number, code: string, today: string): Promise<Recommendation> {
  const row = await repo.recommendationByCode(db, supplierId, code);
  if (!row) throw notFound('recommendation', code);
  return view(row, today);
}

/** PUT /recommendation/{internalCode}: creates or replaces it whole; a broken rule is a 400 with its pointers. */
export async function putRecommendation(db: Kysely<DB>, supplierId: number, code: string, body: RecommendationBody, today: string): Promise<Recommendation> {
  return inTransaction(db, async (trx) => {
    const { problems } = await writeRecommendationRun(trx, supplierId, [{ internalCode: code, ...body }]);
    if (problems[0]!.length > 0) throw rejection(problems[0]!);
    return view((await repo.recommendationByCode(trx, supplierId, code))!, today);
  });
}

export async function listRecommendations(
  db: Kysely<DB>,
  supplierId: number,
  query: { search?: string; reason?: Recommendation['reason']; active?: boolean; take: number; page: number },
  today: string,
) {
  const { rows, total } = await repo.listRecommendations(db, supplierId, { ...query, today });
  return { data: rows.map((r) => view(r, today)), page: query.page, take: query.take, total, totalPages: Math.ceil(total / query.take) };
}

/**
 * What the store app shows as "Sugerido para ti": the supplier's recommendations shown to
 * the store today (by its code, its enabled promotion groupers, or everyone), then the
 * platform's cadence suggestion when a product is due (README). Every product is priced
 * for the store today by the engine, with why it cannot be ordered.
 */
export async function storeRecommendations(ctx: StoreAppContext, store: StoreContext, at: Date, timezone: string): Promise<{ data: Static<typeof StoreRecommendation>[] }> {
  const enabled = new Set(store.supplierGroupers.filter((g) => g.enabled).map((g) => g.internalCode));
  const groupers = store.groupers.promotionGrouperCodes.filter((c) => enabled.has(c));
  // The supplier's today, not the process's: a test twin's clock may have been moved.
  const today = await todayOf(ctx, store.store.supplier_id);
  const [rows, history] = await Promise.all([
    repo.recommendationsForStore(ctx.db, store.store.supplier_id, store.store.internal_code, groupers, today),
    storeHistory(ctx, store, at, timezone),
  ]);
  const due = history.histories
    .filter((h) => !history.preferences.get(h.code)?.hidden)
    .flatMap((h) => {
      const cadence = cadenceOf(h.days, today);
      return cadence?.due ? [{ h, cadence }] : [];
    })
    // The most overdue first (days since ÷ N), then by code: a total, stable order.
    .sort((a, b) => b.cadence.daysSinceLast / b.cadence.everyDays - a.cadence.daysSinceLast / a.cadence.everyDays || (a.h.code < b.h.code ? -1 : 1));

  const multiples = await caseMultiples(ctx.db, store.store.supplier_id, due.map((d) => d.h.code));
  const lines = [
    ...rows.flatMap((r) => r.products.map((p) => ({ productInternalCode: p.productInternalCode, units: p.units, quantity: p.quantity }))),
    ...due.map(({ h }) => ({ productInternalCode: h.code, units: h.units, quantity: toMultiple(h.usualQuantity, multiples.get(h.code), h.units) })),
  ];
  const codes = unique(lines.map((l) => l.productInternalCode));
  const [priced, data] = await Promise.all([priceLines(ctx, store, lines), codes.length ? productSource(ctx, store)(codes) : Promise.resolve({ products: [] })]);
  const names = new Map(data.products.map((p) => [p.internal_code, p.name]));
  const product = (l: { productInternalCode: string; units: number; quantity: number }) => {
    const price = priced.get(`${l.productInternalCode}/${l.units}`) ?? { unitPrice: null, error: 'UNKNOWN_PRODUCT' as const };
    return { ...l, name: names.get(l.productInternalCode) ?? null, unitPrice: price.unitPrice, available: price.error === null, unavailableReason: price.error };
  };
  const out: Static<typeof StoreRecommendation>[] = rows.map((r) => ({
    source: 'SUPPLIER',
    internalCode: r.internal_code,
    name: r.name,
    reason: r.reason,
    start: r.start_date,
    end: r.end_date,
    products: r.products.map(product),
  }));
  if (due.length > 0) {
    out.push({
      source: 'PLATFORM',
      internalCode: null,
      name: null,
      reason: 'CADENCE',
      start: null,
      end: null,
      products: due.map(({ h, cadence }) => ({
        ...product({ productInternalCode: h.code, units: h.units, quantity: toMultiple(h.usualQuantity, multiples.get(h.code), h.units) }),
        cadence: { everyDays: cadence.everyDays, daysSinceLast: cadence.daysSinceLast, lastOrderedAt: h.lastOrderedAt },
      })),
    });
  }
  return { data: out };
}
