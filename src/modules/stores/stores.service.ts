import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import { findOrCreatePerson, findPeople, normaliseEmail, type PersonInput } from '../people/people.service.ts';
import * as repo from './stores.repository.ts';
import type { Membership } from './stores.repository.ts';

export async function getStore(db: Kysely<DB>, supplierId: number, code: string) {
  const store = await repo.findStore(db, supplierId, code);
  if (!store) throw notFound('store', code);
  const [links, users] = await Promise.all([repo.storeLinks(db, supplierId, code), repo.storeUsers(db, supplierId, store.id)]);
  return {
    internalCode: store.internal_code,
    name: store.name,
    legalName: store.legal_name,
    legalId: store.legal_id,
    ownerName: store.owner_name,
    phone: store.phone,
    email: store.email,
    enabled: store.enabled,
    addresses: store.addresses,
    ...links,
    settings: { dropSize: store.drop_size === null ? null : Number(store.drop_size) },
    users,
    createdAt: store.created_at.toISOString(),
    updatedAt: store.updated_at.toISOString(),
  };
}

function requireContact(users: PersonInput[]) {
  const missing = users.map((u, i) => ({ u, i })).filter(({ u }) => !u.phone && !u.email);
  if (missing.length > 0) {
    throw validationError(
      missing.map(({ i }) => ({ pointer: `/users/${i}`, code: 'REQUIRED' as const, message: 'give a phone, an email or both' })),
      'every user needs a phone or an email',
    );
  }
}

async function requireStore(db: Kysely<DB>, supplierId: number, code: string) {
  const store = await repo.findStore(db, supplierId, code);
  if (!store) throw notFound('store', code);
  return store;
}

export async function addUsers(db: Kysely<DB>, supplierId: number, code: string, users: PersonInput[]) {
  requireContact(users);
  const store = await requireStore(db, supplierId, code);
  await db.transaction().execute(async (trx) => {
    const members = new Map<number, Membership>();
    for (const user of users) {
      const personId = await findOrCreatePerson(trx, user);
      const earlier = members.get(personId);
      members.set(personId, {
        personId,
        phone: user.phone ?? earlier?.phone ?? null,
        email: normaliseEmail(user.email) ?? earlier?.email ?? null,
        name: user.name ?? earlier?.name ?? null,
      });
    }
    await repo.addMemberships(trx, supplierId, store.id, [...members.values()]);
  });
  return { users: await repo.storeUsers(db, supplierId, store.id) };
}

export async function removeUsers(db: Kysely<DB>, supplierId: number, code: string, users: PersonInput[]) {
  requireContact(users);
  const store = await requireStore(db, supplierId, code);
  await db.transaction().execute(async (trx) =>
    repo.removeMemberships(trx, supplierId, store.id, {
      personIds: await findPeople(trx, users),
      phones: users.flatMap((u) => (u.phone ? [u.phone] : [])),
      emails: users.flatMap((u) => (u.email ? [normaliseEmail(u.email)!] : [])),
    }),
  );
  return { users: await repo.storeUsers(db, supplierId, store.id) };
}
