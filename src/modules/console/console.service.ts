// Console sign-in and sessions (README.md). Members and operators sign in with an email
// and a one-time code (the shop's machinery and rules, ../people/sign-in-codes.ts, in a
// realm of their own); the token names a session row that every request reads.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { ConsoleAuthenticator, ConsoleSession } from './console.session.ts';
import { jwtCodec } from '../../lib/jwt.ts';
import { fieldError, notFound } from '../../lib/errors.ts';
import { newSessionId, sha256 } from '../../lib/secrets.ts';
import type { Notifier } from '../../lib/notifier.ts';
import { ROLE_SCOPES } from '../auth/scopes.ts';
import { ensureTwin } from '../sandbox/sandbox.twins.ts';
import { normaliseEmail } from '../people/people.service.ts';
import { CODE_TTL_SECONDS, invalidCode, issueCode, proveCode, requireSender } from '../people/sign-in-codes.ts';
import { recordSignIn } from '../audit/audit.repository.ts';
import * as repo from './console.repository.ts';

/** A session ends after this long without a request... */
export const SESSION_IDLE_SECONDS = 30 * 60;
/** ...and at the latest this long after sign-in (the token's own lifetime). */
export const SESSION_LIFE_SECONDS = 12 * 3600;
/** A session in use is renewed at most once a minute (one write, not one per request). */
const TOUCH_AFTER_SECONDS = 60;

export interface ConsoleTokens {
  sign(sessionId: string): Promise<{ token: string; expiresIn: number }>;
  /** The session id of a valid, unexpired console token, or undefined. */
  verify(token: string): Promise<string | undefined>;
}

/** Console tokens: HS256 JWTs of their own audience (neither a supplier's nor a store user's token opens the console, nor the other way). */
export function createConsoleTokens(secret: string, now: () => Date): ConsoleTokens {
  const codec = jwtCodec(secret, 'surtido:console', SESSION_LIFE_SECONDS, now);
  return {
    sign: (sessionId) => codec.sign(sessionId),
    async verify(token) {
      const sub = (await codec.verify(token))?.sub;
      return typeof sub === 'string' ? sub : undefined;
    },
  };
}

export interface ConsoleContext {
  db: Kysely<DB>;
  notifier: Notifier;
  tokens: ConsoleTokens;
  /** Wakes this process's workers: a message waits in the outbox. */
  wake: () => void;
}

function emailOf(value: string | undefined) {
  const email = normaliseEmail(value);
  if (!email) throw fieldError('REQUIRED', '/email', 'send the email you were invited with');
  return { kind: 'email' as const, value: email };
}

/**
 * Sends a code to a member's or operator's email. The answer is the same for an email
 * nobody was invited with (a code is recorded, no message is written). `from` is the
 * client's address: codes are counted and guessed per its network (../people/sign-in-codes.ts).
 */
export async function requestConsoleCode(ctx: ConsoleContext, body: { email: string }, from: string) {
  const id = emailOf(body.email);
  requireSender(ctx.notifier, id);
  await ctx.db.transaction().execute(async (trx) => {
    const known = await repo.canSignIn(trx, id.value);
    await issueCode(trx, { realm: 'console', id, personId: null, send: known, from });
  });
  ctx.wake();
  return { expiresIn: CODE_TTL_SECONDS };
}

/** The code opens a session; a member of exactly one supplier starts in it. */
export async function exchangeConsoleCode(ctx: ConsoleContext, body: { email: string; code: string }, from: string, requestId: string | null = null) {
  const id = emailOf(body.email);
  const sessionId = await ctx.db.transaction().execute(async (trx) => {
    if (!(await proveCode(trx, 'console', id, body.code, null, from))) return undefined;
    const [memberships, operator] = await Promise.all([repo.membershipsOf(trx, id.value), repo.isOperator(trx, id.value)]);
    if (memberships.length === 0 && !operator) return undefined; // removed since the code was sent
    // The token carries the session id, the row only its hash: a copy of the database opens no session.
    const sessionId = newSessionId();
    await repo.insertSession(trx, {
      id: sha256(sessionId),
      email: id.value,
      supplierId: memberships.length === 1 ? memberships[0]!.id : null,
      idleSeconds: SESSION_IDLE_SECONDS,
      lifeSeconds: SESSION_LIFE_SECONDS,
    });
    // Listed in the audit log with the session it opened (src/modules/audit/README.md, "Sign-ins").
    await recordSignIn(trx, { email: id.value, supplierIds: memberships.map((m) => m.id), operator, requestId, clientAddress: from });
    return sessionId;
  });
  if (sessionId === undefined) throw invalidCode();
  const { token, expiresIn } = await ctx.tokens.sign(sessionId);
  return { access_token: token, token_type: 'Bearer' as const, expires_in: expiresIn, idle_timeout: SESSION_IDLE_SECONDS };
}

