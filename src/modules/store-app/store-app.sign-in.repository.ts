import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { isMember, namesPerson, sellerServes } from './store-app.repository.ts';

/** The person with, when they have none, the name the earliest membership naming them gives. */
export async function findPerson(db: Kysely<DB>, id: number) {
  return db
    .selectFrom('people as p')
    .select(['p.id', 'p.phone', 'p.email'])
    .select(
      // A seller who is no store's user is named as their supplier listed them.
      sql<string | null>`coalesce(p.name, (select u.name from store_users u where ${namesPerson(id, 'u')} and u.name is not null order by u.created_at, u.id limit 1),
        (select v.name from sellers v where ${namesPerson(id, 'v')} order by v.id limit 1))`.as('name'),
    )
    .where('p.id', '=', id)
    .executeTakeFirst();
}

/**
 * The stores whose memberships name the person, of every supplier, and those the person
 * serves as a seller (src/modules/sellers): the union, each once, `member` telling which
 * (a store user's access wins where both hold).
 */
export async function personStores(db: Kysely<DB>, personId: number) {
  return db
    .selectFrom('stores as s')
    .innerJoin('suppliers as p', 'p.id', 's.supplier_id')
    .select(['s.id', 's.internal_code', 's.name', 'p.code as supplier_code', 'p.name as supplier_name'])
    .select(sql<boolean>`s.enabled and p.enabled`.as('enabled')) // a disabled supplier's stores show as closed
    .select(isMember(personId, 's.id').as('member'))
    .where((eb) => eb.or([eb('s.id', 'in', eb.selectFrom('store_users as u').select('u.store_id').where(namesPerson(personId, 'u'))), sellerServes(personId, 's')]))
    .orderBy('s.id')
    .execute();
}

/** The person who signed in with this phone or email, if anyone has (operators' support search). */
export async function personByIdentifier(db: Kysely<DB>, column: 'phone' | 'email', value: string) {
  return db.selectFrom('people').select(['id', 'phone', 'email', 'name', 'sessions_revoked_at', 'created_at']).where(column, '=', value).executeTakeFirst();
}

/** Every store membership naming the phone or email, of every supplier. */
export async function membershipsNaming(db: Kysely<DB>, column: 'phone' | 'email', value: string) {
  return db
    .selectFrom('store_users as u')
    .innerJoin('stores as s', 's.id', 'u.store_id')
    .innerJoin('suppliers as p', 'p.id', 'u.supplier_id')
    .select(['u.phone', 'u.email', 'u.name', 's.id as store_id', 's.internal_code', 's.name as store_name', 'p.id as supplier_id', 'p.code as supplier_code', 'p.name as supplier_name'])
    .where(`u.${column}`, '=', value)
    .orderBy('p.code')
    .orderBy('s.internal_code')
    .limit(500)
    .execute();
}
