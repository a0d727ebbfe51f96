// The supplier clocks (src/lib/clock.ts, SupplierClocks): real time for every supplier but
// a test twin whose integrator moved its time (README.md, "The clock").
//
// What is kept: every moved twin's offset from real time, read in one query and kept in
// memory, so a live supplier (and an unmoved twin) is answered without a query. Freshness
// follows the store cache's rules (../store-app/store-app.cache.ts): every change to a
// clock sends NOTIFY sandbox_clock_changed from its transaction; each process forgets the
// offsets when it hears one, and forgets at once when it made the change itself. A value
// read while a change was heard is used once but not kept. A process that cannot hear
// (its listening connection is down, or not up yet) keeps nothing and reads the one
// supplier's clock row on every call.
//
// Inside a transaction (a caller passing it: an audited write) nothing waits for another
// connection: on embedded PGlite the transaction holds the only one, so a query beside
// it, or a load of the offsets already queued behind it, would wait for it for ever (and
// every request and worker with it). The offsets kept are used when there are any; else
// the one row is read through the transaction and not kept.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { Clock, SupplierClocks } from '../../lib/clock.ts';
import { ForgetOnNotify } from '../../lib/forget-on-notify.ts';
import * as repo from './sandbox.repository.ts';

/** A moved clock's offset from real time: now = set_now + (real - set_at). */
const offsetOf = (row: { set_now: Date; set_at: Date }) => row.set_now.getTime() - row.set_at.getTime();

export class TwinClocks extends ForgetOnNotify implements SupplierClocks {
  private offsets: Promise<Map<number, number>> | undefined;
  /** The offsets once `offsets` has loaded and is kept (what a transaction may use without waiting). */
  private loaded: Map<number, number> | undefined;

  /** `clock`: the process's real time (a test's moved clock included). */
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {
    super(repo.SANDBOX_CLOCK_CHANGED);
  }

  /** A clock changed (this process changed it; the others hear the NOTIFY). */
  protected dropAll() {
    this.offsets = undefined;
    this.loaded = undefined;
  }

  /** `db`: the caller's transaction, if it holds one (src/lib/clock.ts). */
  async nowFor(supplierId: number, db?: Kysely<DB>): Promise<Date> {
    return new Date(this.clock.now().getTime() + (await this.offsetFor(supplierId, db)));
  }

  /** The supplier's offset from real time in ms (0: real time). */
  async offsetFor(supplierId: number, db?: Kysely<DB>): Promise<number> {
    if (db?.isTransaction) {
      if (this.isListening && this.loaded) return this.loaded.get(supplierId) ?? 0;
      const row = await repo.clockRow(db, supplierId);
      return row ? offsetOf(row) : 0;
    }
    if (!this.isListening) {
      const row = await repo.clockRow(this.db, supplierId);
      return row ? offsetOf(row) : 0;
    }
    return (await this.load()).get(supplierId) ?? 0;
  }

  private load(): Promise<Map<number, number>> {
    if (this.offsets) return this.offsets;
    const generation = this.generation;
    const loading = repo.clockRows(this.db).then((rows) => new Map(rows.map((r) => [r.supplier_id, offsetOf(r)])));
    this.offsets = loading;
    loading.then(
      (offsets) => {
        if (this.offsets !== loading) return;
        if (generation !== this.generation) this.offsets = undefined;
        else this.loaded = offsets;
      },
      () => {
        if (this.offsets === loading) this.offsets = undefined;
      },
    );
    return loading;
  }
}

/**
 * A supplier's time read from its clock row, for code that runs without the process's
 * clocks (a batch item applied by the worker): one indexed read, real time when no row.
 */
export async function supplierNow(db: Kysely<DB>, supplierId: number, real: Date = new Date()): Promise<Date> {
  const row = await repo.clockRow(db, supplierId);
  return new Date(real.getTime() + (row ? offsetOf(row) : 0));
}
