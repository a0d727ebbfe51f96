// The browser clients' one transport (browser.ts for the shop, console.ts for the
// console): a bearer token the app keeps, an Idempotency-Key on every POST (the same on
// each automatic retry), the retrying transport, and a callback when the service refuses
// the token. No Node built-ins.
import createClient, { type Client } from 'openapi-fetch';
import { callThrough } from './calls.ts';
import { DEFAULT_RETRY, sendWithRetries, type RetryOptions, type TransportOptions } from './transport.ts';

export interface BearerClientOptions {
  /** The service's base URL; in a page served by the service, its origin. */
  baseUrl: string;
  /** The access token, read on each call (undefined: not signed in). */
  token: () => string | undefined;
  /** Called when the service refused the token (expired, ended, person removed): sign out. */
  onUnauthorized?: () => void;
  retry?: Partial<RetryOptions>;
  /** One attempt's time limit (default 30 s). */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

/** The openapi-fetch client over the transport, and `call`, which answers a 2xx body or throws SurtidoApiError. */
export function createBearerClient<Paths extends {}>(options: BearerClientOptions) {
  const transport: TransportOptions = {
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    retry: { ...DEFAULT_RETRY, retries: 2, ...options.retry },
    timeoutMs: options.timeoutMs ?? 30_000,
  };

  async function signedFetch(request: Request): Promise<Response> {
    const body = request.body ? await request.text() : undefined;
    const headers = new Headers(request.headers);
    const token = options.token();
    if (token) headers.set('authorization', `Bearer ${token}`);
    // One key per logical write, the same on every automatic retry.
    if (request.method === 'POST' && !headers.has('idempotency-key')) headers.set('idempotency-key', globalThis.crypto.randomUUID());
    const response = await sendWithRetries({ method: request.method, url: request.url, headers, body, signal: request.signal }, transport);
    if (response.status === 401 && token) options.onUnauthorized?.();
    return response;
  }

  const api: Client<Paths> = createClient<Paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: signedFetch });
  return { api, call: callThrough(api) };
}
