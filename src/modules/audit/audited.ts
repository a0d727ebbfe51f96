// Who changed what (README.md): the write routes' side. A route that declares
// `config.audit` (the entity it writes) runs its service through `audited(deps, request,
// (db) => ...)`, which hands the service a transaction and inserts the audit entry in that
// same transaction once the service has returned: the write and its entry commit together
// or not at all, and a refused write (an error) leaves no entry. src/http/audit.ts checks
// that every write route declares it, and that a success recorded its entry.
import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { AuditActorKind, AuditEntriesTable, DB } from '../../db/types.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The entity a write route changes, for its audit entry; `false`: the route is not audited (say why). */
    audit?: string | false;
  }
  interface FastifyRequest {
    /** Set once the request's audit entry is written (checked when the answer goes out). */
    audited?: boolean;
  }
}

/** One audit entry as the write's transaction records it: the table's row but what the database fills in; `detail` before it is serialised. */
export type NewAuditEntry = { [K in Exclude<keyof AuditEntriesTable, 'id' | 'at' | 'detail'>]: AuditEntriesTable[K] } & { detail: unknown };

/** A record's fields as the audit log compares them before and after a write (README, "Before and after"). */
export type Snapshot = Record<string, string | number | boolean | null | readonly string[]>;

/** What names the record a write changes: its supplier, its key (a code or an id) and the route (a grouper's kind). */
export interface SnapshotTarget {
  supplierId: number | undefined;
  key: string | undefined;
  route: string;
}

/** Where entries go: the repository's insertEntry (auditLog), handed over by src/deps.ts. */
export interface AuditLog {
  /** Inserts the entry with `db`: the write's own transaction. */
  record(db: Kysely<DB>, entry: NewAuditEntry): Promise<void>;
  /** The changed record's fields, read in `db` before and after the write (README, "Before and after"). */
  snapshot?(db: Kysely<DB>, entity: string, target: SnapshotTarget): Promise<Snapshot | undefined>;
}

/** One field a write changed, as it was and as it is. */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** The fields that differ between two snapshots of one record; none when either is missing (a creation, a removal). */
export function changesOf(before: Snapshot | undefined, after: Snapshot | undefined): FieldChange[] {
  if (!before || !after) return [];
  return Object.keys(after)
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({ field, before: before[field] ?? null, after: after[field] ?? null }));
}

/** An entry's detail with the changes beside what the route said (`changes` is the audit log's own key). */
function withChanges(detail: unknown, changes: FieldChange[]): unknown {
  if (changes.length === 0) return detail;
  const own = detail === null || detail === undefined ? {} : typeof detail === 'object' && !Array.isArray(detail) ? detail : { value: detail };
  return { ...own, changes };
}

export interface Actor {
  kind: AuditActorKind;
  id: string;
}

/** Who is writing: a supplier credential, a supplier member (a console session), or an operator (their session's email; `admin` for ADMIN_TOKEN). */
export function actorOf(request: FastifyRequest): Actor {
  if (request.supplier?.person) return { kind: 'person', id: request.supplier.person };
  if (request.supplier) return { kind: 'credential', id: request.supplier.clientId };
  if (request.routeOptions.config?.auth === 'admin') return { kind: 'operator', id: request.consoleSession?.email ?? 'admin' };
  throw new Error(`no audit actor for ${request.method} ${request.routeOptions.url}`);
}

export interface AuditOptions<T> {
  /** The entity's code or id; by default the route's :code, :id or :clientId, else the answer's internalCode, code, id or clientId, else :supplierId. */
  entityId?: (result: T) => string | number | null | undefined;
  /** The supplier the write concerns; by default the credential's, else the route's :supplierId. */
  supplierId?: (result: T, trx: Transaction<DB>) => Promise<number | null | undefined> | number | null | undefined;
  /** More about the write (a batch: its ids). */
  detail?: (result: T) => unknown;
}

/** What audited() needs of the process (src/deps.ts's Deps has it). */
export interface AuditedDeps {
  db: Kysely<DB>;
  audit: AuditLog;
  /** Wakes the workers once the write has committed (what it queued is visible then). */
  workAccepted(): void;
}

type Bag = Record<string, unknown> | undefined;
const pick = (bag: Bag, ...keys: string[]) => {
  for (const key of keys) {
    const value = bag?.[key];
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  }
  return undefined;
};

/**
 * Runs a write and records it, in one transaction. `work` gets the transaction as its
 * database handle; services that open their own transaction join it (src/db/transaction.ts).
 * Workers are woken after the commit: what the write queued is only visible then.
 */
export async function audited<T>(deps: AuditedDeps, request: FastifyRequest, work: (db: Kysely<DB>) => Promise<T>, options: AuditOptions<T> = {}): Promise<T> {
  const entity = request.routeOptions.config?.audit;
  if (!entity) throw new Error(`${request.method} ${request.routeOptions.url} calls audited() without config.audit`);
  const actor = actorOf(request);
  const params = request.params as Bag;
  const route = `${request.method} ${request.routeOptions.url}`;
  // The record the write names, read before and after it in its own transaction: the
  // route's :code, :id or :clientId, else the body's internalCode or ticketId (an upsert,
  // a ticket's close), else the route's :supplierId.
  const target: SnapshotTarget = {
    supplierId: request.supplier?.supplierId ?? (params?.supplierId === undefined ? undefined : Number(params.supplierId)),
    key: pick(params, 'code', 'id', 'clientId') ?? pick(request.body as Bag, 'internalCode', 'ticketId') ?? pick(params, 'supplierId'),
    route,
  };
  const result = await deps.db.transaction().execute(async (trx) => {
    const before = await deps.audit.snapshot?.(trx, entity, target);
    const result = await work(trx);
    const changes = before ? changesOf(before, await deps.audit.snapshot?.(trx, entity, target)) : [];
    const answer = (result ?? undefined) as Bag;
    const supplierId = options.supplierId
      ? await options.supplierId(result, trx)
      : (request.supplier?.supplierId ?? (params?.supplierId === undefined ? undefined : Number(params.supplierId)));
    const entityId = options.entityId ? options.entityId(result) : (pick(params, 'code', 'id', 'clientId') ?? pick(answer, 'internalCode', 'code', 'id', 'clientId') ?? pick(params, 'supplierId'));
    await deps.audit.record(trx, {
      supplier_id: supplierId ?? null,
      actor_kind: actor.kind,
      actor_id: actor.id,
      operation: route,
      entity,
      entity_id: entityId === undefined || entityId === null ? null : String(entityId),
      detail: withChanges(options.detail?.(result) ?? null, changes),
      request_id: request.id,
      client_address: request.ip ?? null,
    });
    return result;
  });
  request.audited = true;
  deps.workAccepted();
  return result;
}
