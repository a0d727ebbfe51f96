// When a failed delivery is tried again (src/modules/webhooks/README.md): pure functions, unit-tested
// without a database.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The wait after the 1st, 2nd ... 9th failed attempt; after the 10th the delivery has failed. */
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 14 * HOUR, 20 * HOUR, 24 * HOUR] as const;

/** ±20 %: retries of many deliveries that failed together spread out instead of arriving together. */
export const JITTER = 0.2;

/** A Retry-After is honoured up to this long. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

/**
 * The wait before the next attempt after `failedAttempts` attempts failed, or undefined
 * when there is none (the delivery has failed for good). `random` is in [0, 1).
 */
export function retryDelayMs(failedAttempts: number, maxAttempts: number, random: () => number = Math.random): number | undefined {
  if (failedAttempts >= maxAttempts) return undefined;
  const base = RETRY_DELAYS_MS[Math.min(failedAttempts, RETRY_DELAYS_MS.length) - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/**
 * A Retry-After header (delay-seconds or an HTTP date) in milliseconds from `now`, capped
 * at 24 h; undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * SECOND;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** Only these statuses carry a Retry-After the schedule must respect. */
export const honoursRetryAfter = (status: number | null) => status === 429 || status === 503;

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  retryAfter: string | undefined;
}

export interface NextState {
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: Date;
  lastError: string | null;
  /** 410 Gone: the supplier's webhook is disabled at once. */
  disableWebhook: boolean;
}

/**
 * The delivery's state after an attempt. `attempts` counts the attempts before this one;
 * `finishedAt` is when this one ended, so a retry waits its delay after the failure.
 */
export function afterAttempt(
  input: { attempts: number; maxAttempts: number; result: AttemptResult; finishedAt: Date },
  random: () => number = Math.random,
): NextState {
  const { result, finishedAt } = input;
  if (result.ok) return { status: 'delivered', nextAttemptAt: finishedAt, lastError: null, disableWebhook: false };
  const made = input.attempts + 1;
  const gone = result.statusCode === 410;
  const lastError = gone
    ? '410 Gone: the webhook was disabled; pending events go out once it is enabled again'
    : (result.error ?? `the receiver answered ${result.statusCode}`);
  let delay = retryDelayMs(made, input.maxAttempts, random);
  if (delay === undefined) return { status: 'failed', nextAttemptAt: finishedAt, lastError, disableWebhook: gone };
  // After a 410 nothing is sent until an operator enables the webhook again; then at once.
  if (gone) delay = 0;
  const retryAfter = honoursRetryAfter(result.statusCode) ? parseRetryAfter(result.retryAfter, finishedAt) : undefined;
  if (retryAfter !== undefined) delay = Math.max(delay, retryAfter);
  return { status: 'pending', nextAttemptAt: new Date(finishedAt.getTime() + delay), lastError, disableWebhook: gone };
}
