// The people of a supplier (README.md): invited by email with a role, signing in to the
// console with a code sent there. Every write keeps at least one owner.
import type { Kysely } from 'kysely';
import type { DB, MemberRole } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import { fieldError } from '../../lib/errors.ts';
import { enqueueInvitation } from '../messages/messages.service.ts';
import { normaliseEmail } from '../people/people.service.ts';
import { requireSupplier } from '../suppliers/suppliers.service.ts';
import * as repo from './members.repository.ts';

type Row = Awaited<ReturnType<typeof repo.listMembers>>[number];
const answer = (m: Row) => ({ id: m.id, email: m.email, role: m.role, createdAt: m.created_at.toISOString(), updatedAt: m.updated_at.toISOString() });

const memberNotFound = (id: number) => fieldError('NOT_FOUND', '/params/id', `member ${id} does not exist`);
const lastOwner = (pointer: string) => fieldError('CONFLICT', pointer, 'the supplier must keep at least one owner: make someone else owner first');

export async function listMembers(db: Kysely<DB>, supplierId: number) {
  await requireSupplier(db, supplierId);
  return (await repo.listMembers(db, supplierId)).map(answer);
}

/** Adds a member and emails them an invitation to the console (`consoleUrl`), in one transaction. */
export async function inviteMember(db: Kysely<DB>, supplierId: number, input: { email: string; role: MemberRole }, consoleUrl: string) {
  const email = normaliseEmail(input.email)!;
  return inTransaction(db, async (trx) => {
    const supplier = await requireSupplier(trx, supplierId);
    const created = await repo.insertMember(trx, supplierId, email, input.role);
    if (!created) throw fieldError('ALREADY_EXISTS', '/email', `${email} is already a member of this supplier`);
    await enqueueInvitation(trx, { email, supplier: supplier.name, role: input.role, url: consoleUrl });
    return answer(created);
  });
}

export async function changeRole(db: Kysely<DB>, supplierId: number, id: number, role: MemberRole) {
  return inTransaction(db, async (trx) => {
    const { member, owners } = await repo.lockMembers(trx, supplierId, id);
    if (!member) throw memberNotFound(id);
    if (member.role === 'owner' && role !== 'owner' && owners === 1) throw lastOwner('/role');
    return answer(await repo.updateRole(trx, id, role));
  });
}

export async function removeMember(db: Kysely<DB>, supplierId: number, id: number) {
  return inTransaction(db, async (trx) => {
    const { member, owners } = await repo.lockMembers(trx, supplierId, id);
    if (!member) throw memberNotFound(id);
    if (member.role === 'owner' && owners === 1) throw lastOwner('/params/id');
    await repo.deleteMember(trx, supplierId, id);
    return { id, removed: true };
  });
}

