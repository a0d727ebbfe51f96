// One HTTP attempt of one delivery, with undici: POST, a deadline for the whole exchange,
// no redirects followed (a 3xx is a failed attempt), the address policy applied to the
// address actually connected to, and the first 1 KiB of the answer kept. It never
// throws for a failed attempt: every outcome is a value to record. The URL's user and
// password go as Basic credentials, and no outcome repeats the URL (what attempts record
// is shown to every reader of the delivery log).
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { basicCredentials } from './webhooks.url.ts';
import { allowEveryAddress, bareHost, checkedLookup, refusePrivateAddresses, refusalIn, findCause, type AddressPolicy } from '../../lib/outbound-addresses.ts';

export const RESPONSE_BODY_LIMIT = 1024;
/** An answer is read (and all but its first 1 KiB thrown away) up to this size, so the connection can be reused. */
const DRAIN_LIMIT = 64 * 1024;

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  /** From sending the request to the end of what was read of the answer. */
  latencyMs: number;
  responseBody: string | null;
  /** Why the attempt failed without an HTTP answer (timeout, refused connection, refused address, TLS ...). */
  error: string | null;
  retryAfter: string | undefined;
}

export interface SenderOptions {
  timeoutMs: number;
  allowPrivateAddresses: boolean;
}

export class WebhookSender {
  private readonly agent: Agent;
  private readonly policy: AddressPolicy;

  constructor(private readonly options: SenderOptions) {
    this.policy = options.allowPrivateAddresses ? allowEveryAddress : refusePrivateAddresses;
    this.agent = new Agent({
      connect: { lookup: checkedLookup(this.policy), timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  get timeoutMs() {
    return this.options.timeoutMs;
  }

  private closed = false;

  /** Idempotent. */
  async close() {
    if (this.closed) return;
    this.closed = true;
    await this.agent.close();
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.max(0, Math.round(performance.now() - started));
    const failed = (error: string): AttemptOutcome => ({ ok: false, statusCode: null, latencyMs: elapsed(), responseBody: null, error, retryAfter: undefined });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return failed('the webhook URL is not valid');
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return failed(`only http and https URLs are called, not ${target.protocol}`);
    // An IP literal is connected to without a DNS lookup, so it is checked here.
    const host = bareHost(target.hostname);
    const refused = isIP(host) ? this.policy(host) : undefined;
    if (refused) return failed(refusedMessage(refused));

    // undici would drop them silently; the receiver gets them as curl would send them.
    const authorization = basicCredentials(target);
    const sent = authorization ? { ...headers, authorization } : headers;

    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const response = await request(target, { method: 'POST', headers: sent, body, dispatcher: this.agent, signal: deadline });
      const kept = await readPrefix(response.body);
      const statusCode = response.statusCode;
      const retryAfter = header(response.headers['retry-after']);
      return { ok: statusCode >= 200 && statusCode <= 299, statusCode, latencyMs: elapsed(), responseBody: kept, error: null, retryAfter };
    } catch (error) {
      if (deadline.aborted || isTimeout(error)) return failed(`no answer within ${formatMs(this.options.timeoutMs)}`);
      const refusal = refusalIn(error);
      if (refusal) return failed(refusedMessage(refusal.message));
      return failed(describe(error));
    }
  }
}

const refusedMessage = (reason: string) => `refused: ${reason} (ALLOW_PRIVATE_ADDRESSES is off)`;

async function readPrefix(body: AsyncIterable<Buffer>): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk);
    size += chunk.length;
    // Reading the rest lets the connection be reused; past DRAIN_LIMIT, leaving the loop closes it.
    if (size >= DRAIN_LIMIT) break;
  }
  if (size === 0) return null;
  return Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const formatMs = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  const name = (error as { name?: string } | null)?.name;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || name === 'TimeoutError';
}


/** A short, stable description of a transport failure: its code and message, nothing internal. */
function describe(error: unknown): string {
  const withCode = findCause(error, (e) => typeof (e as { code?: unknown }).code === 'string') as (Error & { code: string }) | undefined;
  const e = withCode ?? (error instanceof Error ? error : new Error(String(error)));
  const code = (e as { code?: string }).code;
  const text = e.message || (e instanceof AggregateError ? e.errors.map((x: Error) => x.message).join('; ') : '');
  return (code && !text.includes(code) ? `${code}: ${text}` : text || code || 'the request failed').slice(0, 500);
}
