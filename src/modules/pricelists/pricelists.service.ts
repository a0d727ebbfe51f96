import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { fieldError, notFound } from '../../lib/errors.ts';
import { decimalToNumber } from '../../lib/numbers.ts';
import { decodeCursor, encodeCursor, page } from '../../lib/pagination.ts';
import { storeSetSummary } from '../../lib/store-sets.ts';
import * as repo from './pricelists.repository.ts';

/** The contract: an existing code answers 404 (not 409), with code ALREADY_EXISTS. */
export async function createPriceList(db: Kysely<DB>, supplierId: number, input: { internalCode: string; name?: string }) {
  if (!(await repo.insertPriceList(db, supplierId, input.internalCode, input.name ?? null))) {
    throw fieldError('ALREADY_EXISTS', '/internalCode', `price list ${input.internalCode} already exists`, 404);
  }
  return getPriceList(db, supplierId, input.internalCode);
}

export async function getPriceList(db: Kysely<DB>, supplierId: number, code: string) {
  const list = await repo.findPriceList(db, supplierId, code);
  if (!list) throw notFound('price list', code);
  const [entries, stores] = await Promise.all([repo.listEntries(db, supplierId, list.id), repo.listStoreLinks(db, supplierId, list.id)]);
  return {
    internalCode: list.internal_code,
    name: list.name,
    enabled: list.enabled,
    products: entries.map((e) => ({
      priceListInternalCode: list.internal_code,
      productInternalCode: e.internal_code,
      units: e.units,
      price: decimalToNumber(e.price),
    })),
    stores: stores.map((s) => ({ priceListInternalCode: list.internal_code, storeInternalCode: s.store_code })),
    createdAt: list.created_at.toISOString(),
    updatedAt: list.updated_at.toISOString(),
  };
}

/** Every price of a list (the store side prices carts from it). */
export const listPrices = (db: Kysely<DB>, supplierId: number, priceListId: number) => repo.listEntries(db, supplierId, priceListId);

export async function setPriceListStatus(db: Kysely<DB>, supplierId: number, code: string, enabled: boolean) {
  const row = await repo.setEnabled(db, supplierId, code, enabled);
  if (!row) throw notFound('price list', code);
  return { internalCode: row.internal_code, name: row.name, enabled: row.enabled };
}

/** A page of price lists by code, without their entries (a list can hold very many). */
export async function listPriceLists(db: Kysely<DB>, supplierId: number, query: { search?: string; enabled?: boolean; take: number; page: number }) {
  const { rows, total } = await repo.listPriceLists(db, supplierId, query);
  return page(rows.map(storeSetSummary), total, query.page, query.take);
}

/** A page of a list's entries by product code then units, by offset or after a cursor. */
export async function listPriceEntries(
  db: Kysely<DB>,
  supplierId: number,
  code: string,
  query: { search?: string; take: number; page: number; after?: string },
) {
  const list = await repo.findPriceList(db, supplierId, code);
  if (!list) throw notFound('price list', code);
  const after = query.after === undefined ? undefined : decodeCursor(query.after, ['string', 'number'] as const, '/query/after');
  const { after: _cursor, ...filter } = query;
  const { rows, total } = await repo.listEntriesPage(db, supplierId, list.id, { ...filter, ...(after ? { after } : {}) });
  const shown = rows.slice(0, query.take);
  const last = shown.at(-1);
  return {
    ...page(
      shown.map((e) => ({ productInternalCode: e.internal_code, productName: e.name, units: e.units, price: decimalToNumber(e.price), updatedAt: e.updated_at.toISOString() })),
      total,
      query.page,
      query.take,
    ),
    next: rows.length > query.take && last ? encodeCursor([last.internal_code, last.units]) : null,
  };
}
