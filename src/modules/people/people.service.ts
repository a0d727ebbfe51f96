// A store user is one person of the platform, found by phone or by email, who may
// belong to stores of several suppliers. Phone and email are each unique across people.
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import * as repo from './people.repository.ts';

export interface PersonInput {
  phone?: string;
  email?: string;
  name?: string;
}

/** Emails are matched without regard to case; phones are E.164 already. */
export const normaliseEmail = (email: string | undefined) => email?.trim().toLowerCase();

/**
 * The person an input names: by phone first, else by email. Never an error: an input
 * whose phone and email belong to two people names the phone's person, so no answer
 * tells a supplier what another supplier registered.
 */
async function matchPerson(trx: Transaction<DB>, phone: string | undefined, email: string | undefined) {
  const found = await repo.findByPhoneOrEmail(trx, phone, email);
  return (phone ? found.find((p) => p.phone === phone) : undefined) ?? found.find((p) => p.email === email);
}

/**
 * Finds the person by phone or email, creating them when new. A phone or email the
 * person lacks is added to them when nobody else holds it, so they can sign in with it.
 */
export async function findOrCreatePerson(trx: Transaction<DB>, input: PersonInput): Promise<number> {
  const email = normaliseEmail(input.email);
  // Two requests (two stores, two suppliers) may bring the same new person at once: the
  // insert that loses the race does nothing, and the person is matched again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const person = await matchPerson(trx, input.phone, email);
    if (person) {
      await repo.completePerson(trx, person.id, { phone: input.phone, email, name: input.name });
      return person.id;
    }
    const taken = await repo.findByPhoneOrEmail(trx, input.phone, email);
    const created = await repo.insertPerson(trx, {
      phone: input.phone ?? null,
      email: email && !taken.some((p) => p.email === email) ? email : null,
      name: input.name ?? null,
    });
    if (created) return created.id;
  }
  throw new Error('a person could be neither matched nor created');
}

/** The people the inputs name, as adding them would match them; inputs that match no one are skipped. */
export async function findPeople(trx: Transaction<DB>, inputs: PersonInput[]): Promise<number[]> {
  const ids = new Set<number>();
  for (const input of inputs) {
    const person = await matchPerson(trx, input.phone, normaliseEmail(input.email));
    if (person) ids.add(person.id);
  }
  return [...ids];
}
