// When each product of a catalogue last changed, for the catalogue's "what changed since"
// (store-app.changes.ts): the latest of the product's row, its prices in the list and its
// stock rules in the grouper (every upsert of them sets updated_at).
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';

/** Per product id, the time (ms) of its latest change that a catalogue item shows. */
export async function catalogChangeTimes(db: Kysely<DB>, supplierId: number, priceListId: number, stockGrouperId: number | undefined): Promise<Map<number, number>> {
  const rows = await sql<{ id: number; changed: Date }>`
    select p.id, greatest(p.updated_at,
                          (select max(e.updated_at) from price_entries e where e.supplier_id = ${supplierId} and e.price_list_id = ${priceListId} and e.product_id = p.id),
                          (select max(r.updated_at) from stock_rules r where r.supplier_id = ${supplierId} and r.grouper_id = ${stockGrouperId ?? null}::bigint and r.product_id = p.id)) as changed
      from products p
     where p.supplier_id = ${supplierId} and p.enabled
       and exists (select 1 from price_entries e where e.supplier_id = ${supplierId} and e.price_list_id = ${priceListId} and e.product_id = p.id)`.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.id), new Date(r.changed).getTime()]));
}
