// Which credential pairs (API key, client) were found live a moment ago, so that most
// supplier requests prove their credentials without a query.
//
// docs/conventions.md: "Revoking a client makes its tokens fail at once". That holds because
// every revocation announces itself: the revoking transaction sends NOTIFY on
// `credentials_revoked`, delivered to every process of the deployment when it commits,
// and each process forgets every pair it knew when it hears one. A process that cannot
// hear (its listening connection is down, or not up yet) does not use what it knew: it
// asks the database on every request, as if there were no cache, until it listens again,
// and it starts over empty then. A pair is also forgotten after `ttlMs` whatever
// happens, which bounds the damage of a notification lost in a way nobody noticed.
// A check that was under way when a revocation was heard is not remembered (the
// generation moved): it may have read the pair before the revocation committed.
import type { Database } from '../../db/database.ts';

export const CREDENTIALS_REVOKED = 'credentials_revoked';

export class LiveCredentials {
  private readonly live = new Map<string, number>();
  private listening = false;
  private generation = 0;
  private stop: (() => Promise<void>) | undefined;

  constructor(
    private readonly now: () => number,
    private readonly ttlMs = 10_000,
    private readonly maxEntries = 10_000,
  ) {}

  /** Starts hearing revocations; until then, and whenever they cannot be heard, nothing is trusted. */
  async start(database: Database) {
    this.stop = await database.listen(CREDENTIALS_REVOKED, {
      notified: () => this.forget(),
      up: () => {
        this.forget();
        this.listening = true;
      },
      down: () => {
        this.listening = false;
        this.forget();
      },
    });
  }

  /** Forgets every pair now (this process revoked one; the others hear the NOTIFY). */
  forget() {
    this.generation++;
    this.live.clear();
  }

  async close() {
    this.listening = false;
    await this.stop?.();
  }

  /** Whether revocations can be heard now (else nothing is trusted). */
  get isListening(): boolean {
    return this.listening;
  }

  /** True when the pair was proven live within ttlMs and no revocation was heard since. */
  knows(pair: string): boolean {
    if (!this.listening) return false;
    const until = this.live.get(pair);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.live.delete(pair);
    return false;
  }

  /** Taken before asking the database; `remember` needs it. */
  checkpoint(): number {
    return this.generation;
  }

  /** Records a pair the database has proven live, unless a revocation was heard since `checkpoint`. */
  remember(pair: string, checkpoint: number) {
    if (!this.listening || checkpoint !== this.generation) return;
    if (this.live.size >= this.maxEntries) this.live.delete(this.live.keys().next().value!);
    this.live.set(pair, this.now() + this.ttlMs);
  }
}
