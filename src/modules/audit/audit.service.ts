// Reading the audit log. Entries are written by audited.ts, in each write's own
// transaction; nothing here writes.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { fieldError } from '../../lib/errors.ts';
import { page } from '../../lib/pagination.ts';
import * as repo from './audit.repository.ts';
import type { AuditQuery } from './audit.schemas.ts';
import type { FieldChange } from './audited.ts';

type Row = Awaited<ReturnType<typeof repo.listEntries>>['rows'][number];

/** Who reads: an operator sees every actor as recorded; a supplier's reader sees operators as the platform. */
export type AuditReader = 'operator' | 'supplier';

/** The stored detail apart from the changes audited() kept in it (audited.ts, withChanges). */
function detailOf(stored: unknown): { detail: unknown; changes?: FieldChange[] } {
  if (stored === null || stored === undefined || typeof stored !== 'object' || !('changes' in stored) || !Array.isArray(stored.changes)) return { detail: stored ?? null };
  const { changes, ...rest } = stored as { changes: FieldChange[] };
  return { detail: Object.keys(rest).length === 0 ? null : rest, changes };
}

const toEntry = (reader: AuditReader) => (r: Row) => {
  // An operator is a person of the platform, not of the supplier: their email and address
  // are the platform's to know (README, "Operators as the platform").
  const hidden = reader === 'supplier' && r.actor_kind === 'operator';
  return {
    id: r.id,
    at: r.at.toISOString(),
    supplierId: r.supplier_id,
    actor: { kind: r.actor_kind, id: hidden ? repo.PLATFORM_ACTOR : r.actor_id },
    operation: r.operation,
    entity: r.entity,
    entityId: r.entity_id,
    ...detailOf(r.detail),
    requestId: r.request_id,
    clientAddress: hidden ? null : r.client_address,
  };
};

/** `supplierId` undefined: every supplier's entries and the platform's (operators only). */
export async function listAudit(db: Kysely<DB>, supplierId: number | undefined, query: AuditQuery, reader: AuditReader) {
  if (query.from && query.to && Date.parse(query.from) > Date.parse(query.to)) {
    throw fieldError('VALIDATION_FAILED', '/query/from', 'from must not be after to');
  }
  const { rows, total } = await repo.listEntries(
    db,
    { supplierId, actor: query.actor, operatorsAsPlatform: reader === 'supplier', entity: query.entity, entityId: query.entityId, from: query.from, to: query.to },
    { take: query.take, offset: (query.page - 1) * query.take },
  );
  return page(rows.map(toEntry(reader)), total, query.page, query.take);
}
