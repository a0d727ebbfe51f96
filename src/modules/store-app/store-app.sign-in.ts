// Store users sign in with a one-time code sent to their phone or email; the model and
// the attack it prevents are in README.md.
// - The answer to a code request is the same, in content and in time, whether or not
//   anyone has the identifier: the send happens after the answer.
// - 5 codes an hour per identifier, counted under a per-identifier lock.
// - A new code ends every earlier one; a code lives 5 minutes, is stored only as a hash,
//   is used once, and 5 wrong tries burn it.
import { randomInt } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { Notifier } from '../../lib/notifier.ts';
import { safeEqual, sha256 } from '../../lib/secrets.ts';
import { attachProvenIdentifier, normaliseEmail, personSigningIn, type Identifier } from '../people/people.service.ts';
import type { StoreTokenIssuer } from './store-app.tokens.ts';
import * as repo from './store-app.sign-in.repository.ts';
import { enqueueCode } from '../messages/messages.service.ts';
import { preferencesOf } from '../messages/messages.repository.ts';
import { LANGUAGES } from '../messages/messages.templates.ts';

/** The language a person saved with their preferences; null when they saved none. */
const savedLanguage = (stored: string | undefined) => LANGUAGES.find((l) => l === stored) ?? null;

export const CODE_TTL_SECONDS = 300;
export const MAX_CODES_PER_HOUR = 5;
export const MAX_WRONG_TRIES = 5;

export interface Contact {
  phone?: string;
  email?: string;
}

export interface SignInContext {
  db: Kysely<DB>;
  notifier: Notifier;
  tokens: StoreTokenIssuer;
  /** Wakes this process's workers: a message waits in the outbox. */
  wake: () => void;
}

export function identifierOf(contact: Contact): Identifier {
  if (contact.phone && contact.email) throw fieldError('MUTUALLY_EXCLUSIVE', '/email', 'send a phone or an email, not both');
  if (contact.phone) return { kind: 'phone', value: contact.phone };
  const email = normaliseEmail(contact.email);
  if (!email) throw fieldError('REQUIRED', '/phone', 'send a phone or an email');
  return { kind: 'email', value: email };
}

const hashCode = (identifier: string, code: string) => sha256(`${identifier}:${code}`);
const invalidCode = () => new AppError('UNAUTHENTICATED', 'the code is wrong, expired or already used');

function requireSender(notifier: Notifier, id: Identifier) {
  if (!notifier.canSend(id.kind)) {
    throw new AppError('SIGN_IN_UNAVAILABLE', `codes cannot be sent to ${id.kind === 'phone' ? 'phones' : 'emails'} yet: no sender is configured`);
  }
}

/**
 * Records a new code (ending the earlier ones) within the hourly limit, and its message in
 * the outbox in the same transaction; the worker sends it after the answer.
 */
