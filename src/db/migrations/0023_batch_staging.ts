// Frozen once shipped. POST /batch/pricelist's items are staged: one typed row per item in
// batch_price_items, written with COPY in the transaction that accepts the request and
// applied from there by SQL alone, instead of JSON in the batch row read back by Node
// (src/modules/batch/README.md, "Staging"). A row's action comes from its batch's
// `actions` runs, as before. No foreign key to the batch: a per-row check on the hottest
// write path; the rows go with their batch (retention deletes them first, in bounded
// chunks). Existing batches of the endpoint, finished or not, are moved here in place.
import { sql, type Kysely } from 'kysely';

const statements = [
  `alter table batches alter column items drop not null`,
  `create table batch_price_items (
     batch_seq bigint not null,
     idx int not null,
     list_code text not null,
     code text not null,
     units int,
     price numeric,
     primary key (batch_seq, idx))`,
  `insert into batch_price_items (batch_seq, idx, list_code, code, units, price)
   select b.seq, i.ord - 1, i.value->>'priceListInternalCode',
          coalesce(i.value->>'productInternalCode', i.value->>'storeInternalCode'),
          (i.value->>'units')::int, (i.value->>'price')::numeric
   from batches b cross join json_array_elements(b.items) with ordinality as i(value, ord)
   where b.endpoint = '/batch/pricelist' and b.items is not null`,
  `update batches set items = null where endpoint = '/batch/pricelist'`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
