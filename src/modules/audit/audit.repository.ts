import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { AuditLog, NewAuditEntry } from './audited.ts';

/** How a supplier's readers see every operator (README, "Operators as the platform"). */
export const PLATFORM_ACTOR = 'platform';

export async function insertEntry(db: Kysely<DB>, entry: NewAuditEntry): Promise<void> {
  await db
    .insertInto('audit_entries')
    .values({ ...entry, detail: entry.detail === undefined || entry.detail === null ? null : JSON.stringify(entry.detail) })
    .execute();
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

/** The audit log audited.ts writes through (src/deps.ts hands it over). */
export const auditLog: AuditLog = { record: insertEntry };
