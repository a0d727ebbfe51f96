// `surtido/client` in a browser: the store app's client. No Node built-ins and no webhook
// verification (standardwebhooks is Node's side); the same generated types, errors and
// retrying transport as the supplier client, but signed in as a store user: the bearer
// token comes from the caller (the app keeps it), there is no API key and no login call.
//
// Only the `/app` paths are typed here, so the shop cannot call a supplier route by mistake.
import type { Client } from 'openapi-fetch';
import { createBearerClient, type BearerClientOptions } from './bearer.ts';
import { methodsOf, type AnswerOf, type Deletes, type Method, type PathsOf, type Reads, type Writes } from './calls.ts';
import type { paths } from './openapi.app.generated.ts';

export { SurtidoApiError, SurtidoNetworkError, type FieldProblem, type Problem } from './errors.ts';
export type { components, paths } from './openapi.app.generated.ts';

/** The store app's paths: `/app/...`. */
export type AppPath = keyof paths;
export type AppPathsWith<M extends Method> = PathsOf<paths, M>;
/** The body of the operation's 2xx answer. */
export type ResponseData<P extends AppPath, M extends Method> = AnswerOf<paths, P, M>;

/** The token is the store user's; signing out is DELETE /app/session. */
export type StoreAppClientOptions = BearerClientOptions;

/** A write's caller may pass `headers: {'idempotency-key': k}` to keep one key across the user's retries of one submit. */
export interface StoreAppClient extends Reads<paths>, Writes<paths>, Deletes<paths> {
  readonly api: Client<paths>;
}

export function createStoreAppClient(options: StoreAppClientOptions): StoreAppClient {
  const { api, call } = createBearerClient<paths>(options);
  return { api, ...methodsOf(call) };
}
