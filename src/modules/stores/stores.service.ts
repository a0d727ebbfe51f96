import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import { normaliseEmail } from '../people/people.service.ts';
import { page } from '../../lib/pagination.ts';
import type { CartLine } from '../pricing/pricing.types.ts';
import type { StoreAppContext } from '../store-app/store-app.context.ts';
import { storeContextOf } from '../store-app/store-app.pricing-context.ts';
import { previewCart } from '../store-app/store-app.service.ts';
import * as repo from './stores.repository.ts';

export interface UserInput {
  phone?: string;
  email?: string;
  name?: string;
}

type StoreRecord = NonNullable<Awaited<ReturnType<typeof repo.findStore>>>;

/** A store's zone code is answered only when it has one: a store without a zone answers as before. */
function storeView(store: StoreRecord, links: { priceListCode: string | null; stockGrouperCode: string | null; promotionGrouperCodes: string[] }, zoneCode?: string) {
  return {
    internalCode: store.internal_code,
    name: store.name,
    legalName: store.legal_name,
    legalId: store.legal_id,
    ownerName: store.owner_name,
    phone: store.phone,
    email: store.email,
    enabled: store.enabled,
    addresses: store.addresses,
    ...links,
    ...(zoneCode === undefined ? {} : { deliveryZoneCode: zoneCode }),
    settings: { dropSize: store.drop_size === null ? null : Number(store.drop_size) },
    createdAt: store.created_at.toISOString(),
    updatedAt: store.updated_at.toISOString(),
  };
}

export async function getStore(db: Kysely<DB>, supplierId: number, code: string) {
  const store = await repo.findStore(db, supplierId, code);
  if (!store) throw notFound('store', code);
  const [links, users, zones] = await Promise.all([
    repo.storeLinks(db, supplierId, code),
    repo.storeUsers(db, supplierId, store.id),
    repo.zoneCodes(db, supplierId, [store.delivery_zone_id]),
  ]);
  const { createdAt, updatedAt, ...view } = storeView(store, links, zones.get(store.delivery_zone_id!));
  return { ...view, users, createdAt, updatedAt };
}

/** A page of stores by code, each as GET /store/{code} answers it without its users. */
export async function listStores(db: Kysely<DB>, supplierId: number, query: { search?: string; enabled?: boolean; take: number; page: number }) {
  const { rows, total } = await repo.listStores(db, supplierId, query);
  const [linksOf, zones] = await Promise.all([
    repo.storeLinksOf(db, supplierId, rows.map((r) => r.internal_code)),
    repo.zoneCodes(db, supplierId, rows.map((r) => r.delivery_zone_id)),
  ]);
  return page(rows.map((r) => storeView(r, linksOf(r.internal_code), zones.get(r.delivery_zone_id!))), total, query.page, query.take);
}

/**
 * The cart priced exactly as the store app previews it for this store (the same function,
 * the store app's previewCart: pricing context + engine, the minimum counting the store's
 * other orders for the delivery date), for a supplier who wants to see what a store sees.
 * Changes nothing.
 */
export async function priceCartAsStore(ctx: StoreAppContext, supplierId: number, code: string, body: { lines: CartLine[]; deliveryDate?: string }, now: Date) {
  const store = await repo.storeForPricing(ctx.db, supplierId, code);
  if (!store) throw notFound('store', code);
  return previewCart(ctx, await storeContextOf(ctx.db, store), body, now);
}

function requireContact(users: UserInput[]) {
  const missing = users.map((u, i) => ({ u, i })).filter(({ u }) => !u.phone && !u.email);
  if (missing.length > 0) {
    throw validationError(
      missing.map(({ i }) => ({ pointer: `/users/${i}`, code: 'REQUIRED' as const, message: 'give a phone, an email or both' })),
      'every user needs a phone or an email',
    );
  }
}

async function requireStore(db: Kysely<DB>, supplierId: number, code: string) {
  const store = await repo.findStore(db, supplierId, code);
  if (!store) throw notFound('store', code);
  return store;
}

/**
 * Adds store users: a membership names the phone and/or email the supplier gave, and
 * nothing else. No person is looked up, created or changed here: who may sign in to this
 * store follows from these identifiers alone (../store-app/README.md).
 */
export async function addUsers(db: Kysely<DB>, supplierId: number, code: string, users: UserInput[]) {
  requireContact(users);
  const store = await requireStore(db, supplierId, code);
  await inTransaction(db, async (trx) => {
    await repo.lockStore(trx, store.id);
    for (const user of users) {
      const m = { phone: user.phone ?? null, email: normaliseEmail(user.email) ?? null, name: user.name ?? null };
      const found = await repo.findMembership(trx, store.id, m.phone, m.email);
      if (found) await repo.updateMembership(trx, found.id, m);
      else await repo.insertMembership(trx, supplierId, store.id, m);
    }
  });
  return { users: await repo.storeUsers(db, supplierId, store.id) };
}

export async function removeUsers(db: Kysely<DB>, supplierId: number, code: string, users: UserInput[]) {
  requireContact(users);
  const store = await requireStore(db, supplierId, code);
  await inTransaction(db, async (trx) =>
    repo.removeMemberships(trx, supplierId, store.id, {
      phones: users.flatMap((u) => (u.phone ? [u.phone] : [])),
      emails: users.flatMap((u) => (u.email ? [normaliseEmail(u.email)!] : [])),
    }),
  );
  return { users: await repo.storeUsers(db, supplierId, store.id) };
}