async function issueCode(trx: Transaction<DB>, id: Identifier, personId: number | null): Promise<void> {
  await repo.lockIdentifier(trx, id.value);
  if ((await repo.countRecentCodes(trx, id.value, 3600)) >= MAX_CODES_PER_HOUR) {
    throw new AppError('RATE_LIMITED', `at most ${MAX_CODES_PER_HOUR} codes an hour; try again later`, { headers: { 'retry-after': '600' } });
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await repo.endOpenCodes(trx, id.value);
  await repo.insertCode(trx, { identifier: id.value, codeHash: hashCode(id.value, code), ttlSeconds: CODE_TTL_SECONDS, personId });
  // A sign-in code goes only to someone a person or a membership names (the worker checks);
  // a signed-in person's proof code goes to the identifier they asked for.
  await enqueueCode(trx, { kind: id.kind, to: id.value, code, expiresInSeconds: CODE_TTL_SECONDS, onlyIfKnown: personId === null });
}

export async function requestCode(ctx: SignInContext, contact: Contact) {
  const id = identifierOf(contact);
  requireSender(ctx.notifier, id);
  await ctx.db.transaction().execute((trx) => issueCode(trx, id, null));
  ctx.wake();
  return { expiresIn: CODE_TTL_SECONDS };
}

/**
 * Checks the code against the identifier's live code, which must have been issued for
 * `personId` (null: a sign-in code). A wrong code counts a try against the live code.
 */
async function proveCode(trx: Transaction<DB>, id: Identifier, code: string, personId: number | null): Promise<boolean> {
  const live = await repo.lockLiveCode(trx, id.value);
  if (!live) return false;
  if (live.person_id !== personId || !safeEqual(live.code_hash, hashCode(id.value, code))) {
    await repo.recordWrongTry(trx, live.id, MAX_WRONG_TRIES);
    return false;
  }
  await repo.consumeCode(trx, live.id);
  return true;
}

export async function exchangeCode(ctx: SignInContext, input: Contact & { code: string }) {
  const id = identifierOf(input);
  const personId = await ctx.db.transaction().execute(async (trx) => {
    if (!(await proveCode(trx, id, input.code, null))) return undefined;
    // The first sign-in with an identifier a membership names creates its person.
    return personSigningIn(trx, id);
  });
  if (personId === undefined) throw invalidCode();
  return tokenAnswer(ctx.tokens, personId);
}

/** Operators' support work and tests: a token for the person of an identifier, without a code. */
export async function mintToken(db: Kysely<DB>, tokens: StoreTokenIssuer, contact: Contact) {
  const id = identifierOf(contact);
  const personId = await inTransaction(db, (trx) => personSigningIn(trx, id));
  if (personId === undefined) throw fieldError('NOT_FOUND', id.kind === 'phone' ? '/phone' : '/email', 'no store user has this phone or email');
  return tokenAnswer(tokens, personId);
}

/** A signed-in person asks for a code to prove a second phone or email. */
export async function requestIdentifierCode(ctx: SignInContext, personId: number, contact: Contact) {
  const id = identifierOf(contact);
  requireSender(ctx.notifier, id);
  await ctx.db.transaction().execute((trx) => issueCode(trx, id, personId));
  ctx.wake();
  return { expiresIn: CODE_TTL_SECONDS };
}

/** The code proves the identifier: it becomes the person's, and opens the memberships naming it. */
export async function addIdentifier(ctx: SignInContext, personId: number, input: Contact & { code: string }) {
  const id = identifierOf(input);
  const proven = await ctx.db.transaction().execute(async (trx) => {
    if (!(await proveCode(trx, id, input.code, personId))) return false;
    await attachProvenIdentifier(trx, personId, id);
    return true;
  });
  if (!proven) throw invalidCode();
  return me(ctx.db, personId);
}

async function tokenAnswer(tokens: StoreTokenIssuer, personId: number) {
  const { token, expiresIn } = await tokens.sign(personId);
  return { access_token: token, token_type: 'Bearer' as const, expires_in: expiresIn };
}

export async function me(db: Kysely<DB>, personId: number) {
  const [person, stores, preferences] = await Promise.all([repo.findPerson(db, personId), repo.personStores(db, personId), preferencesOf(db, personId)]);
  if (!person) throw new AppError('UNAUTHENTICATED', 'this person no longer exists');
  return {
    user: { phone: person.phone, email: person.email, name: person.name, language: savedLanguage(preferences?.language) },
    stores: stores.map((s) => ({
      id: s.id,
      internalCode: s.internal_code,
      name: s.name,
      supplier: { code: s.supplier_code, name: s.supplier_name },
      enabled: s.enabled,
    })),
  };
}

/** What the start prints when some kind of identifier cannot be sent a code (so sign-in with it answers 503). */
export function signInWarning(notifier: Notifier): string | undefined {
  const missing = (['phone', 'email'] as const).filter((kind) => !notifier.canSend(kind));
  if (missing.length === 0) return undefined;
  const what = missing.length === 2 ? 'store sign-in' : `store sign-in by ${missing[0]}`;
  return `${what} is unavailable until a sender is configured (POST /app/auth/code answers 503 SIGN_IN_UNAVAILABLE)`;
}
