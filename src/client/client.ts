// The typed client: openapi-fetch over the generated `paths`, with one transport that
// does what every call needs (docs/conventions.md): both credentials (`x-api-key` and
// `Authorization: Bearer`), a cached token renewed before expiry, an Idempotency-Key on
// every write, and retries (transport.ts). `get`/`post`/`put` answer the body or throw a
// SurtidoApiError; `api` is the raw openapi-fetch client for callers who want the
// `{ data, error, response }` form.
import createClient, { type Client } from 'openapi-fetch';
import { batchFailures, waitForBatch, type BatchOutcome, type BatchProgress, type BatchReader, type BatchStatus, type FailedBatchItem, type WaitOptions } from './batches.ts';
import { callThrough, methodsOf, type AnswerOf, type BodyOf, type PathsOf, type Reads, type Writes } from './calls.ts';
import { SurtidoApiError } from './errors.ts';
import type { paths } from './openapi.generated.ts';
import { TokenCache, type TokenGrant } from './tokens.ts';
import { DEFAULT_RETRY, sendWithRetries, type RetryOptions, type TransportOptions } from './transport.ts';

export interface SurtidoClientOptions {
  /** The service's base URL, e.g. `https://api.surtido.example`. */
  baseUrl: string;
  apiKey: string;
  clientId: string;
  clientSecret: string;
  retry?: Partial<RetryOptions>;
  /** One attempt's time limit (default 60 s); an attempt over it is retried. */
  timeoutMs?: number;
  /** Another fetch (a proxy agent, tests). */
  fetch?: typeof globalThis.fetch;
  /** The clock the token cache renews by (tests move it). */
  now?: () => number;
  onRetry?: TransportOptions['onRetry'];
  userAgent?: string;
}

type Method = 'get' | 'put' | 'post';
/** The paths that have this method. */
export type PathsWith<M extends Method> = PathsOf<paths, M>;
/** The body of the operation's 2xx answer. */
export type ResponseData<P extends keyof paths, M extends Method> = AnswerOf<paths, P, M>;
/** The JSON body an operation takes. */
export type RequestBody<P extends keyof paths, M extends Method> = BodyOf<paths, P, M>;

type LoginAnswer = paths['/login']['post']['responses'][200]['content']['application/json'];

export interface SurtidoClient extends Reads<paths>, Writes<paths> {
  /** The raw openapi-fetch client: `{ data, error, response }`, never throws for an error answer. */
  readonly api: Client<paths>;
  /** A valid access token (cached; logs in when there is none or it is near its end). */
  token(): Promise<string>;
  /** Logs in now, replacing the cached token. */
  login(): Promise<string>;
  /** The scopes of the current token (after the first call). */
  scopes(): string[] | undefined;
  batchStatus(id: string): Promise<BatchStatus>;
  /** Every failed item of a batch, with its code and message, in submission order. */
  batchFailures(id: string): Promise<FailedBatchItem[]>;
  /** Polls until every batch has ended; answers their statuses and failed items. */
  waitForBatch(ids: string | string[], onProgress?: (progress: BatchProgress) => void, options?: WaitOptions): Promise<BatchOutcome>;
}

export function createSurtidoClient(options: SurtidoClientOptions): SurtidoClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const transport: TransportOptions = {
    fetch: options.fetch ?? globalThis.fetch,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    timeoutMs: options.timeoutMs ?? 60_000,
    onRetry: options.onRetry,
  };
  const userAgent = options.userAgent ?? 'surtido-client';

  const tokens = new TokenCache(async () => {
    const url = `${baseUrl}/login`;
    const headers = new Headers({ 'content-type': 'application/json', 'x-api-key': options.apiKey, 'user-agent': userAgent });
    const body = JSON.stringify({ clientId: options.clientId, clientSecret: options.clientSecret });
    const response = await sendWithRetries({ method: 'POST', url, headers, body }, transport);
    const parsed = await readBody(response);
    if (!response.ok) throw SurtidoApiError.from(response, parsed, 'POST');
    return parsed as LoginAnswer satisfies TokenGrant;
  }, options.now ?? Date.now);

  async function authorizedFetch(request: Request): Promise<Response> {
    const body = request.body ? await request.arrayBuffer() : undefined;
    const headers = new Headers(request.headers);
    headers.set('x-api-key', options.apiKey);
    headers.set('user-agent', userAgent);
    // One key per logical write, the same on every retry: that is what makes retrying a
    // write that may already have been done safe.
    if ((request.method === 'POST' || request.method === 'PUT') && !headers.has('idempotency-key')) headers.set('idempotency-key', globalThis.crypto.randomUUID());
    for (let renewed = false; ; renewed = true) {
      const token = await tokens.token();
      headers.set('authorization', `Bearer ${token}`);
      const response = await sendWithRetries({ method: request.method, url: request.url, headers, body, signal: request.signal }, transport);
      if (response.status !== 401 || renewed) return response;
      // Refused although the cache thought it fresh (revoked, or clocks apart): one new login.
      tokens.invalidate(token);
      await response.body?.cancel();
    }
  }

  const api = createClient<paths>({ baseUrl, fetch: authorizedFetch });
  const { get, post, put } = methodsOf(callThrough(api));
  const batches: BatchReader = {
    status: (id) => client.get('/batch/{uuid}/status', { params: { path: { uuid: id } } }),
    detail: (id, query) => client.get('/batch/{uuid}/detail', { params: { path: { uuid: id }, query } }),
  };
  const client: SurtidoClient = {
    api,
    get,
    post,
    put,
    token: () => tokens.token(),
    login: () => tokens.renew(),
    scopes: () => tokens.scopes(),
    batchStatus: batches.status,
    batchFailures: (id) => batchFailures(batches, id),
    waitForBatch: (ids, onProgress, waitOptions) => waitForBatch(batches, [ids].flat(), onProgress, waitOptions),
  };
  return client;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text; // not JSON (a proxy's page): kept as text for the error's detail
  }
}
