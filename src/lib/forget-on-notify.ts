// What a process keeps in memory of the database only while it can hear that it changed:
// the rule shared by the store cache, the live credentials and the supplier clocks.
//
// Every change to what is kept sends NOTIFY on one channel from its transaction, delivered
// to every process when it commits. A process forgets everything when it hears one, when
// it starts listening (again, after a lost connection came back) and when it stops: while
// it cannot hear, notifications may be missed, so it keeps nothing and reads the database
// every time. The process that makes a change also forgets at once (`forget()`), so its
// own writes never race the notification. `generation` moves on every forget: a value
// read while it moved may have been read before the change committed, so it is not kept.
import type { Database } from '../db/database.ts';

export abstract class ForgetOnNotify {
  private listening = false;
  private stop: (() => Promise<void>) | undefined;
  /** Moves on every forget (see above). */
  protected generation = 0;

  constructor(private readonly channel: string) {}

  /** Starts hearing the channel; until then, and whenever it cannot hear, nothing is kept. */
  async start(database: Database) {
    this.stop = await database.listen(this.channel, {
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

  async close() {
    this.listening = false;
    this.forget();
    await this.stop?.();
  }

  /** Forgets everything now: what is kept changed (or may have). */
  forget() {
    this.generation++;
    this.dropAll();
  }

  /** Whether changes can be heard now (else nothing is kept). */
  get isListening(): boolean {
    return this.listening;
  }

  /** Drops everything kept. */
  protected abstract dropAll(): void;
}
