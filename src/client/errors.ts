// The SDK's two errors. An answer the service refused becomes a SurtidoApiError carrying
// the problem's stable `code` and field pointers (docs/conventions.md: RFC 9457 with `code`,
// `errors[{pointer, code, message}]`, `requestId`); clients branch on `code`, never on
// wording. A request that never got an answer, after every retry, is a SurtidoNetworkError.
import type { components } from './openapi.generated.ts';

export type Problem = components['schemas']['Problem'];
export type FieldProblem = Problem['errors'][number];

export class SurtidoApiError extends Error {
  override readonly name = 'SurtidoApiError';
  readonly status: number;
  /** The problem's stable code (`VALIDATION_FAILED`, `UNKNOWN_CATEGORY`, `RATE_LIMITED` ...). */
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  /** Every field problem, each with a JSON Pointer into the request (`/upsert/products/3/price`). */
  readonly errors: FieldProblem[];
  /** The service's request id (also the `x-request-id` header): quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** Seconds the service asked to wait before retrying (429 and 503), when it said. */
  readonly retryAfterSeconds: number | undefined;
  readonly method: string;
  readonly url: string;

  constructor(init: {
    status: number;
    code: string;
    title: string;
    detail: string;
    errors: FieldProblem[];
    requestId: string | undefined;
    retryAfterSeconds: number | undefined;
    method: string;
    url: string;
  }) {
    super(`${init.method} ${new URL(init.url).pathname}: ${init.status} ${init.code}: ${init.detail}`);
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors;
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.method = init.method;
    this.url = init.url;
  }

  /** The field pointers of the problem, in the order the service listed them. */
  get pointers(): string[] {
    return this.errors.map((e) => e.pointer);
  }

  /**
   * From an answer that is not 2xx and its parsed body. A body that is not a problem (a
   * proxy's HTML page, an empty 502) still gives an error, with the code `HTTP_<status>`.
   */
  static from(response: Response, body: unknown, method: string): SurtidoApiError {
    const problem = isProblem(body) ? body : undefined;
    const retryAfter = Number(response.headers.get('retry-after'));
    return new SurtidoApiError({
      status: response.status,
      code: problem?.code ?? `HTTP_${response.status}`,
      title: problem?.title ?? response.statusText,
      detail: problem?.detail ?? (typeof body === 'string' && body ? body.slice(0, 500) : `the service answered ${response.status}`),
      errors: problem?.errors ?? [],
      requestId: problem?.requestId ?? response.headers.get('x-request-id') ?? undefined,
      retryAfterSeconds: Number.isFinite(retryAfter) && response.headers.has('retry-after') ? retryAfter : undefined,
      method,
      url: response.url,
    });
  }
}

export class SurtidoNetworkError extends Error {
  override readonly name = 'SurtidoNetworkError';
  readonly code = 'NETWORK_ERROR';
  constructor(
    readonly method: string,
    readonly url: string,
    /** How many times the request was sent. */
    readonly attempts: number,
    cause: unknown,
  ) {
    super(`${method} ${new URL(url).pathname}: no answer after ${attempts} attempt(s): ${cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause)}`, {
      cause,
    });
  }
}

function isProblem(body: unknown): body is Problem {
  return typeof body === 'object' && body !== null && typeof (body as Problem).code === 'string' && typeof (body as Problem).status === 'number';
}
