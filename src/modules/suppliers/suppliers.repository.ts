import { sql, type Kysely } from 'kysely';
import type { CancelCode, DB } from '../../db/types.ts';

export async function insertSupplier(db: Kysely<DB>, code: string, name: string) {
  return db.insertInto('suppliers').values({ code, name }).returning(['id', 'code', 'name', 'enabled']).executeTakeFirstOrThrow();
}

export async function findSupplier(db: Kysely<DB>, id: number) {
  return db.selectFrom('suppliers').select(['id', 'code', 'name', 'minimum_order']).where('id', '=', id).executeTakeFirst();
}

export async function findSupplierByCode(db: Kysely<DB>, code: string) {
  return db.selectFrom('suppliers').select(['id', 'code', 'name', 'minimum_order']).where('code', '=', code).executeTakeFirst();
}

export async function listSuppliers(db: Kysely<DB>) {
  return db.selectFrom('suppliers').select(['id', 'code', 'name', 'enabled']).orderBy('id').execute();
}

export async function countSuppliers(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('suppliers').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return row.n;
}

export async function setMinimumOrder(db: Kysely<DB>, id: number, minimumOrder: number | null) {
  await db
    .updateTable('suppliers')
    .set({ minimum_order: minimumOrder === null ? null : String(minimumOrder), updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

export async function findWebhook(db: Kysely<DB>, supplierId: number) {
  return db.selectFrom('supplier_webhooks').selectAll().where('supplier_id', '=', supplierId).executeTakeFirst();
}

export async function upsertWebhook(db: Kysely<DB>, supplierId: number, baseUrl: string | null, enabled: boolean, newSecret: string) {
  return db
    .insertInto('supplier_webhooks')
    .values({ supplier_id: supplierId, base_url: baseUrl, enabled, secret: newSecret })
    .onConflict((oc) => oc.column('supplier_id').doUpdateSet({ base_url: baseUrl, enabled, updated_at: sql`now()` }))
    .returning(['base_url', 'enabled', 'secret'])
    .executeTakeFirstOrThrow();
}

/** The old secret keeps signing beside the new one until graceSeconds have passed. */
export async function rotateWebhookSecret(db: Kysely<DB>, supplierId: number, newSecret: string, graceSeconds: number) {
  return db
    .updateTable('supplier_webhooks')
    .set({
      previous_secret: sql`secret`,
      previous_secret_expires_at: sql`now() + make_interval(secs => ${graceSeconds})`,
      secret: newSecret,
      updated_at: sql`now()`,
    })
    .where('supplier_id', '=', supplierId)
    .returning(['secret'])
    .executeTakeFirst();
}

/** The supplier's cancellation codes; null while it keeps the default set. */
export async function findCancelCodes(db: Kysely<DB>, supplierId: number): Promise<CancelCode[] | null | undefined> {
  const row = await db.selectFrom('suppliers').select('cancel_codes').where('id', '=', supplierId).executeTakeFirst();
  return row?.cancel_codes;
}

export async function setCancelCodes(db: Kysely<DB>, supplierId: number, codes: CancelCode[]) {
  await db.updateTable('suppliers').set({ cancel_codes: JSON.stringify(codes), updated_at: sql`now()` }).where('id', '=', supplierId).execute();
}
