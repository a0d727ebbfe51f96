// The one-time code machinery of every sign-in: store users in the shop
// (src/modules/store-app) and members and operators in the console (src/modules/console).
// Nobody can use it against the person a code is sent to (issue 29; docs/security.md has
// what a stranger can and cannot do, with the numbers):
// - A code remembers the client network that asked for it (an IPv4 address or an IPv6
//   /64, src/lib/client-network.ts). Requests are counted per identifier and network, 5
//   an hour, under a per-identifier lock; past that the answer is the same 202 and nothing
//   is written or sent, so the live code stays and the caller learns nothing.
// - A new code ends the earlier ones asked from the same network only: a stranger asking
//   for a code does not end the one the person just received.
// - A code lives 5 minutes, is stored only as a hash and is used once. 5 wrong tries from
//   the network that asked burn it; wrong tries from anywhere else count apart, and past
//   10 every further guess from elsewhere is refused without burning it. So a code takes
//   at most 15 guesses in its life, and a fresh code always works where it was asked.
// - The message carrying it is written to the outbox in the same transaction and sent by
//   the worker after the answer, so the answer does not depend on sending.
import { randomInt } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { CodeRealm, DB } from '../../db/types.ts';
import { AppError } from '../../lib/errors.ts';
import type { Notifier } from '../../lib/notifier.ts';
import { safeEqual, sha256 } from '../../lib/secrets.ts';
import { clientNetwork } from '../../lib/client-network.ts';
import { enqueueCode } from '../messages/messages.service.ts';
import type { Identifier } from './people.service.ts';
import * as repo from './sign-in-codes.repository.ts';

export const CODE_TTL_SECONDS = 300;
/** Codes an hour per identifier and client network. */
export const MAX_CODES_PER_HOUR = 5;
/** Wrong tries from the network that asked: the code is burnt at the last. */
export const MAX_WRONG_TRIES = 5;
/** Wrong tries from every other network together: past them, guesses from elsewhere are refused. */
export const MAX_FOREIGN_TRIES = 10;

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
  /** The client's address (`request.ip`): codes are counted, ended and guessed per its network. */
  from: string;
}

/**
 * Records a new code within the hourly limit of the identifier at the client's network
 * (ending that network's earlier codes), and its message. Past the limit it records and
 * sends nothing and the caller answers as always: the identifier's live codes stay.
 */
export async function issueCode(trx: Transaction<DB>, request: CodeRequest): Promise<void> {
  const { realm, id } = request;
  const from = clientNetwork(request.from);
  await repo.lockIdentifier(trx, realm, id.value);
  if ((await repo.countRecentCodes(trx, realm, id.value, from, 3600)) >= MAX_CODES_PER_HOUR) return;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await repo.endOpenCodes(trx, realm, id.value, from);
  await repo.insertCode(trx, { realm, identifier: id.value, codeHash: hashCode(id.value, code), ttlSeconds: CODE_TTL_SECONDS, personId: request.personId, from });
  if (request.send === false) return;
  await enqueueCode(trx, { kind: id.kind, to: id.value, code, expiresInSeconds: CODE_TTL_SECONDS, onlyIfKnown: request.send === 'if-known' });
}

/**
 * Checks the code against the identifier's live codes of the realm issued for `personId`
 * (null: sign-in codes), from `address` (`request.ip`). A code takes guesses from the
 * network that asked for it, and from elsewhere until it has had MAX_FOREIGN_TRIES wrong
 * ones from elsewhere. A wrong code counts a try against every live code that took it:
 * as the asking network's (burning at MAX_WRONG_TRIES) or as a foreign one.
 */
export async function proveCode(trx: Transaction<DB>, realm: CodeRealm, id: Identifier, code: string, personId: number | null, address: string): Promise<boolean> {
  const from = clientNetwork(address);
  const live = await repo.lockLiveCodes(trx, realm, id.value, personId);
  const mine = (c: (typeof live)[number]) => c.requested_from === from;
  const guessed = live.filter((c) => mine(c) || c.foreign_attempts < MAX_FOREIGN_TRIES);
  const hash = hashCode(id.value, code);
  const match = guessed.find((c) => safeEqual(c.code_hash, hash));
  if (match) {
    await repo.consumeCode(trx, match.id);
    return true;
  }
  for (const c of guessed) {
    if (mine(c)) await repo.recordWrongTry(trx, c.id, MAX_WRONG_TRIES);
    else await repo.recordForeignTry(trx, c.id);
  }
  return false;
}
