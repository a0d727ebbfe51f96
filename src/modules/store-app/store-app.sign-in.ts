// Store users sign in with a one-time code sent to their phone or email; the model and
// the attack it prevents are in README.md, the code rules in ../people/sign-in-codes.ts.
// The answer to a code request is the same, in content and in time, whether or not
// anyone has the identifier: the send happens after the answer, and only to an identifier
// some person or membership names (the worker checks).
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import { endSessions } from '../people/people.repository.ts';
import type { Notifier } from '../../lib/notifier.ts';
import { attachProvenIdentifier, normaliseEmail, personSigningIn, type Identifier } from '../people/people.service.ts';
import { CODE_TTL_SECONDS, invalidCode, issueCode, proveCode, requireSender } from '../people/sign-in-codes.ts';
import type { StoreTokenIssuer } from './store-app.tokens.ts';
import * as repo from './store-app.sign-in.repository.ts';
import { preferencesOf } from '../messages/messages.repository.ts';
import { LANGUAGES } from '../messages/messages.templates.ts';

/** The language a person saved with their preferences; null when they saved none. */
const savedLanguage = (stored: string | undefined) => LANGUAGES.find((l) => l === stored) ?? null;

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

/** `from` is the client's address: codes are counted and guessed per its network (../people/sign-in-codes.ts). */
export async function requestCode(ctx: SignInContext, contact: Contact, from: string) {
  const id = identifierOf(contact);
  requireSender(ctx.notifier, id);
  await ctx.db.transaction().execute((trx) => issueCode(trx, { realm: 'store', id, personId: null, send: 'if-known', from }));
  ctx.wake();
  return { expiresIn: CODE_TTL_SECONDS };
}

export async function exchangeCode(ctx: SignInContext, input: Contact & { code: string }, from: string) {
  const id = identifierOf(input);
  const personId = await ctx.db.transaction().execute(async (trx) => {
    if (!(await proveCode(trx, 'store', id, input.code, null, from))) return undefined;
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
export async function requestIdentifierCode(ctx: SignInContext, personId: number, contact: Contact, from: string) {
  const id = identifierOf(contact);
  requireSender(ctx.notifier, id);
  await ctx.db.transaction().execute((trx) => issueCode(trx, { realm: 'store', id, personId, send: true, from }));
  ctx.wake();
  return { expiresIn: CODE_TTL_SECONDS };
}

/** The code proves the identifier: it becomes the person's, and opens the memberships naming it. */
export async function addIdentifier(ctx: SignInContext, personId: number, input: Contact & { code: string }, from: string) {
  const id = identifierOf(input);
  const proven = await ctx.db.transaction().execute(async (trx) => {
    if (!(await proveCode(trx, 'store', id, input.code, personId, from))) return false;
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
      // Only on a store reached as its supplier's seller: a store user's stores answer as before.
      ...(s.member ? {} : { access: 'SELLER' as const }),
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

/**
 * Operators' support search: the person who signed in with a phone or email (null when
 * nobody has yet) and every store membership naming it, of every supplier.
 */
export async function findStoreUser(db: Kysely<DB>, contact: Contact) {
  const id = identifierOf(contact);
  const [person, memberships] = await Promise.all([repo.personByIdentifier(db, id.kind, id.value), repo.membershipsNaming(db, id.kind, id.value)]);
  return {
    person: person
      ? { id: person.id, phone: person.phone, email: person.email, name: person.name, sessionsEndedAt: person.sessions_revoked_at?.toISOString() ?? null, createdAt: person.created_at.toISOString() }
      : null,
    memberships: memberships.map((m) => ({
      supplier: { id: m.supplier_id, code: m.supplier_code, name: m.supplier_name },
      store: { id: m.store_id, internalCode: m.internal_code, name: m.store_name },
      phone: m.phone,
      email: m.email,
      name: m.name,
    })),
  };
}

/** Ends every session of the person: the tokens issued until now stop working (store-app.tokens.ts). */
export async function endStoreUserSessions(db: Kysely<DB>, personId: number) {
  const at = await endSessions(db, personId);
  if (!at) throw notFound('store user', String(personId), '/params/personId');
  return { personId, sessionsEndedAt: at.toISOString() };
}
