// Frozen once shipped. POST /batch/store becomes a staged kind (src/modules/batch/README.md,
// "Staging"), as POST /batch/product is since 0030: a row per chunk of a batch, each value
// an array with one element per item, the price list and stock grouper codes once per
// chunk with each item's place among them. The chunk's stores are written by one statement
// from these arrays (docs/benchmarks.md, "bench:catalog").
//
// Columns, one element per item: codes, names, legal_names, legal_ids, owner_names,
// phones, emails, enabled (null when not sent), drop_sizes (settings.dropSize, exact
// decimals), price_list_ix and stock_grouper_ix (places in price_lists and
// stock_groupers; a null code has its place too), and sent: which of legalName (1),
// legalId (2), ownerName (4), phone (8), email (16), settings.dropSize (32),
// priceListCode (64), stockGrouperCode (128) and settings (256) the item sent, since the
// first eight take null to clear (or unlink) and keep the stored value when absent. Its
// addresses and promotionGrouperCodes are JSON values: one JSON array per chunk each
// (null where an item did not send it).
//
// Unfinished store batches are moved here (the worker applies a store batch from its
// chunks only); finished ones keep their JSON, which the detail still reads. A moved
// chunk lists a price list and a stock grouper once per item: a valid form.
import { sql, type Kysely } from 'kysely';

const sent = (field: string, bit: number, from = 'e.item') => `case when ${from}::jsonb ? '${field}' then ${bit} else 0 end`;

const statements = [
  `create table batch_store_chunks (
     batch_seq bigint not null,
     chunk int not null,
     codes text[] not null,
     names text[] not null,
     legal_names text[] not null,
     legal_ids text[] not null,
     owner_names text[] not null,
     phones text[] not null,
     emails text[] not null,
     enabled boolean[] not null,
     addresses json not null,
     drop_sizes numeric[] not null,
     price_lists text[] not null,
     price_list_ix int[] not null,
     stock_groupers text[] not null,
     stock_grouper_ix int[] not null,
     promotion_groupers json not null,
     sent int[] not null,
     primary key (batch_seq, chunk))`,
  `do $$ begin
     alter table batch_store_chunks
       alter column codes set compression lz4, alter column names set compression lz4,
       alter column legal_names set compression lz4, alter column legal_ids set compression lz4,
       alter column owner_names set compression lz4, alter column phones set compression lz4,
       alter column emails set compression lz4, alter column enabled set compression lz4,
       alter column addresses set compression lz4, alter column drop_sizes set compression lz4,
       alter column price_lists set compression lz4, alter column price_list_ix set compression lz4,
       alter column stock_groupers set compression lz4, alter column stock_grouper_ix set compression lz4,
       alter column promotion_groupers set compression lz4, alter column sent set compression lz4;
   exception when feature_not_supported then null;
   end $$`,
  `insert into batch_store_chunks (batch_seq, chunk, codes, names, legal_names, legal_ids, owner_names, phones, emails, enabled,
                                   addresses, drop_sizes, price_lists, price_list_ix, stock_groupers, stock_grouper_ix, promotion_groupers, sent)
   select b.seq, (e.n - 1) / b.chunk_size,
          array_agg(e.item->>'internalCode' order by e.n), array_agg(e.item->>'name' order by e.n),
          array_agg(e.item->>'legalName' order by e.n), array_agg(e.item->>'legalId' order by e.n),
          array_agg(e.item->>'ownerName' order by e.n), array_agg(e.item->>'phone' order by e.n),
          array_agg(e.item->>'email' order by e.n), array_agg((e.item->>'enabled')::boolean order by e.n),
          json_agg(e.item->'addresses' order by e.n), array_agg((e.item->'settings'->>'dropSize')::numeric order by e.n),
          array_agg(e.item->>'priceListCode' order by e.n), array_agg(((e.n - 1) % b.chunk_size + 1)::int order by e.n),
          array_agg(e.item->>'stockGrouperCode' order by e.n), array_agg(((e.n - 1) % b.chunk_size + 1)::int order by e.n),
          json_agg(e.item->'promotionGrouperCodes' order by e.n),
          array_agg((${sent('legalName', 1)} | ${sent('legalId', 2)} | ${sent('ownerName', 4)} | ${sent('phone', 8)} | ${sent('email', 16)}
                   | ${sent('dropSize', 32, "(e.item->'settings')")} | ${sent('priceListCode', 64)} | ${sent('stockGrouperCode', 128)}
                   | ${sent('settings', 256)}) order by e.n)
   from batches b cross join lateral json_array_elements(b.items) with ordinality as e(item, n)
   where b.endpoint = '/batch/store' and b.finished_at is null and b.items is not null
   group by b.seq, (e.n - 1) / b.chunk_size`,
  `update batches set items = null where endpoint = '/batch/store' and finished_at is null and items is not null`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
