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
// Listening and forgetting: src/lib/forget-on-notify.ts.
import { ForgetOnNotify } from '../../lib/forget-on-notify.ts';

export const CREDENTIALS_REVOKED = 'credentials_revoked';

export class LiveCredentials extends ForgetOnNotify {
  private readonly live = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly ttlMs = 10_000,
    private readonly maxEntries = 10_000,
  ) {
    super(CREDENTIALS_REVOKED);
  }

  /** Forgets every pair (this process revoked one, or a revocation was heard). */
  protected dropAll() {
    this.live.clear();
  }

  /** True when the pair was proven live within ttlMs and no revocation was heard since. */
  knows(pair: string): boolean {
    if (!this.isListening) return false;
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
    if (!this.isListening || checkpoint !== this.generation) return;
    if (this.live.size >= this.maxEntries) this.live.delete(this.live.keys().next().value!);
    this.live.set(pair, this.now() + this.ttlMs);
  }
}
