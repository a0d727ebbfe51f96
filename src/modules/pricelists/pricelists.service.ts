import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { fieldError, notFound } from '../../lib/errors.ts';
import { decimalToNumber } from '../../lib/numbers.ts';
import * as repo from './pricelists.repository.ts';

/** supplier-api.md: an existing code answers 404 (not 409), with code ALREADY_EXISTS. */
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

export async function setPriceListStatus(db: Kysely<DB>, supplierId: number, code: string, enabled: boolean) {
  const row = await repo.setEnabled(db, supplierId, code, enabled);
  if (!row) throw notFound('price list', code);
  return { internalCode: row.internal_code, name: row.name, enabled: row.enabled };
}
