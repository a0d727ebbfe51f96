// Membership: who may act for a store in the store app. A person is a member of a store
// when one of its memberships (store_users) names the person's phone or email, each of
// which the person proved with a code. The one place this rule lives: every /app route
// with a store id goes through `requireMembership`, and every store-side query that
// reaches stores through a person (their stores, their notifications, their name) uses
// `namesPerson` / `isMember` (store-app.repository.ts, the rule in SQL). Any other
// store, order or ticket answers 404, exactly like one that does not exist.
//
// A supplier's seller (src/modules/sellers) is admitted by `requireBuyerAccess` only, to
// the stores its supplier lists for them, and only on the routes that read what a buyer
// reads or place an order: the routes that stay `requireMembership` (tickets, cancelling,
// the order guide's preferences, the store's settings, notifications) answer a seller 404
// as for any store that is not theirs.
import { notFound, type AppError } from '../../lib/errors.ts';
import { sellerOfPersonAt } from '../sellers/sellers.repository.ts';
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

/** The seller a person acts as for a store they reach as its supplier's seller. */
export interface ActingSeller {
  id: number;
  internalCode: string;
  name: string;
}

/** A store reached by `requireBuyerAccess`: `seller` is set when the person is not one of its users but its seller. */
export type BuyerContext = StoreContext & { seller?: ActingSeller };

/**
 * The guard of the routes a seller may use as a buyer would (reading the catalogue, the
 * cart, the store's orders; placing an order). A person who is one of the store's users
 * acts as that user, even if also its seller: the store's own access wins, and the order
 * is the store's (channel STORE_APP). Otherwise a seller of the store's supplier serving
 * the store acts as that seller. Anyone else: `missing`, as requireMembership.
 */
export async function requireBuyerAccess(ctx: StoreAppContext, personId: number, storeId: number, missing: () => AppError = () => storeNotFound(storeId)): Promise<BuyerContext> {
  const member = await ctx.cache.get(`store:${personId}:${storeId}`, async () => {
    const store = await memberStore(ctx.db, personId, storeId);
    if (!store) return undefined;
    return storeContextOf(ctx.db, store);
  });
  if (member) return member;
  const served = await ctx.cache.get(`seller:${personId}:${storeId}`, async () => {
    const seller = await sellerOfPersonAt(ctx.db, personId, storeId);
    if (!seller) return undefined;
    const store = await memberStore(ctx.db, personId, storeId, 'seller');
    if (!store) return undefined;
    return { context: await storeContextOf(ctx.db, store), seller: { id: seller.id, internalCode: seller.internal_code, name: seller.name } };
  });
  if (!served) throw missing();
  return { ...served.context, seller: served.seller };
}
