import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';

/** u 0: the rule for every package size of the product. */
export async function upsertRules(trx: Transaction<DB>, supplierId: number, rows: { g: number; p: number; u: number; a: boolean }[]) {
  if (rows.length === 0) return;
  await sql`
    insert into stock_rules (supplier_id, grouper_id, product_id, units, available)
    select ${supplierId}, r.g, r.p, r.u, r.a from json_to_recordset(${JSON.stringify(rows)}::json) as r(g bigint, p bigint, u int, a boolean)
    on conflict (supplier_id, grouper_id, product_id, units) do update set available = excluded.available, updated_at = now()`.execute(trx);
}
