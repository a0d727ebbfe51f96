// Frozen once shipped. POST /batch/product becomes a staged kind (src/modules/batch/README.md,
// "Staging"), as POST /batch/pricelist is since 0026: a row per chunk of a batch, each
// value an array with one element per item, brand and category codes once per chunk with
// each item's place among them. The chunk is applied by one statement from these arrays,
// so no item passes through Node after its 202 (docs/benchmarks.md, "bench:catalog").
//
// Columns, one element per item: codes, names, descriptions, brand_ix and category_ix
// (places in brands and categories), image_urls (its image), eans, enabled (null when not
// sent), and sent: which of description (1), image (2) and ean (4) the item sent, since
// these three take null to clear the stored value and keep it when absent. Its images and
// displayProducts are JSON values, so each of those columns is one JSON array per chunk
// (null where an item did not send it): written as JSON.stringify writes it, with no
// element quoted as text, and read back element by element in step with the arrays.
//
// Unfinished product batches are moved here (the worker applies a product batch from its
// chunks only); finished ones keep their JSON, which the detail still reads. A moved
// chunk lists a brand and a category once per item: a valid form (the distinct values
// are a saving, not a rule).
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table batch_product_chunks (
     batch_seq bigint not null,
     chunk int not null,
     codes text[] not null,
     names text[] not null,
     descriptions text[] not null,
     brands text[] not null,
     brand_ix int[] not null,
     categories text[] not null,
     category_ix int[] not null,
     image_urls text[] not null,
     images json not null,
     eans text[] not null,
     enabled boolean[] not null,
     display_products json not null,
     sent int[] not null,
     primary key (batch_seq, chunk))`,
  `do $$ begin
     alter table batch_product_chunks
       alter column codes set compression lz4, alter column names set compression lz4,
       alter column descriptions set compression lz4, alter column brands set compression lz4,
       alter column brand_ix set compression lz4, alter column categories set compression lz4,
       alter column category_ix set compression lz4, alter column image_urls set compression lz4,
       alter column images set compression lz4, alter column eans set compression lz4,
       alter column enabled set compression lz4, alter column display_products set compression lz4,
       alter column sent set compression lz4;
   exception when feature_not_supported then null;
   end $$`,
  `insert into batch_product_chunks (batch_seq, chunk, codes, names, descriptions, brands, brand_ix, categories, category_ix,
                                     image_urls, images, eans, enabled, display_products, sent)
   select b.seq, (e.n - 1) / b.chunk_size,
          array_agg(e.item->>'internalCode' order by e.n), array_agg(e.item->>'name' order by e.n),
          array_agg(e.item->>'description' order by e.n),
          array_agg(e.item->>'brandInternalCode' order by e.n), array_agg(((e.n - 1) % b.chunk_size + 1)::int order by e.n),
          array_agg(e.item->>'categoryInternalCode' order by e.n), array_agg(((e.n - 1) % b.chunk_size + 1)::int order by e.n),
          array_agg(e.item->>'image' order by e.n), json_agg(e.item->'images' order by e.n),
          array_agg(e.item->>'ean' order by e.n), array_agg((e.item->>'enabled')::boolean order by e.n),
          json_agg(e.item->'displayProducts' order by e.n),
          array_agg((case when e.item::jsonb ? 'description' then 1 else 0 end
                   | case when e.item::jsonb ? 'image' then 2 else 0 end
                   | case when e.item::jsonb ? 'ean' then 4 else 0 end) order by e.n)
   from batches b cross join lateral json_array_elements(b.items) with ordinality as e(item, n)
   where b.endpoint = '/batch/product' and b.finished_at is null and b.items is not null
   group by b.seq, (e.n - 1) / b.chunk_size`,
  `update batches set items = null where endpoint = '/batch/product' and finished_at is null and items is not null`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
