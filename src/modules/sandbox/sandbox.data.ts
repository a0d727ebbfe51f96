// Emptying a twin and filling it from its live supplier (README.md, "Reset and copy").
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import { fieldError } from '../../lib/errors.ts';
import * as repo from './sandbox.repository.ts';

/**
 * What a reset keeps of the twin: the supplier row itself, its credentials and webhook
 * settings (the integration keeps working), the audit log (a record, not data), and what
 * is the live supplier's (members; console sessions name the live supplier).
 */
const KEPT = new Set(['suppliers', 'api_clients', 'supplier_webhooks', 'audit_entries', 'supplier_members', 'console_sessions']);

/**
 * Every table holding the twin's rows, children before parents. Read from the database's
 * own catalog, so a table added later is emptied too without this list knowing it.
 */
async function tablesToEmpty(db: Kysely<DB>) {
  const { tables, edges, staged } = await repo.supplierTables(db);
  const left = new Set(tables.filter((t) => !KEPT.has(t)));
  const order: string[] = [];
  while (left.size > 0) {
    // A table goes once no other table left refers to it.
    const ready = [...left].filter((t) => !edges.some((e) => e.parent === t && e.child !== t && left.has(e.child)));
    if (ready.length === 0) throw new Error(`tables referring to each other: ${[...left].join(', ')}`);
    for (const t of ready.sort()) {
      order.push(t);
      left.delete(t);
    }
  }
  return { order, staged };
}

async function empty(trx: Transaction<DB>, twinId: number) {
  const { order, staged } = await tablesToEmpty(trx);
  await repo.deleteClock(trx, twinId); // with its NOTIFY: every process's clocks forget
  for (const table of staged) await repo.deleteStagedChunks(trx, table, twinId);
  for (const table of order) await repo.deleteRowsOf(trx, table, twinId);
}

const countsOf = async (db: Kysely<DB>, twinId: number): Promise<Record<string, number>> => ({ ...(await repo.twinCounts(db, twinId)) });

async function requireTwin(db: Kysely<DB>, twinId: number) {
  const twin = await repo.findSupplierRow(db, twinId);
  if (!twin || twin.live_supplier_id === null) throw fieldError('NOT_FOUND', '/headers/authorization', 'test mode only');
  return { ...twin, liveId: twin.live_supplier_id };
}

/**
 * POST /sandbox/reset: the twin emptied (catalog, stores and their users, orders, tickets,
 * batches, imports, deliveries, its inbox and its clock); its credentials and webhook
 * settings stay.
 */
export async function resetTwin(db: Kysely<DB>, twinId: number) {
  await requireTwin(db, twinId);
  await inTransaction(db, (trx) => empty(trx, twinId));
  return { counts: await countsOf(db, twinId) };
}

/**
 * POST /sandbox/copy-live: the twin emptied as by a reset, then given a copy of the live
 * supplier's catalog, groupers, stock rules, price lists, stores and promotions (and its
 * minimum order and cancel codes); never its orders, tickets, store users or people.
 */
export async function copyLive(db: Kysely<DB>, twinId: number) {
  const twin = await requireTwin(db, twinId);
  await inTransaction(db, async (trx) => {
    await empty(trx, twinId);
    await repo.copyCatalog(trx, twin.liveId, twinId);
  });
  return { counts: await countsOf(db, twinId) };
}
