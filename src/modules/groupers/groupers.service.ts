// Promotion groupers (commercial segments: which stores see which promotions) and stock
// groupers (warehouses: which stores share availability) have one shape and one set of
// rules; they differ only in how many of each a store may be in.
import type { Kysely } from 'kysely';
import type { DB, GrouperKind } from '../../db/types.ts';
import { fieldError, notFound } from '../../lib/errors.ts';
import { page } from '../../lib/pagination.ts';
import { storeSetSummary } from '../../lib/store-sets.ts';
import * as repo from './groupers.repository.ts';

const label = (kind: GrouperKind) => (kind === 'promotion' ? 'promotion grouper' : 'stock grouper');

export async function createGrouper(db: Kysely<DB>, supplierId: number, kind: GrouperKind, input: { internalCode: string; name: string }) {
  if (!(await repo.insertGrouper(db, supplierId, kind, input.internalCode, input.name))) {
    throw fieldError('ALREADY_EXISTS', '/internalCode', `${label(kind)} ${input.internalCode} already exists`);
  }
  return getGrouper(db, supplierId, kind, input.internalCode);
}

export async function updateGrouper(db: Kysely<DB>, supplierId: number, kind: GrouperKind, code: string, changes: { name?: string; enabled?: boolean }) {
  if (!(await repo.updateGrouper(db, supplierId, kind, code, changes))) throw notFound(label(kind), code);
  return getGrouper(db, supplierId, kind, code);
}

export async function getGrouper(db: Kysely<DB>, supplierId: number, kind: GrouperKind, code: string) {
  const grouper = await repo.findGrouper(db, supplierId, kind, code);
  if (!grouper) throw notFound(label(kind), code);
  const stores = await repo.grouperStoreCodes(db, supplierId, grouper.id);
  return {
    internalCode: grouper.internal_code,
    name: grouper.name,
    enabled: grouper.enabled,
    stores: stores.map((s) => ({ groupInternalCode: grouper.internal_code, storeInternalCode: s })),
    createdAt: grouper.created_at.toISOString(),
    updatedAt: grouper.updated_at.toISOString(),
  };
}

/** A page of groupers of one kind by code, without their stores (GET /grouper/{code}/{kind} has them). */
export async function listGroupers(db: Kysely<DB>, supplierId: number, kind: GrouperKind, query: { search?: string; enabled?: boolean; take: number; page: number }) {
  const { rows, total } = await repo.listGroupers(db, supplierId, kind, query);
  return page(rows.map(storeSetSummary), total, query.page, query.take);
}
