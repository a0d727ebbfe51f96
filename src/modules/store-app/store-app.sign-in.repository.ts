import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { namesPerson } from './store-app.repository.ts';

/** The person with, when they have none, the name the earliest membership naming them gives. */
export async function findPerson(db: Kysely<DB>, id: number) {
  return db
    .selectFrom('people as p')
    .select(['p.id', 'p.phone', 'p.email'])
    .select(
      sql<string | null>`coalesce(p.name, (select u.name from store_users u where ${namesPerson(id, 'u')} and u.name is not null order by u.created_at, u.id limit 1))`.as('name'),
    )
    .where('p.id', '=', id)
    .executeTakeFirst();
}

/** The stores whose memberships name the person, of every supplier. */
export async function personStores(db: Kysely<DB>, personId: number) {
  return db
    .selectFrom('stores as s')
    .innerJoin('suppliers as p', 'p.id', 's.supplier_id')
    .select(['s.id', 's.internal_code', 's.name', 'p.code as supplier_code', 'p.name as supplier_name'])
    .select(sql<boolean>`s.enabled and p.enabled`.as('enabled')) // a disabled supplier's stores show as closed
    .where((eb) => eb('s.id', 'in', eb.selectFrom('store_users as u').select('u.store_id').where(namesPerson(personId, 'u'))))
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
