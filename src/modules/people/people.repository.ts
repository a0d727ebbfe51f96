import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';

export async function findByPhoneOrEmail(trx: Transaction<DB>, phone: string | undefined, email: string | undefined) {
  if (!phone && !email) return [];
  return trx
    .selectFrom('people')
    .selectAll()
    .where((eb) => eb.or([...(phone ? [eb('phone', '=', phone)] : []), ...(email ? [eb('email', '=', email)] : [])]))
    .execute();
}

/** Undefined when someone else holds the phone or the email by now (a concurrent insert won). */
export async function insertPerson(trx: Transaction<DB>, person: { phone: string | null; email: string | null; name: string | null }) {
  return trx
    .insertInto('people')
    .values(person)
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
}

/**
 * Adds a phone or email the person lacks when nobody holds it, and a name when they have
 * none: what one supplier sends never overwrites what the person already has.
 */
export async function completePerson(trx: Transaction<DB>, id: number, input: { phone?: string; email?: string; name?: string }) {
  await trx
    .updateTable('people')
    .set({
      phone: sql`coalesce(phone, (select ${input.phone ?? null}::text where not exists (select 1 from people o where o.phone = ${input.phone ?? null})))`,
      email: sql`coalesce(email, (select ${input.email ?? null}::text where not exists (select 1 from people o where o.email = ${input.email ?? null})))`,
      name: sql`coalesce(name, ${input.name ?? null})`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}
