// The batch claim (batch.repository.ts, claimQuery) reads what it passes over, not the
// backlog: with hundreds of unfinished batches waiting, a claim walks them oldest first and
// stops at the first it may lease. No worker runs here: the test claims by hand and reads
// what the database did from the claim's own plan (EXPLAIN ANALYZE), rolled back.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { claimNextBatch, claimQuery } from '../../src/modules/batch/batch.repository.ts';
import type { DB } from '../../src/db/types.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;
const BACKLOG = 200;

beforeAll(async () => {
  // One item per batch: a request of BACKLOG items leaves BACKLOG unfinished batches.
  t = await createTestApp({ worker: false, env: { BATCH_SIZE: '1', MAX_BATCH_REQUEST_ITEMS: String(BACKLOG) } });
  s = await t.supplier();
});
afterAll(() => t.close());

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Join Filter'?: number;
  Plans?: PlanNode[];
}

/** Rows of `batches` the statement read (returned or filtered out, over every loop), and what it answered. */
async function claimRead(db: Kysely<DB>): Promise<{ read: number; claimed: string | undefined }> {
  const claim = claimQuery('test-claim', 60).compile(db);
  let read = 0;
  let claimed: string | undefined;
  await db
    .transaction()
    .execute(async (trx) => {
      const explained = await trx.executeQuery<{ 'QUERY PLAN': unknown }>({ ...claim, sql: `explain (analyze, format json) ${claim.sql}` });
      const raw = explained.rows[0]!['QUERY PLAN'];
      const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
      const walk = (node: PlanNode) => {
        if (node['Relation Name'] === 'batches') read += (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'];
        read += (node['Rows Removed by Join Filter'] ?? 0) * node['Actual Loops'];
        node.Plans?.forEach(walk);
      };
      walk(plan[0]!.Plan);
      const leased = await sql<{ id: string }>`select id::text as id from batches where lease_owner = 'test-claim'`.execute(trx);
      claimed = leased.rows[0]?.id;
      throw new RolledBack();
    })
    .catch((error) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return { read, claimed };
}
class RolledBack extends Error {}

it('passes over the leased batches at the head of a large backlog and stops at the first that may run', async () => {
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  // Codes in order, as ERPs export them: the batches' key ranges are disjoint, so any may run.
  const products = Array.from({ length: BACKLOG }, (_, i) => ({ priceListInternalCode: 'PL', productInternalCode: `P${String(i).padStart(4, '0')}`, units: 1, price: 1 }));
  const res = await as(t, s, 'POST', '/batch/pricelist', { upsert: { products } });
  expect(res.statusCode).toBe(202);
  const ids: string[] = res.json().batchId;
  expect(ids).toHaveLength(BACKLOG);
  // Two workers are busy with the two oldest.
  await sql`update batches set lease_owner = 'busy', lease_expires_at = now() + interval '1 minute' where id = any(${ids.slice(0, 2)}::uuid[])`.execute(t.deps.db);

  const { read, claimed } = await claimRead(t.deps.db);
  expect(claimed).toBe(ids[2]);
  // It reads the three batches it walks and, for the third, the two before it: a handful.
  // Asked as an anti-join, the same question reads the whole backlog for each batch walked
  // (405 rows here; BACKLOG × BACKLOG when the walk is not in acceptance order).
  expect(read).toBeLessThan(20);
});

it('records a batch’s start when the claim takes it, not when the claim’s transaction began', async () => {
  // A claim's transaction can begin before the previous batch's finish commits and still see
  // it (its snapshot comes after): a start taken from the transaction came out before that
  // finish. Here the claim's transaction begins, waits 50 ms, then claims.
  const { began, started } = await t.deps.db.transaction().execute(async (trx) => {
    const began = (await sql<{ at: Date }>`select now() as at`.execute(trx)).rows[0]!.at;
    await sql`select pg_sleep(0.05)`.execute(trx);
    const claimed = await claimNextBatch(trx, 'late-claim', 60);
    const row = await trx.selectFrom('batches').select('started_at').where('id', '=', claimed!.id).executeTakeFirstOrThrow();
    return { began, started: row.started_at! };
  });
  expect(started.getTime() - began.getTime()).toBeGreaterThanOrEqual(50);
});
