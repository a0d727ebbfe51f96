// Sends one logical request, sending it again when that is safe and likely to help:
//
// - no answer (refused, reset, timed out): the request may or may not have been done, so
//   this is safe only because every write carries an Idempotency-Key (client.ts): the
//   service answers a repeated key with the first answer instead of doing the work twice;
// - 429 and 503: refused before any work, after waiting what `Retry-After` says;
// - 409 IDEMPOTENCY_KEY_IN_USE: our own earlier attempt (one we stopped waiting for) is
//   still running on the service; once it ends, the retry gets its answer.
//
// Anything else is the answer. Waits grow exponentially with jitter, so many clients
// refused together do not come back together.
import { SurtidoNetworkError } from './errors.ts';

export interface RetryOptions {
  /** Retries after the first attempt. */
  retries: number;
  /** The first backoff when the service gave no Retry-After; doubled each time. */
  minDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the answer is returned (and thrown). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { retries: 4, minDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

export interface TransportOptions {
  fetch: typeof globalThis.fetch;
  retry: RetryOptions;
  /** One attempt's limit; an attempt over it counts as no answer. */
  timeoutMs: number;
  /** Called before each retry (logging, tests). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string; method: string; url: string }) => void;
}

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Headers;
  body: ArrayBuffer | string | undefined;
  /** The caller's own cancellation: never retried. */
  signal?: AbortSignal | undefined;
}

const RETRIED_STATUSES = new Set([429, 503]);

export async function sendWithRetries(request: OutgoingRequest, options: TransportOptions): Promise<Response> {
  const { retry } = options;
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
      response = await options.fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal });
    } catch (error) {
      if (request.signal?.aborted) throw error;
      if (attempt >= retry.retries) throw new SurtidoNetworkError(request.method, request.url, attempt + 1, error);
      await wait(attempt, backoff(attempt, retry), describe(error));
      continue;
    }
    const reason = await retryReason(response);
    if (!reason || attempt >= retry.retries) return response;
    const asked = retryAfterMs(response.headers.get('retry-after'));
    if (asked !== undefined && asked > retry.maxRetryAfterMs) return response;
    // The answer is dropped: free its connection.
    await response.body?.cancel();
    await wait(attempt, asked === undefined ? backoff(attempt, retry) : asked + spread(asked), reason);
  }

  async function wait(attempt: number, delayMs: number, reason: string) {
    options.onRetry?.({ attempt: attempt + 1, delayMs, reason, method: request.method, url: request.url });
    await sleep(delayMs, request.signal);
  }
}

async function retryReason(response: Response): Promise<string | undefined> {
  if (RETRIED_STATUSES.has(response.status)) return `status ${response.status}`;
  if (response.status === 409) {
    const body = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { code?: unknown } | undefined;
    if (body?.code === 'IDEMPOTENCY_KEY_IN_USE') return 'IDEMPOTENCY_KEY_IN_USE';
  }
  return undefined;
}

/** Exponential, with "equal jitter": between half and all of the doubled delay. */
export function backoff(attempt: number, retry: RetryOptions): number {
  const ceiling = Math.min(retry.maxDelayMs, retry.minDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/** A little more than Retry-After asked: clients refused together do not all return in the same millisecond. */
function spread(askedMs: number): number {
  return Math.round(Math.random() * Math.min(1000, askedMs / 4));
}

/** `Retry-After` as delay-seconds or an HTTP date, in milliseconds from now. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
  return String(error);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
