import { sql, type Kysely } from 'kysely';
import type { CancelCode, DB } from '../../db/types.ts';

export async function insertSupplier(db: Kysely<DB>, code: string, name: string) {
  return db.insertInto('suppliers').values({ code, name }).returning(['id', 'code', 'name', 'enabled']).executeTakeFirstOrThrow();
}

/** Live or a test twin (`live_supplier_id` set: src/modules/sandbox). */
export async function findSupplier(db: Kysely<DB>, id: number) {
  return db.selectFrom('suppliers').select(['id', 'code', 'name', 'minimum_order', 'live_supplier_id']).where('id', '=', id).executeTakeFirst();
}

/** Live suppliers only: a test twin is part of its live supplier, never a supplier of its own. */
export async function listSuppliers(db: Kysely<DB>) {
  return db.selectFrom('suppliers').select(['id', 'code', 'name', 'enabled']).where('live_supplier_id', 'is', null).orderBy('id').execute();
}

export async function countSuppliers(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('suppliers').select(sql<number>`count(*)::int`.as('n')).where('live_supplier_id', 'is', null).executeTakeFirstOrThrow();
  return row.n;
}

export async function setMinimumOrder(db: Kysely<DB>, id: number, minimumOrder: number | null) {
  await db
    .updateTable('suppliers')
    .set({ minimum_order: minimumOrder === null ? null : String(minimumOrder), updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** `baseUrl` or `events` undefined: a new webhook gets none, an existing one keeps its own. */
export async function upsertWebhook(
  db: Kysely<DB>,
  supplierId: number,
  baseUrl: string | null | undefined,
  enabled: boolean,
  newSecret: string,
  events?: string[],
) {
  return db
    .insertInto('supplier_webhooks')
    .values({ supplier_id: supplierId, base_url: baseUrl ?? null, enabled, secret: newSecret, events: events ?? [] })
    .onConflict((oc) =>
      oc.column('supplier_id').doUpdateSet({ ...(baseUrl === undefined ? {} : { base_url: baseUrl }), ...(events === undefined ? {} : { events }), enabled, updated_at: sql`now()` }),
    )
    .returning(['base_url', 'enabled', 'secret', 'events'])
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
