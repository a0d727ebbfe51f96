// A live supplier's test twin: a supplier row of its own, linked to the live one
// (README.md, "The twin"). Made on first need: the first test credential, or the first
// time a console session switches to test mode.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import { fieldError } from '../../lib/errors.ts';
import * as repo from './sandbox.repository.ts';

export type SupplierMode = 'live' | 'test';

/** The twin of a live supplier, made if it has none; a twin's own id answers itself. */
export async function ensureTwin(db: Kysely<DB>, supplierId: number): Promise<number> {
  const supplier = await repo.findSupplierRow(db, supplierId);
  if (!supplier) throw fieldError('NOT_FOUND', '/params/supplierId', `supplier ${supplierId} does not exist`);
  if (supplier.live_supplier_id !== null) return supplier.id;
  return inTransaction(db, async (trx) => {
    const found = await repo.findTwinOf(trx, supplierId);
    if (found) return found.id;
    await repo.insertTwin(trx, supplierId);
    return (await repo.findTwinOf(trx, supplierId))!.id;
  });
}

/** The live supplier of a supplier id: itself when live, its live supplier when a twin. */
export async function liveSupplierOf(db: Kysely<DB>, supplierId: number) {
  const supplier = await repo.findSupplierRow(db, supplierId);
  if (!supplier) return undefined;
  if (supplier.live_supplier_id === null) return { ...supplier, mode: 'live' as SupplierMode };
  const live = await repo.findSupplierRow(db, supplier.live_supplier_id);
  return live && { ...live, twinId: supplier.id, mode: 'test' as SupplierMode };
}

/** GET /supplier: the live supplier's code and name, and the mode of the caller. */
export async function supplierIdentity(db: Kysely<DB>, supplierId: number, mode: SupplierMode) {
  const live = await liveSupplierOf(db, supplierId);
  if (!live) throw fieldError('NOT_FOUND', '/headers/authorization', 'the supplier no longer exists');
  return { code: live.code, name: live.name, mode };
}
