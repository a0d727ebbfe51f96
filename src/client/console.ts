// The console's client (web/console): the browser transport of the shop (bearer.ts), signed
// in with a console session's token and no API key. Typed by openapi.console.generated.ts:
// the supplier API (which a session calls with its token alone, its member's role giving
// the scopes), the admin API (open to operators' sessions) and /console, nothing else.
import type { Client, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import { createBearerClient, type BearerClientOptions } from './bearer.ts';
import type { paths } from './openapi.console.generated.ts';

export { SurtidoApiError, SurtidoNetworkError, type FieldProblem, type Problem } from './errors.ts';
export type { components, paths } from './openapi.console.generated.ts';

type Method = 'get' | 'put' | 'post' | 'delete';
export type ConsolePath = keyof paths;
export type ConsolePathsWith<M extends Method> = { [P in ConsolePath]: paths[P][M] extends undefined ? never : P }[ConsolePath];
type Init<P extends keyof paths, M extends Method> = MaybeOptionalInit<paths[P], M>;
/** The body of the operation's 2xx answer. */
export type ConsoleResponse<P extends keyof paths, M extends Method> = NonNullable<FetchResponse<NonNullable<paths[P][M]>, {}, `${string}/${string}`>['data']>;
type InitArgs<I> = undefined extends I ? [init?: I] : [init: I];

export type ConsoleClientOptions = BearerClientOptions;

export interface ConsoleClient {
  readonly api: Client<paths>;
  get<P extends ConsolePathsWith<'get'>>(path: P, ...init: InitArgs<Init<P, 'get'>>): Promise<ConsoleResponse<P, 'get'>>;
  /** A write with an Idempotency-Key (a new one per call unless `headers` carries one). */
  post<P extends ConsolePathsWith<'post'>>(path: P, ...init: InitArgs<Init<P, 'post'>>): Promise<ConsoleResponse<P, 'post'>>;
  put<P extends ConsolePathsWith<'put'>>(path: P, ...init: InitArgs<Init<P, 'put'>>): Promise<ConsoleResponse<P, 'put'>>;
  delete<P extends ConsolePathsWith<'delete'>>(path: P, ...init: InitArgs<Init<P, 'delete'>>): Promise<ConsoleResponse<P, 'delete'>>;
}

export function createConsoleClient(options: ConsoleClientOptions): ConsoleClient {
  const { api, call } = createBearerClient<paths>(options);
  return {
    api,
    get: (path, ...init) => call('GET', path, init[0]),
    post: (path, ...init) => call('POST', path, init[0]),
    put: (path, ...init) => call('PUT', path, init[0]),
    delete: (path, ...init) => call('DELETE', path, init[0]),
  };
}
