// What the typed clients share (client.ts for the supplier API, browser.ts for the store
// app, console.ts for the console): the types that turn a generated `paths` into typed
// get/post/put/delete, and the one call behind them, which answers the 2xx body or
// throws a SurtidoApiError.
import type { Client, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import { SurtidoApiError } from './errors.ts';

export type Method = 'get' | 'put' | 'post' | 'delete';
/** The paths that have this method (absent methods are `?: never` in the generated types). */
export type PathsOf<Paths, M extends Method> = { [P in keyof Paths]: M extends keyof Paths[P] ? (Paths[P][M] extends undefined ? never : P) : never }[keyof Paths];
type Operation<Paths, P, M extends Method> = P extends keyof Paths ? NonNullable<Paths[P][M & keyof Paths[P]]> : never;
export type InitOf<Paths, P, M extends Method> = P extends keyof Paths ? MaybeOptionalInit<Paths[P], M & keyof Paths[P]> : never;
/** The init argument is optional exactly when the operation needs no params and no body. */
export type InitArgs<I> = undefined extends I ? [init?: I] : [init: I];
/** The body of the operation's 2xx answer. */
export type AnswerOf<Paths, P, M extends Method> = NonNullable<FetchResponse<Operation<Paths, P, M> & Record<string, any>, {}, `${string}/${string}`>['data']>;
/** The JSON body an operation takes. */
export type BodyOf<Paths, P, M extends Method> = Operation<Paths, P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export interface Reads<Paths> {
  get<P extends PathsOf<Paths, 'get'>>(path: P, ...init: InitArgs<InitOf<Paths, P, 'get'>>): Promise<AnswerOf<Paths, P, 'get'>>;
}

export interface Writes<Paths> {
  /** A write with an Idempotency-Key (a new one per call unless `headers` carries one). */
  post<P extends PathsOf<Paths, 'post'>>(path: P, ...init: InitArgs<InitOf<Paths, P, 'post'>>): Promise<AnswerOf<Paths, P, 'post'>>;
  /** A replacing write. */
  put<P extends PathsOf<Paths, 'put'>>(path: P, ...init: InitArgs<InitOf<Paths, P, 'put'>>): Promise<AnswerOf<Paths, P, 'put'>>;
}

export interface Deletes<Paths> {
  delete<P extends PathsOf<Paths, 'delete'>>(path: P, ...init: InitArgs<InitOf<Paths, P, 'delete'>>): Promise<AnswerOf<Paths, P, 'delete'>>;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Call = (method: HttpMethod, path: string, init: unknown) => Promise<any>;

/** Sends a request through `api`: the 2xx answer, its body parsed, or a SurtidoApiError. */
export function answerThrough(api: Client<any>) {
  const request = api.request as (method: string, path: string, init: unknown) => Promise<FetchResponse<any, {}, any>>;
  return async (method: HttpMethod, path: string, init: unknown): Promise<{ data: unknown; response: Response }> => {
    const { data, error, response } = await request(method, path, init);
    if (error !== undefined || !response.ok) throw SurtidoApiError.from(response, error, method);
    return { data, response };
  };
}

/** The call every typed method makes: the 2xx answer's body, or a SurtidoApiError. */
export function callThrough(api: Client<any>): Call {
  const answer = answerThrough(api);
  return async (method, path, init) => (await answer(method, path, init)).data;
}

/** get, post, put and delete over `call`; a client's interface gives them their types. */
export function methodsOf(call: Call) {
  return {
    get: (path: string, init?: unknown) => call('GET', path, init),
    post: (path: string, init?: unknown) => call('POST', path, init),
    put: (path: string, init?: unknown) => call('PUT', path, init),
    delete: (path: string, init?: unknown) => call('DELETE', path, init),
  };
}
