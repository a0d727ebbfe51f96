import type { Kysely, Transaction } from 'kysely';
import type { DB } from './types.ts';

/**
 * Runs `work` in a transaction: a new one, or the caller's when `db` already is one. A
 * service that opens its own transaction then also runs inside the transaction of an
 * audited write (src/modules/audit/audited.ts), so its change and the audit entry commit together.
 * Kysely refuses `transaction()` on a transaction, hence this one helper.
 */
export function inTransaction<T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<DB>) : db.transaction().execute(work);
}
