// Membership: who may act for a store in the store app. A person is a member of a store
// when one of its memberships (store_users) names the person's phone or email, each of
// which the person proved with a code. The one place this rule lives: every /app route
// with a store id goes through `requireMembership`, and every store-side query that
// reaches stores through a person (their stores, their notifications, their name) uses
// `namesPerson` / `isMember` (store-app.repository.ts, the rule in SQL). Any other
// store, order or ticket answers 404, exactly like one that does not exist.
import { notFound, type AppError } from '../../lib/errors.ts';
import type { StoreAppContext } from './store-app.context.ts';
import { storeContextOf, type StoreContext } from './store-app.pricing-context.ts';
import { memberStore } from './store-app.repository.ts';

export const storeNotFound = (storeId: number) => notFound('store', String(storeId), '/params/storeId');

/**
 * The membership guard: the store `storeId` with its price list and groupers when the
 * person is one of its members (read once per change, store cache), else `missing`
 * (a 404 for the store; an order's or ticket's own 404 when reached through one).
 */
export async function requireMembership(ctx: StoreAppContext, personId: number, storeId: number, missing: () => AppError = () => storeNotFound(storeId)): Promise<StoreContext> {
  const found = await ctx.cache.get(`store:${personId}:${storeId}`, async () => {
    const store = await memberStore(ctx.db, personId, storeId);
    if (!store) return undefined;
    return storeContextOf(ctx.db, store);
  });
  if (!found) throw missing();
  return found;
}
