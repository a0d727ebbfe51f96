// The console's client (web/console): the browser transport of the shop (bearer.ts), signed
// in with a console session's token and no API key. Typed by openapi.console.generated.ts,
// whose `paths` join the supplier API's (which a session calls with its token alone, its
// member's role giving the scopes; all but POST /login) to the admin API's (open to
// operators' sessions) and /console's, nothing else.
import type { Client } from 'openapi-fetch';
import { createBearerClient, type BearerClientOptions } from './bearer.ts';
import { answerThrough, methodsOf, type AnswerOf, type Deletes, type InitArgs, type InitOf, type Method, type PathsOf, type Reads, type Writes } from './calls.ts';
import type { paths } from './openapi.console.generated.ts';

export { SurtidoApiError, SurtidoNetworkError, type FieldProblem, type Problem } from './errors.ts';
export type { components, paths } from './openapi.console.generated.ts';
// The contract's rules a page follows as the service does (one declaration, read by both):
// which scopes each member role holds, and which ticket statuses each change may start from.
export { ROLE_SCOPES, type SupplierScope } from '../modules/auth/scopes.ts';
export { ALLOWED_FROM } from '../modules/tickets/tickets.rules.ts';

export type ConsolePath = keyof paths;
export type ConsolePathsWith<M extends Method> = PathsOf<paths, M>;
type Init<P extends ConsolePath, M extends Method> = InitOf<paths, P, M>;
/** The body of the operation's 2xx answer. */
export type ConsoleResponse<P extends ConsolePath, M extends Method> = AnswerOf<paths, P, M>;

export type ConsoleClientOptions = BearerClientOptions;

type BodyContent<P extends keyof paths, M extends Method> = paths[P][M] extends { requestBody: { content: infer C } } ? C : never;
/** The POST operations whose body is a file of some media type (a file import), not JSON. */
export type ConsoleUploadPath = { [P in ConsolePathsWith<'post'>]: 'application/json' extends keyof BodyContent<P, 'post'> ? never : [BodyContent<P, 'post'>] extends [never] ? never : P }[ConsolePathsWith<'post'>];
/** The media types an upload operation takes. */
export type UploadMediaType<P extends ConsoleUploadPath> = keyof BodyContent<P, 'post'> & string;
/** A file the service answered: its bytes, and the name its content-disposition gives. */
export interface DownloadedFile {
  blob: Blob;
  fileName: string | undefined;
}

/** The file name of a content-disposition header (its RFC 5987 UTF-8 form first). */
export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // A malformed escape: the plain name below.
    }
  }
  return /filename="([^"]*)"/i.exec(disposition)?.[1] ?? /filename=([^;]+)/i.exec(disposition)?.[1]?.trim();
}

export interface ConsoleClient extends Reads<paths>, Writes<paths>, Deletes<paths> {
  readonly api: Client<paths>;
  /** A POST whose body is a file's text sent as it is with its media type (a file import), with an Idempotency-Key. */
  upload<P extends ConsoleUploadPath>(path: P, file: string, mediaType: UploadMediaType<P>, ...init: InitArgs<Omit<Init<P, 'post'>, 'body'>>): Promise<ConsoleResponse<P, 'post'>>;
  /** A GET whose answer is a file (a failed-rows file), as a Blob with its name. */
  download<P extends ConsolePathsWith<'get'>>(path: P, ...init: InitArgs<Init<P, 'get'>>): Promise<DownloadedFile>;
}

export function createConsoleClient(options: ConsoleClientOptions): ConsoleClient {
  const { api, call } = createBearerClient<paths>(options);
  const answer = answerThrough(api);
  return {
    api,
    ...methodsOf(call),
    upload: (path, file, mediaType, ...init) => {
      const given = init[0] as { headers?: Record<string, string> } | undefined;
      return call('POST', path, { ...given, body: file, bodySerializer: (body: string) => body, headers: { ...given?.headers, 'content-type': mediaType } });
    },
    async download(path, ...init) {
      const { data, response } = await answer('GET', path, { ...(init[0] as object | undefined), parseAs: 'blob' });
      return { blob: data as Blob, fileName: fileNameOf(response.headers.get('content-disposition')) };
    },
  };
}
