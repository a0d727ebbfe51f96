// A plain INSERT first, the upsert when a row exists: the bulk writes of staged products,
// stores and price entries use it (writeStagedProducts, writeStagedStores, writeStagedEntries).
import { sql, type Transaction } from 'kysely';
import { isUniqueViolation } from './errors.ts';
import type { DB } from './types.ts';

/** What a write of rows tells its caller about them: whether none of them existed before. */
export interface RowsWritten {
  allNew: boolean;
}

/**
 * Writes a chunk of rows with `write(false)` (a plain INSERT) or `write(true)` (the upsert,
 * the statement that is always right). The plain insert is right when no row exists yet
 * and the chunk names each key once, and costs PostgreSQL less: no probe of the current
 * row, no speculative insertion (docs/benchmarks.md). With `expectNew` it is tried first
 * inside a savepoint; a row that exists makes it fail with a unique violation before
 * anything is kept, and the upsert then does the work. So the result never depends on the
 * guess, only the cost does: a wrong guess wastes one statement. Every other error is the
 * caller's.
 *
 * Both forms must write the same rows, and the upsert must be right for every chunk the
 * insert refuses: either keys come once per chunk (products and stores merge a chunk's
 * items per key first, so a unique violation means exactly "this key exists"), or the
 * upsert itself keeps the last item per key (price entries' `distinct on`), so a key named
 * twice only sends the chunk to the upsert. The plain insert must answer `allNew: true`.
 */
export async function insertElseUpsert<Written extends RowsWritten>(
  trx: Transaction<DB>,
  savepoint: string,
  expectNew: boolean,
  write: (upsert: boolean) => Promise<Written>,
): Promise<Written> {
  if (expectNew) {
    await sql`savepoint ${sql.id(savepoint)}`.execute(trx);
    try {
      const written = await write(false);
      await sql`release savepoint ${sql.id(savepoint)}`.execute(trx);
      return written;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await sql`rollback to savepoint ${sql.id(savepoint)}`.execute(trx);
    }
  }
  return write(true);
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
