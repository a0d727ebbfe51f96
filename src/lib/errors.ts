// One error model. Domain code throws AppError with a stable code from this catalogue;
// one handler (src/http/error-handler.ts) turns it into RFC 9457 problem details.
// Clients branch on `code`, never on wording, so codes never change meaning.

export const ERROR_CATALOGUE = {
  VALIDATION_FAILED: { status: 400, title: 'Validation failed' },
  BATCH_VALIDATION_FAILED: { status: 402, title: 'Batch request refused' },
  // 402 in a batch request (its limit of items); 400 for a list too long on any other route.
  TOO_MANY_ITEMS: { status: 402, title: 'Too many items' },
  MALFORMED_JSON: { status: 400, title: 'Malformed JSON' },
  NESTING_TOO_DEEP: { status: 400, title: 'JSON nested too deeply' },
  // Field-level reasons; one of them alone is also the top-level code (docs/conventions.md).
  REQUIRED: { status: 400, title: 'A required field is missing' },
  INVALID_TYPE: { status: 400, title: 'A field has the wrong type' },
  INVALID_FORMAT: { status: 400, title: 'A field has the wrong format' },
  INVALID_LENGTH: { status: 400, title: 'A field is too short or too long' },
  OUT_OF_RANGE: { status: 400, title: 'A number is out of range' },
  INVALID_PRECISION: { status: 400, title: 'A number has too many decimals' },
  INVALID_VALUE: { status: 400, title: 'A field has a value that is not allowed' },
  MUTUALLY_EXCLUSIVE: { status: 400, title: 'Fields that exclude each other were sent together' },
  INVALID_DATE_RANGE: { status: 400, title: 'The end date is not after the start date' },
  OVERLAPPING_TIERS: { status: 400, title: 'Tiers overlap' },
  DUPLICATE_PRODUCT: { status: 400, title: 'A product is listed twice' },
  UNKNOWN_GROUPER: { status: 400, title: 'Unknown promotion grouper' },
  UNKNOWN_CATEGORY: { status: 400, title: 'Unknown category' },
  UNAUTHENTICATED: { status: 401, title: 'Authentication failed' },
  INSUFFICIENT_SCOPE: { status: 403, title: 'Insufficient scope' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  ALREADY_EXISTS: { status: 409, title: 'Already exists' },
  CONFLICT: { status: 409, title: 'Conflict' },
  IDEMPOTENCY_KEY_REUSED: { status: 409, title: 'Idempotency key reused with another request' },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, title: 'A request with this idempotency key is in progress' },
  PROPOSAL_DECIDED: { status: 409, title: "The seller's proposal was already accepted or declined" },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Request body too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type' },
  RATE_LIMITED: { status: 429, title: 'Too many requests' },
  INVALID_ORDER_TRANSITION: { status: 409, title: "The order's state does not allow this" },
  QUANTITY_EXCEEDED: { status: 400, title: 'More than the order allows' },
  UNKNOWN_ORDER_LINE: { status: 400, title: 'The order has no such product and size' },
  UNKNOWN_ORDER: { status: 400, title: 'No such order of this store' },
  INVALID_CANCEL_CODE: { status: 400, title: 'Unknown cancellation code' },
  BELOW_MINIMUM_ORDER: { status: 400, title: 'Below the minimum order' },
  // A delivery date a store asks for (src/modules/delivery/README.md); the message lists the next valid dates.
  NOT_A_DELIVERY_DAY: { status: 400, title: "Not a delivery date of the store's zone" },
  CUTOFF_PASSED: { status: 400, title: "The delivery date's cut-off has passed" },
  UNKNOWN_DELIVERY_ZONE: { status: 400, title: 'Unknown delivery zone' },
  // A cart line that cannot be ordered (src/modules/pricing/README.md); one alone is the top-level code.
  UNKNOWN_PRODUCT: { status: 400, title: 'Unknown product' },
  PRODUCT_DISABLED: { status: 400, title: 'The product is disabled' },
  NO_PRICE_LIST: { status: 400, title: 'The store has no price list' },
  PRICE_LIST_DISABLED: { status: 400, title: "The store's price list is disabled" },
  NOT_PRICED: { status: 400, title: 'Not priced for this store' },
  UNAVAILABLE: { status: 400, title: 'Not available to this store' },
  // A product's case rule a cart breaks (src/modules/pricing/README.md, "Case rules").
  NOT_A_MULTIPLE: { status: 400, title: 'Not a multiple of the case' },
  BELOW_MINIMUM_UNITS: { status: 400, title: "Below the product's minimum units" },
  ABOVE_MAXIMUM_UNITS: { status: 400, title: "Above the product's maximum units" },
  // An order on CREDIT the store's credit cannot take (src/modules/credit/README.md); the message says by how much.
  CREDIT_LIMIT_EXCEEDED: { status: 400, title: 'Over the available credit' },
  OVERDUE_INVOICES: { status: 400, title: 'The store has invoices overdue past its terms' },
  CREDIT_HOLD: { status: 409, title: 'The order is on credit hold' },
  STORE_DISABLED: { status: 409, title: 'The store is disabled' },
  INVALID_TICKET_TRANSITION: { status: 409, title: "The ticket's state does not allow this" },
  WEBHOOK_NOT_CONFIGURED: { status: 409, title: 'The supplier has no webhook base URL' },
  INTERNAL_ERROR: { status: 500, title: 'Internal error' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'Service unavailable' },
  SIGN_IN_UNAVAILABLE: { status: 503, title: 'Store sign-in is unavailable: no sender is configured' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** One problem with one field; `pointer` is a JSON Pointer (/body path, or /query/x, /params/x). */
export interface FieldError {
  pointer: string;
  code: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[];
  readonly headers: Record<string, string>;
  /** Overrides the catalogue's status where the contract names another (404 on a duplicate price list). */
  constructor(
    code: ErrorCode,
    detail: string,
    options: { errors?: FieldError[]; status?: number; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.code = code;
    this.status = options.status ?? ERROR_CATALOGUE[code].status;
    this.errors = options.errors ?? [];
    this.headers = options.headers ?? {};
  }
}

/**
 * A request refused for field problems: one problem carries its own code at the top
 * level, several carry VALIDATION_FAILED (docs/conventions.md). Every code is a catalogue code.
 */
export function validationError(errors: (FieldError & { code: ErrorCode })[], detail?: string): AppError {
  const only = errors.length === 1 ? errors[0]! : undefined;
  return new AppError(only ? only.code : 'VALIDATION_FAILED', detail ?? (only ? only.message : `${errors.length} problems found in the request`), {
    errors,
    status: 400,
  });
}

export const notFound = (what: string, code: string, pointer = '/params/code') =>
  new AppError('NOT_FOUND', `${what} ${code} does not exist`, {
    errors: [{ pointer, code: 'NOT_FOUND', message: `${what} ${code} does not exist` }],
  });

/** 401 with the Bearer challenge: missing, invalid or expired credentials (every guard's refusal). */
export const unauthenticated = (detail = 'missing, invalid or expired credentials') =>
  new AppError('UNAUTHENTICATED', detail, { headers: { 'www-authenticate': 'Bearer' } });

/** 429 with Retry-After: a rate limit of the service (per API key, per store user, per address). */
export function rateLimited(retryAfterSeconds: number, what: string) {
  return new AppError('RATE_LIMITED', `rate limit exceeded for ${what}; retry after ${retryAfterSeconds} s`, {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}

/** A single-field failure that carries its own code at the top level (docs/conventions.md). */
export function fieldError(code: ErrorCode, pointer: string, message: string, status?: number): AppError {
  return new AppError(code, message, { errors: [{ pointer, code, message }], ...(status ? { status } : {}) });
}
