// Reading a stock grouper's availability rules (the writes are batches: stock.batch.ts).
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { notFound } from '../../lib/errors.ts';
import { page } from '../../lib/pagination.ts';
import { findGrouper } from '../groupers/groupers.repository.ts';
import * as repo from './stock.repository.ts';

/** A page of the grouper's rules; a rule stored for every size (units 0) answers units null. */
export async function listStockRules(
  db: Kysely<DB>,
  supplierId: number,
  code: string,
  query: { search?: string; available?: boolean; take: number; page: number },
) {
  const grouper = await findGrouper(db, supplierId, 'stock', code);
  if (!grouper) throw notFound('stock grouper', code);
  const { rows, total } = await repo.listRules(db, supplierId, grouper.id, query);
  const data = rows.map((r) => ({
    productInternalCode: r.internal_code,
    productName: r.name,
    units: r.units === 0 ? null : r.units,
    available: r.available,
    updatedAt: r.updated_at.toISOString(),
  }));
  return page(data, total, query.page, query.take);
}
