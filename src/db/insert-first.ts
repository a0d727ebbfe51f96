// A plain INSERT first, the upsert when a row exists: the bulk writes of rows keyed by a
// code (products, stores) use it; the price list kind does the same by hand
// (writeStagedEntries in pricelists.repository.ts, which can move onto this helper).
import { sql, type Transaction } from 'kysely';
import { isUniqueViolation } from './errors.ts';
import type { DB } from './types.ts';

/** What a write of rows tells its caller about them: whether none of them existed before. */
export interface RowsWritten {
  allNew: boolean;
}

/**
 * Writes a chunk of rows with `insert` (a plain INSERT) or `upsert` (the statement that is
 * always right). The plain insert is right when no row exists yet and the chunk names
 * each key once, and costs PostgreSQL less: no probe of the current row, no speculative
 * insertion (docs/benchmarks.md). With `expectNew` it is tried first inside a savepoint;
 * a row that exists makes it fail with a unique violation before anything is kept, and
 * the upsert then does the work. So the result never depends on the guess, only the cost
 * does: a wrong guess wastes one statement. Every other error is the caller's.
 *
 * Callers must hand both statements the same rows, each key at most once (the caller
 * merges a chunk's items per key first): a key named twice would make the insert fail
 * and the upsert refuse to touch a row twice, and a unique violation must mean exactly
 * "this key exists". `insert` must answer `allNew: true`.
 */
export async function insertElseUpsert(
  trx: Transaction<DB>,
  savepoint: string,
  expectNew: boolean,
  insert: () => Promise<RowsWritten>,
  upsert: () => Promise<RowsWritten>,
): Promise<RowsWritten> {
  if (expectNew) {
    await sql`savepoint ${sql.id(savepoint)}`.execute(trx);
    try {
      const written = await insert();
      await sql`release savepoint ${sql.id(savepoint)}`.execute(trx);
      return written;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await sql`rollback to savepoint ${sql.id(savepoint)}`.execute(trx);
    }
  }
  return upsert();
}

/**
 * Per supplier, whether its last chunk of one kind of row was all new: then its next
 * chunk is expected new too (`insertElseUpsert`'s `expectNew`). Only a guess about cost,
 * never about the result. A process starts by guessing "new": a supplier's first load is
 * its largest, and a wrong first guess costs one statement. Kept per process and kind (a
 * supplier may be refreshing its products while loading new stores); two workers of one
 * process share it, and whichever chunk finishes last sets it.
 */
export class NewRowsGuess {
  private readonly lastWasNew = new Map<number, boolean>();

  expectNew(supplierId: number): boolean {
    return this.lastWasNew.get(supplierId) ?? true;
  }

  saw(supplierId: number, written: RowsWritten): void {
    this.lastWasNew.set(supplierId, written.allNew);
  }
}
