// Promotions: the four PUT endpoints, status, GET, the list, and the set-based write the
// batch shares with the PUTs (writePromotions), so a promotion is checked and stored the
// same way whichever door it came in by.
import type { Kysely, Transaction } from 'kysely';
import type { Static } from 'typebox';
import type { DB, PromotionTierKind, PromotionType } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import { notFound } from '../../lib/errors.ts';
import { decimalToNumber } from '../../lib/numbers.ts';
import { page } from '../../lib/pagination.ts';
import { productIds } from '../catalog/catalog.repository.ts';
import { grouperIds } from '../groupers/groupers.repository.ts';
import type { PricingPromotion, StoredPricingPromotion } from '../pricing/pricing.types.ts';
import { loadImageViews, registerImageUrls, type ImageView } from '../images/images.service.ts';
import * as repo from './promotions.repository.ts';
import type { Promotion } from './promotions.schemas.ts';
import {
  fieldProblems,
  productCodesOf,
  productEntries,
  referenceProblems,
  rejection,
  tierKindOf,
  type PromotionBody,
  type RuleProblem,
} from './promotions.rules.ts';

const unique = (values: string[]) => [...new Set(values)];

/**
 * Checks the bodies (one type) and writes the valid ones: one lookup of products, one of
 * groupers, one upsert, one delete and one insert for products and for groupers, however
 * many bodies. Answers each body's problems, in order (none: written). When a code comes
 * twice, the later body wins, as if they had been written one after the other; a later
 * body without promotionGrouperCodes keeps the set the earlier one gave.
 */
export async function writePromotions(trx: Transaction<DB>, supplierId: number, type: PromotionType, bodies: PromotionBody[]): Promise<RuleProblem[][]> {
  const products = await productIds(trx, supplierId, unique(bodies.flatMap((b) => productCodesOf(type, b))));
  const groupers = await grouperIds(trx, supplierId, 'promotion', unique(bodies.flatMap((b) => b.promotionGrouperCodes ?? [])));
  const problems = bodies.map((b) => [...fieldProblems(type, b), ...referenceProblems(type, b, products, groupers)]);

  const latest = new Map<string, { body: PromotionBody; grouperCodes: string[] | undefined }>();
  bodies.forEach((body, n) => {
    if (problems[n]!.length > 0) return;
    const earlier = latest.get(body.internalCode);
    latest.delete(body.internalCode);
    latest.set(body.internalCode, { body, grouperCodes: body.promotionGrouperCodes ?? earlier?.grouperCodes });
  });
  const valid = [...latest.values()];

  const ids = await repo.upsertPromotions(
    trx,
    supplierId,
    valid.map(({ body }) => {
      const kind = tierKindOf(type, body)!;
      return {
        code: body.internalCode,
        type,
        name: body.name,
        title: body.title ?? null,
        description: body.description ?? null,
        image: body.image ?? null,
        enabled: body.enabled,
        start_date: body.start,
        end_date: body.end,
        tier_kind: kind,
        tiers: kind.startsWith('bonus') ? { units: 1, ...(body[kind] as object) } : body[kind],
      };
    }),
  );
  await registerImageUrls(trx, supplierId, valid.flatMap(({ body }) => (body.image ? [body.image] : [])));
  const idOf = (code: string) => ids.get(code)!;
  await repo.replaceProducts(
    trx,
    supplierId,
    valid.map(({ body }) => idOf(body.internalCode)),
    valid.flatMap(({ body }) => productEntries(body).map((p, n) => ({ pr: idOf(body.internalCode), p: products.get(p.internalCode)!, b: p.boxRatio, n }))),
  );
  const withGroupers = valid.filter((v) => v.grouperCodes !== undefined);
  await repo.replaceGroupers(
    trx,
    supplierId,
    withGroupers.map(({ body }) => idOf(body.internalCode)),
    withGroupers.flatMap(({ body, grouperCodes }) => grouperCodes!.map((c) => ({ pr: idOf(body.internalCode), g: groupers.get(c)! }))),
  );
  return problems;
}

/** PUT /promotion/{discount|bonus}/...: creates or replaces the promotion with that code (changing its type if need be). */
export async function upsertPromotion(db: Kysely<DB>, supplierId: number, type: PromotionType, body: PromotionBody, ctx: ViewContext) {
  await inTransaction(db, async (trx) => {
    const [problems] = await writePromotions(trx, supplierId, type, [body]);
    if (problems!.length > 0) throw rejection(problems!);
  });
  return getPromotion(db, supplierId, body.internalCode, ctx);
}

/** Removes promotions by code; answers the codes that existed (removing an absent one is harmless). */
export const removePromotions = (trx: Transaction<DB>, supplierId: number, codes: string[]) => repo.deletePromotions(trx, supplierId, codes);

/** The one tier field a promotion has, as stored (the shape its schema let through). */
type TierFields = Pick<Static<typeof Promotion>, PromotionTierKind>;

