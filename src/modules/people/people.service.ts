// A person is a sign-in account of the store app. Each phone and email on it was proven
// by a code sent there; store memberships (store_users) only name phones and emails, and
// a person reaches the memberships that name one of theirs. See ../store-app/README.md.
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { AppError } from '../../lib/errors.ts';
import type { IdentifierKind } from '../../lib/notifier.ts';
import * as repo from './people.repository.ts';

export interface Identifier {
  kind: IdentifierKind;
  /** E.164 for a phone; lower case for an email. */
  value: string;
}

/** Whether a person or a store membership names this identifier (someone may sign in with it). */
export const isKnownIdentifier = (db: Parameters<typeof repo.isKnown>[0], kind: IdentifierKind, identifier: string) => repo.isKnown(db, kind, identifier);

/**
 * The person signing in with an identifier someone names: created at its first sign-in.
 * Undefined when nobody names it (no person, no membership).
 */
export async function personSigningIn(trx: Transaction<DB>, id: Identifier): Promise<number | undefined> {
  if (!(await repo.isKnown(trx, id.kind, id.value))) return undefined;
  return repo.findOrCreate(trx, id.kind, id.value);
}

/** Emails are matched without regard to case; phones are E.164 already. */
export const normaliseEmail = (email: string | undefined) => email?.trim().toLowerCase();

/**
 * Gives the proven identifier to the person. A person has at most one phone and one
 * email: a new one of the same kind replaces theirs. When another person held it, they
 * lose it (the caller just proved it is theirs); a person left with nothing is the same
 * human, so they are merged into this one.
 */
export async function attachProvenIdentifier(trx: Transaction<DB>, personId: number, id: Identifier): Promise<void> {
  const person = await repo.lockPerson(trx, personId);
  if (!person) throw new AppError('UNAUTHENTICATED', 'this person no longer exists');
  const holder = await repo.lockHolder(trx, id.kind, id.value);
  if (holder && holder.id !== personId) {
    const other = id.kind === 'phone' ? holder.email : holder.phone;
    if (other === null) await repo.mergeInto(trx, holder.id, personId);
    else await repo.clearIdentifier(trx, holder.id, id.kind);
  }
  if (!holder || holder.id !== personId) await repo.setIdentifier(trx, personId, id.kind, id.value);
}
