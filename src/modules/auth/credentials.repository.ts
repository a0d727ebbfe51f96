import { sql, type Kysely } from 'kysely';
import { CREDENTIALS_REVOKED } from './live-credentials.ts';
import type { DB } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';

export async function insertClient(
  db: Kysely<DB>,
  row: { client_id: string; supplier_id: number; api_key_hash: string; secret_hash: string; scopes: string[] },
): Promise<void> {
  await db.insertInto('api_clients').values(row).execute();
}

/** Whether keyHash is the hash of a live API key. */
export async function isLiveApiKey(db: Kysely<DB>, keyHash: string): Promise<boolean> {
  const row = await db.selectFrom('api_clients').select('client_id').where('api_key_hash', '=', keyHash).where('revoked_at', 'is', null).executeTakeFirst();
  return row !== undefined;
}

/** The live client whose API key hashes to keyHash, with the client named by clientId, if both exist. */
export async function findLoginPair(db: Kysely<DB>, keyHash: string, clientId: string) {
  return db
    .selectFrom('api_clients as c')
    .innerJoin('api_clients as k', 'k.supplier_id', 'c.supplier_id')
    .innerJoin('suppliers as p', 'p.id', 'c.supplier_id')
    .select(['c.client_id', 'c.supplier_id', 'c.secret_hash', 'c.scopes', 'p.live_supplier_id'])
    .where('p.enabled', '=', true)
    .where('c.client_id', '=', clientId)
    .where('k.api_key_hash', '=', keyHash)
    .where('c.revoked_at', 'is', null)
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst();
}

/**
 * True when the token's client is still live and the API key is a live key of the same
 * supplier: one indexed query per request, so a revocation takes effect at once.
 */
export async function isLiveCredentialPair(db: Kysely<DB>, keyHash: string, clientId: string, supplierId: number) {
  const row = await db
    .selectFrom('api_clients as c')
    .innerJoin('api_clients as k', 'k.supplier_id', 'c.supplier_id')
    .innerJoin('suppliers as p', 'p.id', 'c.supplier_id')
    .select(sql<number>`1`.as('ok'))
    .where('p.enabled', '=', true)
    .where('c.client_id', '=', clientId)
    .where('c.supplier_id', '=', supplierId)
    .where('k.api_key_hash', '=', keyHash)
    .where('c.revoked_at', 'is', null)
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Revokes a client and, in the same transaction, tells every process to forget the
 * credential pairs it trusted (live-credentials.ts): the NOTIFY is delivered when the
 * revocation commits, never before and never without it.
 */
export async function revokeClient(db: Kysely<DB>, clientId: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable('api_clients')
      .set({ revoked_at: sql`now()` })
      .where('client_id', '=', clientId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const revoked = Number(result.numUpdatedRows) > 0;
    if (revoked) await sql`select pg_notify(${CREDENTIALS_REVOKED}, '')`.execute(trx);
    return revoked;
  });
}

/**
 * Enables or disables a supplier. Disabling stops its credentials at once: the live pairs
 * every process trusts are forgotten (the same NOTIFY as a revocation, sent on commit) and
 * every check requires an enabled supplier. Its test twin (src/modules/sandbox) follows it,
 * so a disabled supplier's test credentials stop too. Undefined when there is no such
 * live supplier.
 */
export async function setSupplierEnabled(db: Kysely<DB>, supplierId: number, enabled: boolean) {
  return inTransaction(db, async (trx) => {
    await trx.updateTable('suppliers').set({ enabled, updated_at: sql`now()` }).where('live_supplier_id', '=', supplierId).execute();
    const row = await trx
      .updateTable('suppliers')
      .set({ enabled, updated_at: sql`now()` })
      .where('id', '=', supplierId)
      .where('live_supplier_id', 'is', null)
      .returning(['id', 'code', 'name', 'enabled'])
      .executeTakeFirst();
    if (row && !enabled) await sql`select pg_notify(${CREDENTIALS_REVOKED}, '')`.execute(trx);
    return row;
  });
}

/** A page of a supplier's clients, newest first, live and revoked; never a hash. */
export async function listClients(db: Kysely<DB>, supplierId: number, f: { revoked?: boolean; take: number; page: number }) {
  let base = db.selectFrom('api_clients').where('supplier_id', '=', supplierId);
  if (f.revoked !== undefined) base = base.where('revoked_at', f.revoked ? 'is not' : 'is', null);
  const [rows, count] = await Promise.all([
    base
      .select(['client_id', 'scopes', 'created_at', 'revoked_at'])
      .orderBy('created_at', 'desc')
      .orderBy('client_id')
      .limit(f.take)
      .offset((f.page - 1) * f.take)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

export async function clientExists(db: Kysely<DB>, clientId: string): Promise<boolean> {
  return (await db.selectFrom('api_clients').select('client_id').where('client_id', '=', clientId).executeTakeFirst()) !== undefined;
}

export async function getOrCreateSecret(db: Kysely<DB>, name: string, generate: () => string): Promise<string> {
  await db.insertInto('platform_secrets').values({ name, value: generate() }).onConflict((oc) => oc.column('name').doNothing()).execute();
  const row = await db.selectFrom('platform_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}

/** The supplier a client belongs to (revoked or not). */
export async function supplierOfClient(db: Kysely<DB>, clientId: string): Promise<number | undefined> {
  const row = await db.selectFrom('api_clients').select('supplier_id').where('client_id', '=', clientId).executeTakeFirst();
  return row?.supplier_id;
}
