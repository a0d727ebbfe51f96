// Frozen once shipped. POST /batch/pricelist's staged items become one row per chunk of a
// batch instead of one per item (src/modules/batch/README.md, "Staging"): each value an
// array with one element per item, and the list and product (or store) codes stored once
// per chunk with each item's place among them. A request's COPY writes a row per 2,500
// items instead of 2,500 rows and their key entries, and a chunk resolves each code it
// names once. The arrays are written once and read once or twice, so lz4 compresses
// them where the server has it (as batches.items, migration 0008); PGlite keeps pglz.
//
// Existing staged items, finished batches' included (the detail reads them), are moved
// chunk by chunk with their batch's own chunk size. A moved chunk's code arrays hold one
// element per item, in order: a valid form (the distinct values are a saving, not a rule).
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table batch_price_chunks (
     batch_seq bigint not null,
     chunk int not null,
     lists text[] not null,
     list_ix int[] not null,
     codes text[] not null,
     code_ix int[] not null,
     units int[] not null,
     prices numeric[] not null,
     primary key (batch_seq, chunk))`,
  `do $$ begin
     alter table batch_price_chunks
       alter column lists set compression lz4, alter column list_ix set compression lz4,
       alter column codes set compression lz4, alter column code_ix set compression lz4,
       alter column units set compression lz4, alter column prices set compression lz4;
   exception when feature_not_supported then null;
   end $$`,
  `insert into batch_price_chunks (batch_seq, chunk, lists, list_ix, codes, code_ix, units, prices)
   select b.seq, s.idx / b.chunk_size,
          array_agg(s.list_code order by s.idx), array_agg(s.idx % b.chunk_size + 1 order by s.idx),
          array_agg(s.code order by s.idx), array_agg(s.idx % b.chunk_size + 1 order by s.idx),
          array_agg(s.units order by s.idx), array_agg(s.price order by s.idx)
   from batch_price_items s join batches b on b.seq = s.batch_seq
   group by b.seq, s.idx / b.chunk_size`,
  `drop table batch_price_items`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
