// The rules a promotion must meet beyond its schema (openapi.json; rules in this module's README): between
// fields (dates, exclusive tier fields, tiers) and references (products, gift, groupers).
// The PUT endpoints and the batch apply both run these, so a rule reads the same way
// in a 400 and in a failed batch item. Pure: references are resolved by the caller.
import type { Static } from 'typebox';
import type { PromotionTierKind, PromotionType } from '../../db/types.ts';
import { AppError, type ErrorCode, type FieldError } from '../../lib/errors.ts';
import { failed, type ItemOutcome } from '../batch/batch.kinds.ts';
import type { AnyPromotionBody } from './promotions.schemas.ts';

/** One problem; it may point at several fields (both of two exclusive fields). */
export interface RuleProblem {
  code: ErrorCode;
  message: string;
  pointers: string[];
}

/**
 * A promotion body of any type, as its schema let it through (promotions.schemas.ts). The
 * PUT routes hand each schema's static type to a function taking this, so the compiler
 * keeps the two in step.
 */
export type PromotionBody = Static<typeof AnyPromotionBody>;
type Tier = NonNullable<PromotionBody['discountTiersData']>[number];
type BonusTier = NonNullable<PromotionBody['bonusTierData']>;

/** The quantity and the amount tier field of each type: exactly one of the two is sent. */
export const TIER_FIELDS: Record<PromotionType, readonly [PromotionTierKind, PromotionTierKind]> = {
  DISCOUNT_SIMPLE: ['discountTiersData', 'discountTiersDataCash'],
  DISCOUNT_MULTIPLE: ['discountTiersData', 'discountTiersDataCash'],
  BONUS_INDIVIDUAL: ['bonusTierData', 'bonusTierDataCash'],
  BONUS_CROSSED: ['bonusTierData', 'bonusTierDataCash'],
};

const problem = (code: ErrorCode, message: string, ...pointers: string[]): RuleProblem => ({ code, message, pointers });

/** The tier field the body sends (the quantity one when both are, which is refused anyway). */
export function tierKindOf(type: PromotionType, body: PromotionBody): PromotionTierKind | undefined {
  return TIER_FIELDS[type].find((field) => body[field] !== undefined);
}

/** The products as a list, each with its pointer into the body as sent (an object or an array). */
export function productEntries(body: PromotionBody) {
  const list = Array.isArray(body.products) ? body.products : [body.products];
  return list.map((p, i) => ({
    internalCode: p.internalCode,
    boxRatio: p.boxRatio ?? 1,
    pointer: Array.isArray(body.products) ? `/products/${i}` : '/products',
  }));
}

/** The gift of a crossed bonus: the product named in its tier. */
export function giftOf(type: PromotionType, body: PromotionBody): { code: string; pointer: string } | undefined {
  if (type !== 'BONUS_CROSSED') return undefined;
  const kind = tierKindOf(type, body);
  const code = kind ? (body[kind] as BonusTier).productInternalCode : undefined;
  return code === undefined ? undefined : { code, pointer: `/${kind}/productInternalCode` };
}

const range = (t: Tier) => `${t.min}..${t.max ?? ''}`;

/**
 * Tiers: one benefit each, max ≥ min, no overlaps. A tier may leave out `max` anywhere:
 * it then runs up to the `min` of the next tier by `min` (exclusive), and the highest
 * tier without `max` has no upper bound (the same reading as the pricing engine's
 * `tierFor`). Two tiers with the same `min` always overlap.
 */
function tierProblems(field: string, tiers: Tier[]): RuleProblem[] {
  const problems: RuleProblem[] = [];
  tiers.forEach((t, i) => {
    const at = `/${field}/${i}`;
    if (t.discountPercentage !== undefined && t.discountAmount !== undefined) {
      problems.push(problem('MUTUALLY_EXCLUSIVE', 'a tier gives discountPercentage or discountAmount, never both', `${at}/discountPercentage`, `${at}/discountAmount`));
    } else if (t.discountPercentage === undefined && t.discountAmount === undefined) {
      problems.push(problem('REQUIRED', 'a tier gives discountPercentage or discountAmount', `${at}/discountPercentage`));
    }
    if (t.max !== undefined && t.max < t.min) problems.push(problem('OUT_OF_RANGE', `max (${t.max}) must be at least min (${t.min})`, `${at}/max`));
  });
  // In order of min (ties keep the order sent): each tier must start above the reach of
  // every earlier one. A tier without max reaches up to the next min, exclusive, so it
  // can only collide with a tier of the same min.
  const sorted = tiers.map((t, i) => ({ t, i })).sort((a, b) => a.t.min - b.t.min);
  let reach: { t: Tier; i: number; upTo: number; inclusive: boolean } | undefined;
  sorted.forEach(({ t, i }, n) => {
    if (reach && (t.min < reach.upTo || (t.min === reach.upTo && reach.inclusive))) {
      problems.push(problem('OVERLAPPING_TIERS', `tier ${range(t)} overlaps tier ${range(reach.t)} (/${field}/${reach.i})`, `/${field}/${i}`));
    }
    const next = sorted[n + 1]?.t.min;
    // Without max: up to the next min (a tier of the same min overlaps this one), or open.
    const own =
      t.max !== undefined ? { upTo: t.max, inclusive: true }
      : next === undefined ? { upTo: Infinity, inclusive: true }
      : next === t.min ? { upTo: t.min, inclusive: true }
      : { upTo: next, inclusive: false };
    if (!reach || own.upTo > reach.upTo || (own.upTo === reach.upTo && own.inclusive)) reach = { t, i, ...own };
  });
  return problems;
}

