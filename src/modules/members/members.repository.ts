import { sql, type Kysely } from 'kysely';
import type { DB, MemberRole } from '../../db/types.ts';

const COLUMNS = ['id', 'email', 'role', 'created_at', 'updated_at'] as const;

export async function listMembers(db: Kysely<DB>, supplierId: number) {
  return db.selectFrom('supplier_members').select(COLUMNS).where('supplier_id', '=', supplierId).orderBy('email').execute();
}

/** Inserts the member; undefined when the email already is one of the supplier's. */
export async function insertMember(db: Kysely<DB>, supplierId: number, email: string, role: MemberRole) {
  return db
    .insertInto('supplier_members')
    .values({ supplier_id: supplierId, email, role })
    .onConflict((oc) => oc.columns(['supplier_id', 'email']).doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
}

/**
 * Locks the supplier's members for the rest of the transaction and answers the member
 * `id` of this supplier (undefined when it is another's or none) and how many owners it
 * has: two owners demoting each other at once cannot leave the supplier without one.
 */
export async function lockMembers(db: Kysely<DB>, supplierId: number, id: number) {
  const rows = await db.selectFrom('supplier_members').select(['id', 'role']).where('supplier_id', '=', supplierId).orderBy('id').forUpdate().execute();
  return { member: rows.find((r) => r.id === id), owners: rows.filter((r) => r.role === 'owner').length };
}

export async function updateRole(db: Kysely<DB>, id: number, role: MemberRole) {
  return db.updateTable('supplier_members').set({ role, updated_at: sql`now()` }).where('id', '=', id).returning(COLUMNS).executeTakeFirstOrThrow();
}

/** Removes the member and ends their console sessions acting for this supplier. */
export async function deleteMember(db: Kysely<DB>, supplierId: number, id: number) {
  const row = await db.deleteFrom('supplier_members').where('id', '=', id).where('supplier_id', '=', supplierId).returning('email').executeTakeFirstOrThrow();
  await db
    .updateTable('console_sessions')
    .set({ revoked_at: sql`now()` })
    .where('email', '=', row.email)
    .where('supplier_id', '=', supplierId)
    .where('revoked_at', 'is', null)
    .execute();
}