export async function consoleMe(db: Kysely<DB>, session: ConsoleSession) {
  const memberships = await repo.membershipsOf(db, session.email);
  return {
    email: session.email,
    operator: session.operator,
    supplierId: session.supplierId,
    mode: session.testMode ? ('test' as const) : ('live' as const),
    memberships: memberships.map((m) => ({ supplier: { id: m.id, code: m.code, name: m.name, enabled: m.enabled }, role: m.role })),
  };
}

/** Picks the supplier the session acts for; one the person is not a member of answers 404. */
export async function chooseSupplier(db: Kysely<DB>, session: ConsoleSession, supplierId: number) {
  const memberships = await repo.membershipsOf(db, session.email);
  if (!memberships.some((m) => m.id === supplierId)) throw notFound('supplier', String(supplierId), '/supplierId');
  await repo.setSessionSupplier(db, session.id, supplierId);
  return consoleMe(db, { ...session, supplierId, testMode: false });
}

/**
 * The test-mode switch: on, every supplier call of the session works on the test twin of
 * the supplier it acts for (made now if it has none); off, on the live supplier again.
 */
export async function setConsoleMode(db: Kysely<DB>, session: ConsoleSession, mode: 'live' | 'test') {
  if (!session.supplier || session.supplierId === null) {
    throw fieldError('INVALID_VALUE', '/mode', 'this session acts for no supplier it is a member of (choose one with PUT /console/me/supplier)');
  }
  if (mode === 'test') await ensureTwin(db, session.supplierId);
  await repo.setSessionTestMode(db, session.id, mode === 'test');
  return consoleMe(db, { ...session, testMode: mode === 'test' });
}

export async function signOut(db: Kysely<DB>, session: ConsoleSession) {
  await repo.endSession(db, session.id);
  return { ended: true };
}

/** What the guard (src/http/auth.ts) asks of a bearer token that may be a console session's. */
export function createConsoleAuthenticator(db: Kysely<DB>, tokens: ConsoleTokens): ConsoleAuthenticator {
  return {
    async session(token) {
      const sessionId = await tokens.verify(token);
      if (sessionId === undefined) return undefined;
      // Sessions from before migration 0033 carry a UUID, hashed in place by it: the same lookup.
      const row = await repo.liveSession(db, sha256(sessionId), TOUCH_AFTER_SECONDS);
      if (!row) return undefined;
      if (row.stale) await repo.touchSession(db, row.id, SESSION_IDLE_SECONDS);
      const acting = row.supplier_id !== null && row.role !== null && row.supplier_enabled === true;
      // In test mode the member works on the twin with the role they hold in the live supplier.
      const test = row.test_mode && row.twin_id !== null;
      return {
        id: row.id,
        email: row.email,
        operator: row.operator,
        supplierId: row.supplier_id,
        // A member's request is checked by the same scope rules as a credential's.
        testMode: test,
        supplier: acting
          ? { supplierId: test ? row.twin_id! : row.supplier_id!, clientId: `session:${row.id}`, scopes: [...ROLE_SCOPES[row.role!]], person: row.email, mode: test ? 'test' : 'live' }
          : undefined,
      };
    },
  };
}

/** `npm run cli -- operator add --email ...`: a platform operator, who signs in to the console like a member. */
export async function addOperator(db: Kysely<DB>, email: string) {
  const id = emailOf(email);
  const created = await repo.insertOperator(db, id.value);
  if (!created) throw fieldError('ALREADY_EXISTS', '/email', `${id.value} is already an operator`);
  return { id: created.id, email: created.email, createdAt: created.created_at.toISOString() };
}

/**
 * `npm run cli -- operator remove --email ...`: the inverse of addOperator. The person's
 * console sessions end at once, whatever they act for: a removed operator who is also a
 * member signs in again for that.
 */
export async function removeOperator(db: Kysely<DB>, email: string) {
  const id = emailOf(email);
  const ended = await db.transaction().execute(async (trx) => {
    if (!(await repo.deleteOperator(trx, id.value))) return undefined;
    return repo.endSessionsOf(trx, id.value);
  });
  if (ended === undefined) throw fieldError('NOT_FOUND', '/email', `${id.value} is not an operator`);
  return { email: id.value, removed: true, sessionsEnded: ended };
}

export async function listOperators(db: Kysely<DB>) {
  return (await repo.listOperators(db)).map((o) => ({ id: o.id, email: o.email, createdAt: o.created_at.toISOString() }));
}
