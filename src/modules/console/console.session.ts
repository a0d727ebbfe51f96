// A console session as the guard (src/http/auth.ts) finds it and the console's routes read
// it. Declared here, beside createConsoleAuthenticator (console.service.ts), which
// implements ConsoleAuthenticator; src/deps.ts hands that implementation to the guard.
import type { FastifyRequest } from 'fastify';
import { unauthenticated } from '../../lib/errors.ts';
import type { SupplierPrincipal } from '../auth/principal.ts';

/** A live console session, read on every request. */
export interface ConsoleSession {
  id: string;
  email: string;
  /** Whether the email is a platform operator's: the session may then call the admin API. */
  operator: boolean;
  /** The supplier the session acts for (null until one is chosen): always the live one. */
  supplierId: number | null;
  /** The console's test-mode switch: on, `supplier` is the test twin of `supplierId` (src/modules/sandbox). */
  testMode: boolean;
  /** The principal of supplier routes: set while the person is a member of that supplier and it is enabled. */
  supplier?: SupplierPrincipal;
}

/** What the guard needs to check a console session's token. */
export interface ConsoleAuthenticator {
  /** The live session of a console token (renewing it while in use), or undefined. */
  session(token: string): Promise<ConsoleSession | undefined>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The console session of a console route, or of a supplier or admin route called from the console. */
    consoleSession?: ConsoleSession;
  }
}

/** The console session of a console route (the auth hook has run). */
export function consoleSessionOf(request: FastifyRequest): ConsoleSession {
  if (!request.consoleSession) throw unauthenticated();
  return request.consoleSession;
}
