// The one-time code machinery of every sign-in: store users in the shop
// (src/modules/store-app) and members and operators in the console (src/modules/console).
// - 5 codes an hour per identifier and realm, counted under a per-identifier lock.
// - A new code ends every earlier one of its realm; a code lives 5 minutes, is stored only
//   as a hash, is used once, and 5 wrong tries burn it.
// - The message carrying it is written to the outbox in the same transaction and sent by
//   the worker after the answer, so the answer does not depend on sending.
import { randomInt } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { CodeRealm, DB } from '../../db/types.ts';
import { AppError } from '../../lib/errors.ts';
import type { Notifier } from '../../lib/notifier.ts';
import { safeEqual, sha256 } from '../../lib/secrets.ts';
import { enqueueCode } from '../messages/messages.service.ts';
import type { Identifier } from './people.service.ts';
import * as repo from './sign-in-codes.repository.ts';

export const CODE_TTL_SECONDS = 300;
export const MAX_CODES_PER_HOUR = 5;
export const MAX_WRONG_TRIES = 5;

const hashCode = (identifier: string, code: string) => sha256(`${identifier}:${code}`);

export const invalidCode = () => new AppError('UNAUTHENTICATED', 'the code is wrong, expired or already used');

/** 503 SIGN_IN_UNAVAILABLE while no sender can reach this kind of identifier. */
export function requireSender(notifier: Notifier, id: Identifier) {
  if (!notifier.canSend(id.kind)) {
    throw new AppError('SIGN_IN_UNAVAILABLE', `codes cannot be sent to ${id.kind === 'phone' ? 'phones' : 'emails'} yet: no sender is configured`);
  }
}

export interface CodeRequest {
  realm: CodeRealm;
  id: Identifier;
  /** The signed-in person proving a second identifier; null for a sign-in code. */
  personId: number | null;
  /**
   * Whether its message is written: `'if-known'` leaves the check to the worker (a store
   * membership or person must name the identifier), `true` sends it, `false` writes none
   * (the console: nobody by that email).
   */
  send: 'if-known' | boolean;
}

/** Records a new code (ending the earlier ones of its realm) within the hourly limit, and its message. */
export async function issueCode(trx: Transaction<DB>, request: CodeRequest): Promise<void> {
  const { realm, id } = request;
  await repo.lockIdentifier(trx, realm, id.value);
  if ((await repo.countRecentCodes(trx, realm, id.value, 3600)) >= MAX_CODES_PER_HOUR) {
    throw new AppError('RATE_LIMITED', `at most ${MAX_CODES_PER_HOUR} codes an hour; try again later`, { headers: { 'retry-after': '600' } });
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await repo.endOpenCodes(trx, realm, id.value);
  await repo.insertCode(trx, { realm, identifier: id.value, codeHash: hashCode(id.value, code), ttlSeconds: CODE_TTL_SECONDS, personId: request.personId });
  if (request.send === false) return;
  await enqueueCode(trx, { kind: id.kind, to: id.value, code, expiresInSeconds: CODE_TTL_SECONDS, onlyIfKnown: request.send === 'if-known' });
}

/**
 * Checks the code against the identifier's live code of the realm, which must have been
 * issued for `personId` (null: a sign-in code). A wrong code counts a try against the live code.
 */
export async function proveCode(trx: Transaction<DB>, realm: CodeRealm, id: Identifier, code: string, personId: number | null): Promise<boolean> {
  const live = await repo.lockLiveCode(trx, realm, id.value);
  if (!live) return false;
  if (live.person_id !== personId || !safeEqual(live.code_hash, hashCode(id.value, code))) {
    await repo.recordWrongTry(trx, live.id, MAX_WRONG_TRIES);
    return false;
  }
  await repo.consumeCode(trx, live.id);
  return true;
}
