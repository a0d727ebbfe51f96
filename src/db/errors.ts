// How the code base recognises database errors: the SQLSTATE codes it reacts to and the
// helpers that read them. Turning one into an answer happens where its meaning is known:
// a service maps a unique violation to its own field error (suppliers, tickets), the
// price-list repository uses one to fall back to its upsert, and the error handler
// answers a lost connection 503 with Retry-After and anything else 500.
export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';

export function pgErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export const isUniqueViolation = (error: unknown) => pgErrorCode(error) === PG_UNIQUE_VIOLATION;

/** Connection-level failures (server restarting, refused, reset): the request may be retried. */
export function isConnectionError(error: unknown): boolean {
  const code = pgErrorCode(error);
  if (code && /^(08|57P0[1-3])/.test(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /ECONNREFUSED|ECONNRESET|Connection terminated|terminating connection|the database system is (starting|shutting) up/i.test(message);
}
