import { sql, type Kysely, type Transaction } from 'kysely';
import { containsText, byCode } from '../../db/sql.ts';
import type { DB } from '../../db/types.ts';
import { offsetPage } from '../../db/paging.ts';

/** u 0: the rule for every package size of the product. */
export async function upsertRules(trx: Transaction<DB>, supplierId: number, rows: { g: number; p: number; u: number; a: boolean }[]) {
  if (rows.length === 0) return;
  await sql`
    insert into stock_rules (supplier_id, grouper_id, product_id, units, available)
    select ${supplierId}, r.g, r.p, r.u, r.a from json_to_recordset(${JSON.stringify(rows)}::json) as r(g bigint, p bigint, u int, a boolean)
    on conflict (supplier_id, grouper_id, product_id, units) do update set available = excluded.available, updated_at = now()`.execute(trx);
}

/**
 * A page of one stock grouper's rules by product code (bytes), then units (the rule for
 * every size, units 0, first). Walks the products' unique code index (collate "C", migration
 * 0025) like a price list's
 * entries do, so a page never sorts every rule of the grouper.
 */
export async function listRules(db: Kysely<DB>, supplierId: number, grouperId: number, f: { search?: string; available?: boolean; take: number; page: number }) {
  let base = db
    .selectFrom('stock_rules as r')
    .innerJoin('products as p', 'p.id', 'r.product_id')
    .where('r.supplier_id', '=', supplierId)
    .where('r.grouper_id', '=', grouperId)
    .where('p.supplier_id', '=', supplierId);
  if (f.search) base = base.where(containsText(['p.internal_code', 'p.name'], f.search));
  if (f.available !== undefined) base = base.where('r.available', '=', f.available);
  return offsetPage(
    base,
    (q) =>
      q
        .select(['p.internal_code', 'p.name', 'r.units', 'r.available', 'r.updated_at'])
        .orderBy(byCode('p.internal_code'))
        .orderBy('r.units'),
    f,
  );
}
