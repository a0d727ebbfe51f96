// What the store side reads on every request and rarely changes, kept in memory: a
// store's context (membership, price list, groupers), the promotions in force and the
// catalogue of a price list as seen through a stock grouper (shared by every store with
// the same ones, computed once per change).
//
// Freshness (README.md, src/lib/forget-on-notify.ts): every write to the tables these come
// from sends NOTIFY store_data_changed from its transaction (migration 0016); each process
// forgets everything when it hears one. A process also forgets at once, before answering,
// when it answers a write itself or its worker commits a batch chunk (`forget()`), so its
// own writes never race the notification. A value being computed when a forget happened
// is handed to the requests already waiting for it but never kept: it may have been read
// before the write committed. A process that cannot hear (listening connection down or
// not up yet) keeps nothing and reads the database on every request. Every value is also
// refreshed after `ttlMs` (answered meanwhile, never past twice ttlMs), which bounds how
// long a lost notification could go unnoticed.
import type { Database } from '../../db/database.ts';
import { ForgetOnNotify } from '../../lib/forget-on-notify.ts';

export const STORE_DATA_CHANGED = 'store_data_changed';

interface Entry {
  value: Promise<unknown>;
  /** Answered as is until then; refreshed in the background until ttlMs later. */
  until: number;
  refreshing: boolean;
}

export class StoreCache extends ForgetOnNotify {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly now: () => number,
    private readonly ttlMs: number,
    private readonly maxEntries = 5_000,
  ) {
    super(STORE_DATA_CHANGED);
  }

  override async start(database: Database) {
    if (this.ttlMs === 0) return; // caching off: every read goes to the database
    await super.start(database);
  }

  protected dropAll() {
    this.entries.clear();
  }

  /**
   * The value under `key`: kept if nothing changed since it was computed; otherwise
   * computed once (concurrent callers share the computation) and kept unless a change was
   * heard while computing. Past ttlMs an entry is refreshed in the background while it is
   * still answered, so a long computation (a whole catalogue) never stalls every reader;
   * past twice ttlMs it is not answered any more.
   */
  get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    if (!this.isListening) return compute();
    const now = this.now();
    const found = this.entries.get(key);
    if (found && found.until + this.ttlMs > now) {
      if (found.until <= now && !found.refreshing) {
        found.refreshing = true;
        this.load(key, compute, found);
      }
      return found.value as Promise<T>;
    }
    return this.load(key, compute).value as Promise<T>;
  }

  private load(key: string, compute: () => Promise<unknown>, stale?: Entry): Entry {
    const generation = this.generation;
    const entry: Entry = { value: compute(), until: this.now() + this.ttlMs, refreshing: false };
    if (!stale) {
      if (this.entries.size >= this.maxEntries && !this.entries.has(key)) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, entry);
    }
    entry.value.then(
      () => {
        if (generation !== this.generation) {
          if (this.entries.get(key) === entry) this.entries.delete(key);
        } else if (stale && this.entries.get(key) === stale) {
          this.entries.set(key, entry);
        }
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
        if (stale) stale.refreshing = false;
      },
    );
    return entry;
  }
}
