// The rules of a recommendation between its fields and with what it names (README.md):
// pure, so a PUT and a batch item break them the same way, with the same codes and
// pointers.
import { AppError, type FieldError } from '../../lib/errors.ts';
import { failed, type ItemOutcome } from '../batch/batch.kinds.ts';
import type { RecommendationBody } from './recommendations.schemas.ts';

export type Problem = FieldError & { code: 'INVALID_DATE_RANGE' | 'DUPLICATE_PRODUCT' | 'UNKNOWN_PRODUCT' | 'UNKNOWN_GROUPER' };

/** Problems that need nothing but the body: dates in order, each product and size once. */
export function bodyProblems(body: RecommendationBody): Problem[] {
  const problems: Problem[] = [];
  if (body.end < body.start) problems.push({ pointer: '/end', code: 'INVALID_DATE_RANGE', message: `end ${body.end} is before start ${body.start}` });
  const seen = new Set<string>();
  body.products.forEach((p, i) => {
    const key = `${p.productInternalCode}\u001f${p.units}`;
    if (seen.has(key)) problems.push({ pointer: `/products/${i}/productInternalCode`, code: 'DUPLICATE_PRODUCT', message: `product ${p.productInternalCode} in packages of ${p.units} is listed more than once` });
    seen.add(key);
  });
  return problems;
}

/** Every product and promotion grouper named must be the supplier's (a store may come later). */
export function referenceProblems(body: RecommendationBody, products: ReadonlySet<string>, groupers: ReadonlySet<string>): Problem[] {
  const problems: Problem[] = [];
  body.products.forEach((p, i) => {
    if (!products.has(p.productInternalCode)) problems.push({ pointer: `/products/${i}/productInternalCode`, code: 'UNKNOWN_PRODUCT', message: `product ${p.productInternalCode} does not exist` });
  });
  (body.promotionGrouperCodes ?? []).forEach((code, i) => {
    if (!groupers.has(code)) problems.push({ pointer: `/promotionGrouperCodes/${i}`, code: 'UNKNOWN_GROUPER', message: `promotion grouper ${code} does not exist` });
  });
  return problems;
}

/** The 400 of a PUT: one problem's own code at the top level, several VALIDATION_FAILED (docs/conventions.md). */
export function rejection(problems: Problem[]): AppError {
  const only = problems.length === 1 ? problems[0]! : undefined;
  return new AppError(only ? only.code : 'VALIDATION_FAILED', only ? only.message : `${problems.length} problems found in the request`, { errors: problems, status: 400 });
}

/** The same problems as a failed batch item: the code the PUT would answer, and where. */
export function failedItem(problems: Problem[]): ItemOutcome {
  const describe = (p: Problem) => `${p.message} (${p.pointer})`;
  if (problems.length === 1) return failed(problems[0]!.code, describe(problems[0]!));
  return failed('VALIDATION_FAILED', problems.map((p) => `${p.code}: ${describe(p)}`).join('; '));
}
