// The loop every row-owned work queue runs (batches, images): `concurrency` loops each
// claim one unit of work at a time, sleep `pollMs` when there is none, and wake early
// when this process records new work. Correctness stays in the rows the subclass claims
// (leases, FOR UPDATE SKIP LOCKED); the loop only decides when to look.
import { isConnectionError } from '../db/errors.ts';

export interface WorkerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export abstract class PollingWorker {
  protected stopping = false;
  private running: Promise<void>[] = [];
  private readonly sleepers = new Set<() => void>();

  constructor(private readonly loop: { name: string; concurrency: number; pollMs: number; logger: WorkerLogger }) {}

  /** Claims and does one unit of work; false when there was none. */
  protected abstract work(): Promise<boolean>;

  /** Called when the loops start and when stopping begins (a subclass aborts what it can). */
  protected onStart(): void {}
  protected onStopping(): void {}

  start() {
    if (this.running.length > 0) return;
    this.stopping = false;
    this.onStart();
    for (let i = 0; i < this.loop.concurrency; i++) this.running.push(this.run());
  }

  /** Shortens the idle wait: new work was just recorded in this process. */
  wake() {
    for (const wake of [...this.sleepers]) wake();
  }

  /** Lets the work in hand finish (or give itself back) and returns. Idempotent. */
  async stop() {
    this.stopping = true;
    this.onStopping();
    this.wake();
    await Promise.all(this.running);
    this.running = [];
  }

  private async run() {
    const { name, pollMs, logger } = this.loop;
    while (!this.stopping) {
      let worked = false;
      try {
        worked = await this.work();
      } catch (error) {
        (isConnectionError(error) ? logger.warn : logger.error).call(logger, { err: error }, `${name} iteration failed`);
      }
      if (!worked) await this.sleep(pollMs);
    }
  }

  protected sleep(ms: number) {
    if (this.stopping) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }
}
