// Group commit: single-row writes that arrive together are written together, by one
// statement and one commit, instead of one of each per write. Under load most of a small
// write's cost is per statement (its round trip, the executor's start-up, the commit's
// WAL flush), not per row, so a group of n costs far less than n writes.
//
// Invariants:
// - A caller's promise settles only after its item's statement has committed or failed:
//   an answer sent on it means the write is durable, as without grouping.
// - The items of a group are written all or none (one statement is atomic). When the
//   database refuses the group's data (SQLSTATE class 22, data exception, or 23, integrity
//   constraint violation: one item's store deleted, say), nothing was written, and each
//   item is written again alone, so only the item at fault fails, with its own error.
//   Any other failure (a lost connection, the server shutting down) fails every item of
//   the group, as it would have failed each alone: after a lost connection the statement
//   may have committed, so writing again could write twice.
// - Items are grouped by arrival: those submitted in one turn of the event loop, and
//   those that arrive while groups are being written, up to `maxItems` a group. With no
//   group being written, a group starts on the next turn (setImmediate, not a timer);
//   while some are, another starts only once `minItemsWhileBusy` items wait (and at most
//   `maxInFlight` groups are written at once), else when one of them ends.
import { pgErrorCode } from './errors.ts';

export interface GroupCommitOptions {
  /** The most items one statement writes. */
  maxItems: number;
  /** The most groups being written at once (each holds a pooled connection). */
  maxInFlight: number;
  /**
   * While a group is being written, another starts only once this many items wait: the
   * groups stay large while the database keeps up, and overlap when its commits slow down.
   */
  minItemsWhileBusy: number;
}

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/** The database refused the data itself: the statement wrote nothing, and an item alone may succeed. */
const refusedData = (error: unknown) => /^2[23]/.test(pgErrorCode(error) ?? '');

export class GroupCommit<T, R> {
  private readonly waiting: Waiting<T, R>[] = [];
  private inFlight = 0;
  private scheduled = false;

  /** `write` writes its items with one statement and answers their results in the same order. */
  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly options: GroupCommitOptions,
  ) {}

  /** Writes `item` with the others that arrive with it; settles once its statement has committed (or failed). */
  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** A group may start: something waits, a slot is free, and either nothing is being written or enough waits. */
  private mayStart() {
    const { maxInFlight, minItemsWhileBusy } = this.options;
    return this.waiting.length > 0 && this.inFlight < maxInFlight && (this.inFlight === 0 || this.waiting.length >= minItemsWhileBusy);
  }

  private schedule() {
    if (this.scheduled || !this.mayStart()) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.mayStart()) {
        const group = this.waiting.splice(0, this.options.maxItems);
        this.inFlight++;
        void this.writeGroup(group).finally(() => {
          this.inFlight--;
          this.schedule();
        });
      }
    });
  }

  private async writeGroup(group: Waiting<T, R>[]) {
    try {
      const results = await this.write(group.map((w) => w.item));
      if (results.length !== group.length) throw new Error(`a group of ${group.length} was answered ${results.length} results`);
      group.forEach((w, n) => w.resolve(results[n]!));
    } catch (error) {
      if (group.length === 1 || !refusedData(error)) {
        for (const w of group) w.reject(error);
        return;
      }
      await Promise.all(group.map((w) => this.writeGroup([w])));
    }
  }
}
