// The load's HTTP client: round-robin over the API processes (a load balancer's job),
// retries what the service says may be retried (503 with Retry-After, 409
// IDEMPOTENCY_KEY_IN_USE) with the same Idempotency-Key, and counts every attempt per
// kind of operation, so a script can print requests tried, failed and recovered.
import { sleep } from '../../support/wait.ts';
import { fmtMs, percentile } from './lib.ts';

export interface OpStats {
  tried: number;
  ok: number;
  /** Succeeded after at least one failed attempt. */
  recovered: number;
  gaveUp: number;
  attempts: number;
  /** 503 answers, and how many carried Retry-After. */
  unavailable: number;
  withRetryAfter: number;
  /** The slowest 503: "fails fast" means this stays well under a second. */
  unavailableMs: number[];
  inUse: number;
  /** Anything else that went wrong (a 500, a refused connection to the API, no answer in time). */
  unexpected: Map<string, number>;
  okMs: number[];
}

export interface Sample {
  /** ms since the client's t0. */
  at: number;
  kind: string;
  status: number;
  ms: number;
}

export interface OpOptions {
  body?: unknown;
  headers?: Record<string, string>;
  idempotencyKey?: string;
  /** Statuses that count as success (default 200 and 202). */
  expect?: number[];
  /** Give up after retrying this long (default 240 s: longer than an abandoned idempotency key lives). */
  retryForMs?: number;
}

const REQUEST_TIMEOUT_MS = 30_000;

export class LoadClient {
  readonly stats = new Map<string, OpStats>();
  readonly samples: Sample[] = [];
  private next = 0;
  stopping = false;

  constructor(
    private readonly baseUrls: string[],
    readonly t0 = Date.now(),
  ) {}

  private statsOf(kind: string): OpStats {
    let s = this.stats.get(kind);
    if (!s) {
      s = { tried: 0, ok: 0, recovered: 0, gaveUp: 0, attempts: 0, unavailable: 0, withRetryAfter: 0, unavailableMs: [], inUse: 0, unexpected: new Map(), okMs: [] };
      this.stats.set(kind, s);
    }
    return s;
  }

  /** One logical operation, retried until it succeeds, fails for good, or retryForMs passes. */
  async op(kind: string, method: string, path: string, options: OpOptions = {}): Promise<{ status: number; body: any } | undefined> {
    const s = this.statsOf(kind);
    const expect = options.expect ?? [200, 202];
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = { ...options.headers };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const deadline = Date.now() + (options.retryForMs ?? 240_000);
    s.tried++;
    let failures = 0;
    for (;;) {
      const baseUrl = this.baseUrls[this.next++ % this.baseUrls.length]!;
      s.attempts++;
      const started = performance.now();
      let status = 0;
      let text = '';
      let retryAfter: string | null = null;
      let problem = '';
      try {
        const res = await fetch(baseUrl + path, { method, headers, body: payload, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        text = await res.text();
        status = res.status;
        retryAfter = res.headers.get('retry-after');
      } catch (error) {
        const e = error as Error & { cause?: { code?: string } };
        problem = e.name === 'TimeoutError' ? `no answer in ${REQUEST_TIMEOUT_MS / 1000} s` : `network: ${e.cause?.code ?? e.message}`;
      }
      const ms = performance.now() - started;
      this.samples.push({ at: Date.now() - this.t0, kind, status, ms });
      if (expect.includes(status)) {
        s.ok++;
        s.okMs.push(ms);
        if (failures > 0) s.recovered++;
        return { status, body: text ? JSON.parse(text) : undefined };
      }
      failures++;
      let retryable = false;
      let wait = 1000;
      if (status === 503) {
        s.unavailable++;
        s.unavailableMs.push(ms);
        if (retryAfter !== null) {
          s.withRetryAfter++;
          wait = Math.max(250, Number(retryAfter) * 1000 || 1000);
        }
        retryable = true;
      } else if (status === 409 && text.includes('IDEMPOTENCY_KEY_IN_USE')) {
        s.inUse++;
        retryable = true;
      } else {
        const key = problem || `${status} ${safeCode(text)}`;
        s.unexpected.set(key, (s.unexpected.get(key) ?? 0) + 1);
        // A refused connection or a timeout may pass (the API process is not meant to die
        // here, so it is counted); retried for 10 s, not for the whole retry window.
        retryable = status === 0 && failures <= 10;
      }
      if (!retryable || Date.now() > deadline) {
        s.gaveUp++;
        return undefined;
      }
      await sleep(wait);
    }
  }

  /** Rows for the figures table: one per kind of operation. */
  rows(): (string | number)[][] {
    return [...this.stats.entries()].map(([kind, s]) => [
      kind,
      s.tried,
      s.attempts,
      s.unavailable,
      s.unavailable ? `${s.withRetryAfter}/${s.unavailable}` : 'n/a',
      s.unavailable ? fmtMs(Math.max(...s.unavailableMs)) : 'n/a',
      s.inUse,
      [...s.unexpected.values()].reduce((a, b) => a + b, 0),
      s.recovered,
      s.gaveUp,
      fmtMs(percentile(s.okMs, 50)),
      fmtMs(percentile(s.okMs, 99)),
    ]);
  }

  static header = ['operation', 'tried', 'attempts', '503', 'with Retry-After', 'slowest 503', '409 in use', 'unexpected', 'recovered', 'gave up', 'p50 ok', 'p99 ok'];

  unexpected(): string[] {
    const out: string[] = [];
    for (const [kind, s] of this.stats) for (const [what, n] of s.unexpected) out.push(`${kind}: ${what} ×${n}`);
    return out;
  }

  total(field: 'tried' | 'ok' | 'recovered' | 'gaveUp' | 'attempts' | 'unavailable' | 'inUse'): number {
    let n = 0;
    for (const s of this.stats.values()) n += s[field];
    return n;
  }

  totalUnexpected(): number {
    let n = 0;
    for (const s of this.stats.values()) for (const v of s.unexpected.values()) n += v;
    return n;
  }
}

function safeCode(text: string): string {
  try {
    return String(JSON.parse(text).code ?? '');
  } catch {
    return text.slice(0, 60);
  }
}
