// Progress on stderr, from the batch status counts: on a terminal one line redrawn in
// place (at most ten times a second); otherwise (a CI log, a file) a plain line every
// `intervalMs`, so logs stay readable. stdout is left to the summary.
export interface ProgressState {
  rowsRead: number;
  readingDone: boolean;
  /** Items accepted by the service (in batches). */
  sent: number;
  /** Items that ended (completed + failed), from the batch statuses. */
  processed: number;
  /** Items that failed, plus rows refused before sending. */
  failed: number;
}

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

const WIDTH = 24;

export class ProgressDisplay {
  private last = -Infinity;
  private drawn = false;

  constructor(
    private readonly out: ProgressOutput,
    private readonly options: { enabled: boolean; intervalMs: number; now?: () => number },
  ) {}

  update(state: ProgressState): void {
    if (!this.options.enabled) return;
    const now = (this.options.now ?? Date.now)();
    const every = this.out.isTTY ? 100 : this.options.intervalMs;
    if (now - this.last < every) return;
    this.last = now;
    this.draw(state);
  }

  finish(state: ProgressState): void {
    if (!this.options.enabled) return;
    this.draw(state);
    if (this.out.isTTY && this.drawn) this.out.write('\n');
  }

  private draw(state: ProgressState) {
    const line = render(state);
    this.drawn = true;
    this.out.write(this.out.isTTY ? `\r${line}\x1b[K` : `${line}\n`);
  }
}

export function render(s: ProgressState): string {
  const fraction = s.sent === 0 ? 0 : s.processed / s.sent;
  const filled = Math.round(fraction * WIDTH);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}]`;
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  const reading = s.readingDone ? `${n(s.rowsRead)} rows read` : `reading… ${n(s.rowsRead)} rows`;
  return `${bar} ${percent}  ${n(s.processed)}/${n(s.sent)} applied  ${n(s.failed)} failed  ${reading}`;
}

const n = (value: number) => value.toLocaleString('en-US');
