// Frozen once shipped. A batch's items are stored as the items alone, with the action of
// each recorded once per run of consecutive items (`actions`: [["upsert.products", 5000]]),
// instead of one {"action": ..., "item": ...} per item: the JSON written before every 202
// and read back by the worker is about a third smaller (docs/benchmarks.md). Existing
// batches are rewritten in place, runs found as gaps-and-islands over the item order.
import { sql, type Kysely } from 'kysely';

const statements = [
  `alter table batches add column actions json`,
  `update batches b set
     actions = coalesce((
       select json_agg(json_build_array(r.action, r.n) order by r.first)
       from (select action, count(*) as n, min(ord) as first
             from (select e->>'action' as action, ord,
                          ord - row_number() over (partition by e->>'action' order by ord) as island
                   from json_array_elements(b.items) with ordinality as t(e, ord)) x
             group by action, island) r), '[]'),
     items = coalesce((
       select json_agg(e->'item' order by ord)
       from json_array_elements(b.items) with ordinality as t(e, ord)), '[]')`,
  `alter table batches alter column actions set not null`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
