// A store's buyer edited from the console in one step: the membership taken off and the
// edited one added, in the caller's transaction (the audited route's), by the stores
// module's own removeUsers and addUsers. Every rule (a phone or an email, who matches whom,
// the store lock, the supplier's own view) stays in ../stores/stores.service.ts.
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { normaliseEmail } from '../people/people.service.ts';
import { Email, Phone, UserInput } from '../stores/stores.schemas.ts';
import { addUsers, getStore, removeUsers, type UserInput as User } from '../stores/stores.service.ts';

export const ReplaceStoreUserBody = Type.Object({
  current: Type.Object(
    { phone: Type.Optional(Phone()), email: Type.Optional(Email()) },
    { description: 'the buyer as the store lists them: their phone if they have one, else their email' },
  ),
  user: UserInput,
});

/** The stores service's field errors name `/users/0`; here the one user is `at`. */
const pointedAt = (at: string) => (error: unknown) => {
  if (!(error instanceof AppError)) throw error;
  throw new AppError(error.code, error.message.replaceAll('/users/0', at), {
    status: error.status,
    headers: error.headers,
    errors: error.errors.map((e) => ({ ...e, pointer: e.pointer.replace(/^\/users\/0/, at) })),
  });
};

/**
 * Replaces one buyer of the store with `user`. The buyer is named as a membership is matched
 * (../stores/README.md): by phone when it has one, else by email; one the store does not
 * list is a 404 on `/current`, so an edit never turns into an add.
 */
export async function replaceStoreUser(db: Kysely<DB>, supplierId: number, code: string, current: { phone?: string; email?: string }, user: User) {
  const { users } = await getStore(db, supplierId, code);
  const who = current.phone ? { phone: current.phone } : { email: normaliseEmail(current.email) };
  const named = who.phone ?? who.email;
  if (named === undefined) throw notFound('store user', '(none given)', '/current');
  if (!users.some((u) => (who.phone ? u.phone === who.phone : u.email === who.email))) throw notFound('store user', named, '/current');
  await removeUsers(db, supplierId, code, [who]).catch(pointedAt('/current'));
  return addUsers(db, supplierId, code, [user]).catch(pointedAt('/user'));
}
