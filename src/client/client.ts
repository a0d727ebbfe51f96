// The typed client: openapi-fetch over the generated `paths`, with one transport that
// does what every call needs (docs/conventions.md): both credentials (`x-api-key` and
// `Authorization: Bearer`), a cached token renewed before expiry, an Idempotency-Key on
// every write, and retries (transport.ts). `get`/`post`/`put` answer the body or throw a
// SurtidoApiError; `api` is the raw openapi-fetch client for callers who want the
// `{ data, error, response }` form.
import createClient, { type Client, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import { batchFailures, waitForBatch, type BatchOutcome, type BatchProgress, type BatchStatus, type FailedBatchItem, type WaitOptions } from './batches.ts';
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
/** The paths that have this method (absent methods are `?: never` in the generated types). */
export type PathsWith<M extends Method> = { [P in keyof paths]: paths[P][M] extends undefined ? never : P }[keyof paths];
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Init<P extends keyof paths, M extends Method> = MaybeOptionalInit<paths[P], M>;
/** The init argument is optional exactly when the operation needs no params and no body. */
type InitArgs<I> = undefined extends I ? [init?: I] : [init: I];
/** The body of the operation's 2xx answer. */
export type ResponseData<P extends keyof paths, M extends Method> = NonNullable<FetchResponse<Operation<P, M>, {}, `${string}/${string}`>['data']>;
/** The JSON body an operation takes. */
export type RequestBody<P extends keyof paths, M extends Method> = Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

type LoginAnswer = paths['/login']['post']['responses'][200]['content']['application/json'];

export interface SurtidoClient {
  /** The raw openapi-fetch client: `{ data, error, response }`, never throws for an error answer. */
  readonly api: Client<paths>;
  get<P extends PathsWith<'get'>>(path: P, ...init: InitArgs<Init<P, 'get'>>): Promise<ResponseData<P, 'get'>>;
  post<P extends PathsWith<'post'>>(path: P, ...init: InitArgs<Init<P, 'post'>>): Promise<ResponseData<P, 'post'>>;
  put<P extends PathsWith<'put'>>(path: P, ...init: InitArgs<Init<P, 'put'>>): Promise<ResponseData<P, 'put'>>;
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

  async function call(method: 'GET' | 'POST' | 'PUT', path: string, init: unknown): Promise<any> {
    const { data, error, response } = await (api.request as (m: string, p: string, i: unknown) => Promise<FetchResponse<any, {}, any>>)(method, path, init);
    if (error !== undefined || !response.ok) throw SurtidoApiError.from(response, error, method);
    return data;
  }

  const client: SurtidoClient = {
    api,
    get: (path, ...init) => call('GET', path, init[0]),
    post: (path, ...init) => call('POST', path, init[0]),
    put: (path, ...init) => call('PUT', path, init[0]),
    token: () => tokens.token(),
    login: () => tokens.renew(),
    scopes: () => tokens.scopes(),
    batchStatus: (id) => client.get('/batch/{uuid}/status', { params: { path: { uuid: id } } }),
    batchFailures: (id) => batchFailures(client, id),
    waitForBatch: (ids, onProgress, waitOptions) => waitForBatch(client, [ids].flat(), onProgress, waitOptions),
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
