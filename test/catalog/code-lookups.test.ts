// A batch chunk finds each product and store it names by code with one index probe,
// whatever the planner knows about the table. Migration 0025: products and stores had a
// second index on (supplier_id, internal_code collate "C") that matches supplier_id alone
// for a lookup by code; on a table not analyzed since a supplier's first large load, the
// planner could pick it and read every one of the supplier's rows per probe (seen in
// bench:catalog: 2,500 probes reading 200,000 buffers), and a plain join, even with one
// index, could hash the supplier's every row once per chunk. This loads a supplier the way
// the benchmark did and plans the bulk writes' lookup (rowByCode) on the unanalyzed tables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { rowByCode } from '../../src/db/sql.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;
const N = 3_000;
const code = (prefix: string, i: number) => `${prefix}${String(i).padStart(6, '0')}`;

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  expect((await as(t, s, 'PUT', '/category', { internalCode: 'C-1', name: 'Drinks' })).statusCode).toBe(200);
  await t.runBatch(s, '/batch/brand', { upsert: [{ internalCode: 'B-1', name: 'Cola Co' }] });
  const products = Array.from({ length: N }, (_, i) => ({ internalCode: code('P', i), name: `Product ${i}`, brandInternalCode: 'B-1', categoryInternalCode: 'C-1' }));
  const stores = Array.from({ length: N }, (_, i) => ({ internalCode: code('S', i), name: `Store ${i}` }));
  const loaded = [...(await t.runBatch(s, '/batch/product', { upsert: products })).statuses, ...(await t.runBatch(s, '/batch/store', { upsert: stores })).statuses];
  expect(loaded.every((b) => b.status === 'processed' && b.failed === 0)).toBe(true);
}, 120_000);
afterAll(() => t.close());

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  'Recheck Cond'?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan that reads `table`. */
function readsOf(node: PlanNode, table: string): PlanNode[] {
  const own = node['Relation Name'] === table ? [node] : [];
  return [...own, ...(node.Plans ?? []).flatMap((p) => readsOf(p, table))];
}

/** The plan of a bulk write's lookup (rowByCode): a chunk's codes as a record set, each joined to its row by code. */
async function lookupPlan(table: 'products' | 'stores', codes: string[]): Promise<PlanNode> {
  const result = await sql<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>`
    explain (format json)
    select r.code, x.id
    from json_to_recordset(${JSON.stringify(codes.map((c) => ({ code: c })))}::json) as r(code text)
    ${rowByCode(table, 'x', s.id, sql.ref('r.code'))}`.execute(t.deps.db);
  return result.rows[0]!['QUERY PLAN'][0].Plan;
}

describe('lookups by code (migration 0025)', () => {
  for (const [table, prefix] of [
    ['products', 'P'],
    ['stores', 'S'],
  ] as const) {
    it(`a chunk's ${table} are found by an index on supplier and code, never by reading the supplier's rows`, async () => {
      const codes = Array.from({ length: 2_500 }, (_, i) => code(prefix, i));
      const reads = readsOf(await lookupPlan(table, codes), table);
      expect(reads.length).toBeGreaterThan(0);
      for (const read of reads) {
        // Reached through an index whose condition holds the code: a probe, not a scan of the supplier.
        expect(read['Node Type'], JSON.stringify(read)).not.toBe('Seq Scan');
        const condition = read['Index Cond'] ?? read.Plans?.map((p) => p['Index Cond'] ?? '').join(' ') ?? '';
        expect(condition, JSON.stringify(read)).toMatch(/internal_code/);
        expect(read.Filter ?? '', JSON.stringify(read)).not.toMatch(/internal_code/);
      }
    });
  }

  it('codes compare by their bytes in the column itself: one index on each code column', async () => {
    const rows = await sql<{ table: string; indexes: number }>`
      select c.relname as table, count(*)::int as indexes
      from pg_index i join pg_class c on c.oid = i.indrelid join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey)
      where c.relname in ('products', 'stores') and a.attname = 'internal_code'
      group by c.relname order by c.relname`.execute(t.deps.db);
    expect(rows.rows).toEqual([
      { table: 'products', indexes: 1 },
      { table: 'stores', indexes: 1 },
    ]);
    // Equality is unchanged: a code differing only in case is another code.
    const upper = await as(t, s, 'GET', `/product/${code('p', 1)}`);
    expect(upper.statusCode).toBe(404);
    expect((await as(t, s, 'GET', `/product/${code('P', 1)}`)).statusCode).toBe(200);
  });
});