/** Every rule between fields of one body; none needs the database. */
export function fieldProblems(type: PromotionType, body: PromotionBody): RuleProblem[] {
  const problems: RuleProblem[] = [];
  if (body.end <= body.start) problems.push(problem('INVALID_DATE_RANGE', `end (${body.end}) must be later than start (${body.start})`, '/end'));

  const [quantity, amount] = TIER_FIELDS[type];
  if (body[quantity] !== undefined && body[amount] !== undefined) {
    problems.push(problem('MUTUALLY_EXCLUSIVE', `${quantity} and ${amount} cannot both be sent`, `/${quantity}`, `/${amount}`));
  } else if (body[quantity] === undefined && body[amount] === undefined) {
    problems.push(problem('REQUIRED', `send ${quantity} or ${amount}`, `/${quantity}`));
  }
  if (type === 'DISCOUNT_SIMPLE' || type === 'DISCOUNT_MULTIPLE') {
    for (const field of [quantity, amount] as const) {
      const tiers = body[field] as Tier[] | undefined;
      if (tiers) problems.push(...tierProblems(field, tiers));
    }
  }

  const seen = new Set<string>();
  for (const p of productEntries(body)) {
    if (seen.has(p.internalCode)) problems.push(problem('DUPLICATE_PRODUCT', `product ${p.internalCode} is listed more than once`, `${p.pointer}/internalCode`));
    seen.add(p.internalCode);
  }
  return problems;
}

/** Product codes the body names (its products and gift), to resolve in one lookup per chunk. */
export const productCodesOf = (type: PromotionType, body: PromotionBody) => [
  ...productEntries(body).map((p) => p.internalCode),
  ...(giftOf(type, body) ? [giftOf(type, body)!.code] : []),
];

/** Every product, gift and grouper named must exist for the supplier. */
export function referenceProblems(
  type: PromotionType,
  body: PromotionBody,
  products: ReadonlyMap<string, number>,
  groupers: ReadonlyMap<string, number>,
): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const unknownProduct = (code: string, pointer: string) => problem('UNKNOWN_PRODUCT', `product ${code} does not exist`, pointer);
  for (const p of productEntries(body)) if (!products.has(p.internalCode)) problems.push(unknownProduct(p.internalCode, `${p.pointer}/internalCode`));
  const gift = giftOf(type, body);
  if (gift && !products.has(gift.code)) problems.push(unknownProduct(gift.code, gift.pointer));
  (body.promotionGrouperCodes ?? []).forEach((code, i) => {
    if (!groupers.has(code)) problems.push(problem('UNKNOWN_GROUPER', `promotion grouper ${code} does not exist`, `/promotionGrouperCodes/${i}`));
  });
  return problems;
}

const fieldErrors = (problems: RuleProblem[]): FieldError[] =>
  problems.flatMap((p) => p.pointers.map((pointer) => ({ pointer, code: p.code, message: p.message })));

/**
 * The 400 of a PUT. One problem carries its own code at the top level (a problem may
 * point at two fields, as MUTUALLY_EXCLUSIVE does), several carry VALIDATION_FAILED
 * (docs/conventions.md), as the schema's problems do.
 */
export function rejection(problems: RuleProblem[]): AppError {
  const only = problems.length === 1 ? problems[0]! : undefined;
  return new AppError(only ? only.code : 'VALIDATION_FAILED', only ? only.message : `${problems.length} problems found in the request`, {
    errors: fieldErrors(problems),
    status: 400,
  });
}

/** The same problems as a failed batch item: the code the PUT would answer, and where. */
export function failedItem(problems: RuleProblem[]): ItemOutcome {
  const describe = (p: RuleProblem) => `${p.message} (${p.pointers.join(', ')})`;
  if (problems.length === 1) return failed(problems[0]!.code, describe(problems[0]!));
  return failed('VALIDATION_FAILED', problems.map((p) => `${p.code}: ${describe(p)}`).join('; '));
}
