// Store users sign in with a one-time code sent to their phone or email.
// - The answer to a code request is the same whether or not the person exists, and the
//   limit (5 codes an hour) counts per phone or email, so nothing reveals who exists.
// - A code lives 5 minutes, is stored only as a hash, is used once, and 5 wrong tries
//   burn it.
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { Notifier } from '../../lib/notifier.ts';
import { safeEqual, sha256 } from '../../lib/secrets.ts';
import { normaliseEmail } from '../people/people.service.ts';
import type { StoreTokenIssuer } from './store-tokens.ts';
import * as repo from './store-users.repository.ts';

export const CODE_TTL_SECONDS = 300;
export const MAX_CODES_PER_HOUR = 5;
export const MAX_WRONG_TRIES = 5;

export interface Contact {
  phone?: string;
  email?: string;
}

function identifierOf(contact: Contact): string {
  if (contact.phone && contact.email) throw fieldError('MUTUALLY_EXCLUSIVE', '/email', 'send a phone or an email, not both');
  const identifier = contact.phone ?? normaliseEmail(contact.email);
  if (!identifier) throw fieldError('REQUIRED', '/phone', 'send a phone or an email');
  return identifier;
}

const hashCode = (identifier: string, code: string) => sha256(`${identifier}:${code}`);
const invalidCode = () => new AppError('UNAUTHENTICATED', 'the code is wrong, expired or already used');

export async function requestCode(db: Kysely<DB>, notifier: Notifier, contact: Contact) {
  const identifier = identifierOf(contact);
  if ((await repo.countRecentCodes(db, identifier, 3600)) >= MAX_CODES_PER_HOUR) {
    throw new AppError('RATE_LIMITED', `at most ${MAX_CODES_PER_HOUR} codes an hour; try again later`, { headers: { 'retry-after': '600' } });
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await repo.insertCode(db, identifier, hashCode(identifier, code), CODE_TTL_SECONDS);
  // Only a person who exists is sent anything; the answer is the same either way.
  if (await repo.findPersonByIdentifier(db, identifier)) {
    await notifier.sendSignInCode({ to: identifier, channel: contact.phone ? 'sms' : 'email', code, expiresInSeconds: CODE_TTL_SECONDS });
  }
  return { expiresIn: CODE_TTL_SECONDS };
}

export async function exchangeCode(db: Kysely<DB>, tokens: StoreTokenIssuer, input: Contact & { code: string }) {
  const identifier = identifierOf(input);
  const personId = await db.transaction().execute(async (trx) => {
    const live = await repo.lockLiveCode(trx, identifier);
    if (!live) return undefined;
    if (!safeEqual(live.code_hash, hashCode(identifier, input.code))) {
      await repo.recordWrongTry(trx, live.id, MAX_WRONG_TRIES);
      return undefined;
    }
    await repo.consumeCode(trx, live.id);
    return (await repo.findPersonByIdentifier(trx, identifier))?.id;
  });
  if (personId === undefined) throw invalidCode();
  return tokenAnswer(tokens, personId);
}

/** Operators' support work and tests: a token for a person, without a code. */
export async function mintToken(db: Kysely<DB>, tokens: StoreTokenIssuer, contact: Contact) {
  const person = await repo.findPersonByIdentifier(db, identifierOf(contact));
  if (!person) throw fieldError('NOT_FOUND', contact.phone ? '/phone' : '/email', 'no store user has this phone or email');
  return tokenAnswer(tokens, person.id);
}

async function tokenAnswer(tokens: StoreTokenIssuer, personId: number) {
  const { token, expiresIn } = await tokens.sign(personId);
  return { access_token: token, token_type: 'Bearer' as const, expires_in: expiresIn };
}

export async function me(db: Kysely<DB>, personId: number) {
  const [person, stores] = await Promise.all([repo.findPerson(db, personId), repo.personStores(db, personId)]);
  if (!person) throw new AppError('UNAUTHENTICATED', 'this person no longer exists');
  return {
    user: { phone: person.phone, email: person.email, name: person.name },
    stores: stores.map((s) => ({
      id: s.id,
      internalCode: s.internal_code,
      name: s.name,
      supplier: { code: s.supplier_code, name: s.supplier_name },
      enabled: s.enabled,
    })),
  };
}