/** Each promotion with its products and grouper codes (two queries for any number of them). */
async function withLinks(db: Kysely<DB>, supplierId: number, rows: repo.StoredPromotion[]) {
  const ids = rows.map((r) => r.id);
  const [products, groupers] = await Promise.all([repo.productsOf(db, supplierId, ids), repo.grouperCodesOf(db, supplierId, ids)]);
  const productsBy = groupBy(products, (p) => p.promotion_id);
  const groupersBy = groupBy(groupers, (g) => g.promotion_id);
  return rows.map((row) => linked(row, productsBy.get(row.id) ?? [], groupersBy.get(row.id) ?? []));
}

/** A promotion row with its links as stored, in the shape views and pricing take. */
function linked(row: repo.StoredPromotion, products: { internal_code: string; box_ratio: string | number }[], groupers: { internal_code: string }[]) {
  return {
    row,
    products: products.map((p) => ({ internalCode: p.internal_code, boxRatio: decimalToNumber(p.box_ratio) })),
    grouperCodes: groupers.map((g) => g.internal_code),
  };
}

function groupBy<T>(rows: T[], key: (row: T) => number) {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

type Linked = ReturnType<typeof linked>;

/** What a promotion's GET depends on besides the row: today (for `active`) and the base of image URLs. */
export interface ViewContext {
  today: string;
  publicUrl: string;
  /**
   * Where a promotion as stored may be kept between requests (the process's read cache,
   * src/modules/store-app/store-app.cache.ts: forgotten when any promotion table changes, in
   * this process before a write is answered, in the others by NOTIFY). Its image state is
   * read per request: the image worker makes images ready on its own time.
   */
  cache?: { get<T>(key: string, compute: () => Promise<T>): Promise<T> };
}

async function views(db: Kysely<DB>, supplierId: number, linked: Linked[], ctx: ViewContext) {
  const image = await loadImageViews(db, supplierId, linked.map((l) => l.row.image), ctx.publicUrl);
  return linked.map((l) => view(l, ctx.today, image(l.row.image)));
}

/** In force: enabled, and today is within start..end, both days included (docs/conventions.md). */
const inForce = (row: repo.StoredPromotion, today: string) => row.enabled && row.start_date <= today && today <= row.end_date;

function view({ row, products, grouperCodes }: Linked, today: string, image: ImageView) {
  return {
    internalCode: row.internal_code,
    name: row.name,
    title: row.title,
    description: row.description,
    image: row.image,
    ...image,
    enabled: row.enabled,
    start: row.start_date,
    end: row.end_date,
    type: row.type,
    products,
    ...({ [row.tier_kind]: row.tiers } as TierFields),
    promotionGrouperCodes: grouperCodes,
    active: inForce(row, today),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function getPromotion(db: Kysely<DB>, supplierId: number, code: string, ctx: ViewContext) {
  const read = () => repo.findPromotionWithLinks(db, supplierId, code);
  const found = await (ctx.cache ? ctx.cache.get(`promotion:${supplierId}:${code}`, read) : read());
  if (!found) throw notFound('promotion', code);
  const { products, groupers, ...row } = found;
  const [shown] = await views(db, supplierId, [linked(row, products, groupers)], ctx);
  return shown!;
}

export async function setPromotionStatus(db: Kysely<DB>, supplierId: number, code: string, enabled: boolean, ctx: ViewContext) {
  if (!(await repo.setEnabled(db, supplierId, code, enabled))) throw notFound('promotion', code);
  return getPromotion(db, supplierId, code, ctx);
}

export async function listPromotions(
  db: Kysely<DB>,
  supplierId: number,
  query: { search?: string; type?: PromotionType; enabled?: boolean; from?: string; to?: string; take: number; page: number },
  ctx: ViewContext,
) {
  if (query.from !== undefined && query.to !== undefined && query.to < query.from) {
    throw rejection([{ code: 'INVALID_DATE_RANGE', message: `to (${query.to}) must not be earlier than from (${query.from})`, pointers: ['/query/to'] }]);
  }
  const { rows, total } = await repo.listPromotions(db, supplierId, query);
  return page(
    await views(db, supplierId, await withLinks(db, supplierId, rows), ctx),
    total,
    query.page,
    query.take,
  );
}

/**
 * The supplier's promotions in the pricing engine's input shape (pricing.types.ts). With
 * `today`, only those in force that day (the engine would skip the others anyway).
 */
export async function promotionsForPricing(db: Kysely<DB>, supplierId: number, options: { today?: string } = {}): Promise<StoredPricingPromotion[]> {
  const rows = await repo.allPromotions(db, supplierId, options.today);
  return (await withLinks(db, supplierId, rows)).map(({ row, products, grouperCodes }) => ({
    type: row.type,
    internalCode: row.internal_code,
    name: row.name,
    enabled: row.enabled,
    start: row.start_date,
    end: row.end_date,
    promotionGrouperCodes: grouperCodes,
    products,
    ...({ [row.tier_kind]: row.tiers } as Pick<StoredPricingPromotion, 'discountTiersData' | 'discountTiersDataCash' | 'bonusTierData' | 'bonusTierDataCash'>),
  }));
}
