// `surtido/client` in a browser: the store app's client. No Node built-ins and no webhook
// verification (standardwebhooks is Node's side); the same generated types, errors and
// retrying transport as the supplier client, but signed in as a store user: the bearer
// token comes from the caller (the app keeps it), there is no API key and no login call.
//
// Only the `/app` paths are typed here, so the shop cannot call a supplier route by mistake.
import type { Client, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import { createBearerClient } from './bearer.ts';
import type { paths } from './openapi.app.generated.ts';
import type { RetryOptions } from './transport.ts';

export { SurtidoApiError, SurtidoNetworkError, type FieldProblem, type Problem } from './errors.ts';
export type { components, paths } from './openapi.app.generated.ts';

type Method = 'get' | 'put' | 'post' | 'delete';
/** The store app's paths: `/app/...`. */
export type AppPath = keyof paths;
export type AppPathsWith<M extends Method> = { [P in AppPath]: paths[P][M] extends undefined ? never : P }[AppPath];
type Init<P extends keyof paths, M extends Method> = MaybeOptionalInit<paths[P], M>;
/** The body of the operation's 2xx answer. */
export type ResponseData<P extends keyof paths, M extends Method> = NonNullable<FetchResponse<NonNullable<paths[P][M]>, {}, `${string}/${string}`>['data']>;
type InitArgs<I> = undefined extends I ? [init?: I] : [init: I];

export interface StoreAppClientOptions {
  /** The service's base URL; in a page served by the service, its origin. */
  baseUrl: string;
  /** The store user's access token, read on each call (undefined: not signed in). */
  token: () => string | undefined;
  /** Called when the service refused the token (expired, person removed): sign out. */
  onUnauthorized?: () => void;
  retry?: Partial<RetryOptions>;
  /** One attempt's time limit (default 30 s). */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

export interface StoreAppClient {
  readonly api: Client<paths>;
  get<P extends AppPathsWith<'get'>>(path: P, ...init: InitArgs<Init<P, 'get'>>): Promise<ResponseData<P, 'get'>>;
  /** A write; pass `headers: {'idempotency-key': k}` to keep one key across the user's retries of one submit. */
  post<P extends AppPathsWith<'post'>>(path: P, ...init: InitArgs<Init<P, 'post'>>): Promise<ResponseData<P, 'post'>>;
  /** A replacing write (the person's preferences). */
  put<P extends AppPathsWith<'put'>>(path: P, ...init: InitArgs<Init<P, 'put'>>): Promise<ResponseData<P, 'put'>>;
  /** An ending (signing out: DELETE /app/session). */
  delete<P extends AppPathsWith<'delete'>>(path: P, ...init: InitArgs<Init<P, 'delete'>>): Promise<ResponseData<P, 'delete'>>;
}

export function createStoreAppClient(options: StoreAppClientOptions): StoreAppClient {
  const { api, call } = createBearerClient<paths>(options);
  return {
    api,
    get: (path, ...init) => call('GET', path, init[0]),
    post: (path, ...init) => call('POST', path, init[0]),
    put: (path, ...init) => call('PUT', path, init[0]),
    delete: (path, ...init) => call('DELETE', path, init[0]),
  };
}
