import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { AuditLog, NewAuditEntry, Snapshot, SnapshotTarget } from './audited.ts';

/** How a supplier's readers see every operator (README, "Operators as the platform"). */
export const PLATFORM_ACTOR = 'platform';

export async function insertEntry(db: Kysely<DB>, entry: NewAuditEntry): Promise<void> {
  await db
    .insertInto('audit_entries')
    .values({ ...entry, detail: entry.detail === undefined || entry.detail === null ? null : JSON.stringify(entry.detail) })
    .execute();
}

/** What the console's sign-ins record (README, "Sign-ins"). */
export const SIGN_IN = { operation: 'POST /console/auth/token', entity: 'session' } as const;

/**
 * A console sign-in, in the transaction that opens the session: one entry per supplier the
 * person is a member of (each supplier sees its own people come in), and one of the platform's
 * (no supplier) when the person is an operator.
 */
export async function recordSignIn(db: Kysely<DB>, s: { email: string; supplierIds: readonly number[]; operator: boolean; requestId: string | null; clientAddress: string | null }) {
  const common = { ...SIGN_IN, entity_id: null, detail: null, request_id: s.requestId, client_address: s.clientAddress, actor_id: s.email };
  const rows = [
    ...s.supplierIds.map((supplierId) => ({ ...common, supplier_id: supplierId, actor_kind: 'person' as const })),
    ...(s.operator ? [{ ...common, supplier_id: null, actor_kind: 'operator' as const }] : []),
  ];
  if (rows.length > 0) await db.insertInto('audit_entries').values(rows).execute();
}

export interface AuditFilter {
  supplierId?: number;
  actor?: string;
  /** A supplier's view: operators are one actor, `platform`; their own ids find nothing. */
  operatorsAsPlatform?: boolean;
  entity?: string;
  entityId?: string;
  from?: string;
  to?: string;
}

function filtered(db: Kysely<DB>, f: AuditFilter) {
  let q = db.selectFrom('audit_entries');
  if (f.supplierId !== undefined) q = q.where('supplier_id', '=', f.supplierId);
  if (f.actor !== undefined && f.operatorsAsPlatform) {
    q = f.actor === PLATFORM_ACTOR ? q.where('actor_kind', '=', 'operator') : q.where('actor_kind', '<>', 'operator').where('actor_id', '=', f.actor);
  } else if (f.actor !== undefined) q = q.where('actor_id', '=', f.actor);
  if (f.entity !== undefined) q = q.where('entity', '=', f.entity);
  if (f.entityId !== undefined) q = q.where('entity_id', '=', f.entityId);
  if (f.from !== undefined) q = q.where('at', '>=', new Date(f.from));
  if (f.to !== undefined) q = q.where('at', '<', new Date(f.to));
  return q;
}

/** Newest first; ids grow with time, so `id desc` is the order of the writes' commits' starts. */
export async function listEntries(db: Kysely<DB>, f: AuditFilter, page: { take: number; offset: number }) {
  const [rows, count] = await Promise.all([
    filtered(db, f).selectAll().orderBy('id', 'desc').limit(page.take).offset(page.offset).execute(),
    filtered(db, f).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}


const idOf = (key: string | undefined) => (key !== undefined && /^\d{1,15}$/.test(key) ? Number(key) : undefined);

/**
 * The fields kept before and after a write, per entity: what a person changes by hand and
 * would want to see old → new. Never a secret (a webhook's secret is left out) nor a body
 * the log does not keep (an order's lines, a promotion's tiers). An entity not listed here
 * records no changes.
 */
const SNAPSHOTS: Record<string, (db: Kysely<DB>, t: SnapshotTarget) => Promise<Snapshot | undefined>> = {
  order: async (db, t) => {
    const id = idOf(t.key);
    if (id === undefined || t.supplierId === undefined) return undefined;
    return db.selectFrom('orders').select(['status', 'delivery_date as deliveryDate']).where('supplier_id', '=', t.supplierId).where('id', '=', id).executeTakeFirst();
  },
  ticket: async (db, t) => {
    const id = idOf(t.key);
    if (id === undefined || t.supplierId === undefined) return undefined;
    return db.selectFrom('tickets').select(['status']).where('supplier_id', '=', t.supplierId).where('id', '=', id).executeTakeFirst();
  },
  member: async (db, t) => {
    const id = idOf(t.key);
    if (id === undefined || t.supplierId === undefined) return undefined;
    return db.selectFrom('supplier_members').select(['role']).where('supplier_id', '=', t.supplierId).where('id', '=', id).executeTakeFirst();
  },
  pricelist: async (db, t) => {
    if (t.key === undefined || t.supplierId === undefined) return undefined;
    return db.selectFrom('price_lists').select(['name', 'enabled']).where('supplier_id', '=', t.supplierId).where('internal_code', '=', t.key).executeTakeFirst();
  },
  promotion: async (db, t) => {
    if (t.key === undefined || t.supplierId === undefined) return undefined;
    return db
      .selectFrom('promotions')
      .select(['name', 'enabled', 'start_date as start', 'end_date as end'])
      .where('supplier_id', '=', t.supplierId)
      .where('internal_code', '=', t.key)
      .executeTakeFirst();
  },
  grouper: async (db, t) => {
    if (t.key === undefined || t.supplierId === undefined) return undefined;
    // A code names one grouper per kind; the route says which (`/grouper/:code/stock`).
    const kind = t.route.includes('/stock') ? 'stock' : 'promotion';
    return db.selectFrom('groupers').select(['name', 'enabled']).where('supplier_id', '=', t.supplierId).where('kind', '=', kind).where('internal_code', '=', t.key).executeTakeFirst();
  },
  seller: async (db, t) => {
    if (t.key === undefined || t.supplierId === undefined) return undefined;
    return db.selectFrom('sellers').select(['name', 'phone', 'email']).where('supplier_id', '=', t.supplierId).where('internal_code', '=', t.key).executeTakeFirst();
  },
  webhook: async (db, t) => {
    if (t.supplierId === undefined) return undefined;
    return db.selectFrom('supplier_webhooks').select(['base_url as baseUrl', 'enabled', 'events']).where('supplier_id', '=', t.supplierId).executeTakeFirst();
  },
  supplier: async (db, t) => {
    if (t.supplierId === undefined) return undefined;
    return db.selectFrom('suppliers').select(['name', 'enabled']).where('id', '=', t.supplierId).executeTakeFirst();
  },
};

/** The record's fields now, in `db` (the write's transaction), or undefined (no such record, or an entity without a snapshot). */
export async function snapshot(db: Kysely<DB>, entity: string, target: SnapshotTarget): Promise<Snapshot | undefined> {
  const read = SNAPSHOTS[entity];
  return read ? read(db, target) : undefined;
}

/** The audit log audited.ts writes through (src/deps.ts hands it over). */
export const auditLog: AuditLog = { record: insertEntry, snapshot };
