// Every SQL statement of the message outbox and of people's message preferences.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, MessageChannel } from '../../db/types.ts';
import { pendingRowsStats } from '../../db/queue-stats.ts';

type Executor = Kysely<DB> | Transaction<DB>;

export interface NewMessage {
  purpose: 'code' | 'event';
  to_kind: 'phone' | 'email';
  recipient: string;
  channel: MessageChannel | null;
  language: string;
  only_if_known: boolean;
  subject: string | null;
  body: string;
  variables: Record<string, string> | null;
  expiresInSeconds: number | null;
  /** A test twin's message (src/modules/sandbox): kept in its test inbox, never sent. */
  inbox?: number;
}

/** How a message that landed in a test inbox is marked: never sent, its body kept. */
export const TEST_INBOX = 'test-inbox';

export async function insertMessages(trx: Transaction<DB>, messages: NewMessage[]) {
  if (messages.length === 0) return;
  await trx
    .insertInto('messages')
    .values(
      messages.map(({ expiresInSeconds, variables, inbox, ...m }) => ({
        ...m,
        variables: variables ? JSON.stringify(variables) : null,
        expires_at: expiresInSeconds === null ? null : sql<Date>`now() + make_interval(secs => ${expiresInSeconds})`,
        ...(inbox === undefined ? {} : { supplier_id: inbox, status: 'sent' as const, sent_via: TEST_INBOX, sent_at: sql<Date>`now()` }),
      })),
    )
    .execute();
}

/**
 * The test twin whose inbox a code to this identifier goes to: one whose store user it
 * names, when no live supplier's does (a live store's user gets the real code).
 */
export async function testInboxOf(db: Executor, kind: 'phone' | 'email', identifier: string): Promise<number | undefined> {
  const column = kind === 'phone' ? 'phone' : 'email';
  const row = await sql<{ twin: number | null; live: boolean }>`
    select
      (select min(m.supplier_id) from store_users m join suppliers s on s.id = m.supplier_id
        where s.live_supplier_id is not null and ${sql.ref(`m.${column}`)} = ${identifier}) as twin,
      exists (select 1 from store_users m join suppliers s on s.id = m.supplier_id
        where s.live_supplier_id is null and ${sql.ref(`m.${column}`)} = ${identifier}) as live`.execute(db);
  const { twin, live } = row.rows[0]!;
  return twin !== null && !live ? Number(twin) : undefined;
}

/** A code routed to a test inbox: kept there (its body too), or withheld (its body blanked) with the reason. */
export async function markInInbox(db: Executor, id: number, supplierId: number, withheld: string | null) {
  await db
    .updateTable('messages')
    .set(
      withheld === null
        ? { supplier_id: supplierId, status: 'sent', sent_via: TEST_INBOX, sent_at: sql`now()`, locked_until: null }
        : { supplier_id: supplierId, status: 'dropped', last_error: withheld, locked_until: null, ...blankBody },
    )
    .where('id', '=', id)
    .execute();
}

const blankBody = { body: '', variables: null } as const;

/** The test twins among these stores' suppliers: store id → twin id. */
export async function testStores(trx: Transaction<DB>, storeIds: number[]) {
  if (storeIds.length === 0) return new Map<number, number>();
  const rows = await trx
    .selectFrom('stores as st')
    .innerJoin('suppliers as s', 's.id', 'st.supplier_id')
    .select(['st.id', 's.id as supplier_id'])
    .where('st.id', 'in', storeIds)
    .where('s.live_supplier_id', 'is not', null)
    .execute();
  return new Map(rows.map((r) => [r.id, r.supplier_id]));
}

/** One due message, leased to this worker (a crashed worker's lease runs out and it is claimed again). */
export async function claimDue(db: Kysely<DB>, leaseSeconds: number) {
  const result = await sql<{
    id: number;
    purpose: 'code' | 'event';
    to_kind: 'phone' | 'email';
    recipient: string;
    channel: MessageChannel | null;
    only_if_known: boolean;
    subject: string | null;
    body: string;
    variables: Record<string, string> | null;
    attempts: number;
    expired: boolean;
  }>`
    update messages set locked_until = now() + make_interval(secs => ${leaseSeconds})
    where id = (
      select id from messages
      where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now())
      order by next_attempt_at, id
      limit 1
      for update skip locked)
    returning id, purpose, to_kind, recipient, channel, only_if_known, subject, body, variables, attempts,
      coalesce(expires_at <= now(), false) as expired`.execute(db);
  return result.rows[0];
}

export async function recordAttempt(db: Executor, a: { messageId: number; attempt: number; channel: string; ok: boolean; error: string | null; durationMs: number }) {
  await db
    .insertInto('message_attempts')
    .values({ message_id: a.messageId, attempt: a.attempt, channel: a.channel, ok: a.ok, error: a.error, duration_ms: a.durationMs })
    .execute();
}

const blank = { body: '', variables: null } as const;

export async function markSent(db: Executor, id: number, via: string, keepBody: boolean) {
  await db
    .updateTable('messages')
    .set({ status: 'sent', sent_via: via, sent_at: sql`now()`, attempts: sql`attempts + 1`, locked_until: null, last_error: null, ...(keepBody ? {} : blank) })
    .where('id', '=', id)
    .execute();
}

/** Ends a message unsent: nobody to send it to, expired, or out of tries. Its body goes. */
export async function markEnded(db: Executor, id: number, status: 'dropped' | 'failed', error: string | null, countAttempt: boolean) {
  await db
    .updateTable('messages')
    .set({ status, last_error: error, locked_until: null, ...(countAttempt ? { attempts: sql`attempts + 1` } : {}), ...blank })
    .where('id', '=', id)
    .execute();
}

export async function reschedule(db: Executor, id: number, error: string, delaySeconds: number) {
  await db
    .updateTable('messages')
    .set({ attempts: sql`attempts + 1`, last_error: error, locked_until: null, next_attempt_at: sql`now() + make_interval(secs => ${delaySeconds})` })
    .where('id', '=', id)
    .execute();
}

/** Codes kept for the development mailbox lose their body once they expire. */
export async function blankExpiredCodes(db: Kysely<DB>) {
  await db.updateTable('messages').set(blank).where('purpose', '=', 'code').where('body', '<>', '').where(sql<boolean>`expires_at <= now()`).execute();
}

export async function recentMessages(db: Kysely<DB>, limit: number) {
  return db
    .selectFrom('messages')
    .select(['recipient', 'to_kind', 'channel', 'sent_via', 'subject', 'body', 'status', 'created_at'])
    .where('body', '<>', '')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function preferencesOf(db: Executor, personId: number) {
  return db.selectFrom('person_preferences').select(['language', 'channel', 'events']).where('person_id', '=', personId).executeTakeFirst();
}

export async function languageOfIdentifier(db: Executor, kind: 'phone' | 'email', identifier: string) {
  const row = await db
    .selectFrom('people as p')
    .innerJoin('person_preferences as pp', 'pp.person_id', 'p.id')
    .select('pp.language')
    .where(kind === 'phone' ? 'p.phone' : 'p.email', '=', identifier)
    .executeTakeFirst();
  return row?.language;
}

export async function savePreferences(db: Executor, personId: number, p: { language: string; channel: MessageChannel | null; events: string[] }) {
  await db
    .insertInto('person_preferences')
    .values({ person_id: personId, language: p.language, channel: p.channel, events: p.events })
    .onConflict((oc) => oc.column('person_id').doUpdateSet({ language: p.language, channel: p.channel, events: p.events, updated_at: sql`now()` }))
    .execute();
}

/** The people of a store who opted into an event, with where their chosen channel reaches them. */
export async function subscribersOf(trx: Transaction<DB>, storeId: number, event: string) {
  return trx
    .selectFrom('people as p')
    .innerJoin('person_preferences as pp', 'pp.person_id', 'p.id')
    .select(['p.id', 'p.phone', 'p.email', 'pp.language', 'pp.channel'])
    .where('pp.channel', 'is not', null)
    .where(sql<boolean>`${event} = any(pp.events)`)
    .where((eb) => eb.exists(eb.selectFrom('store_users as m').select('m.id').where('m.store_id', '=', storeId).where(belongsToStoreRow('m', 'p'))))
    .execute();
}

/** The membership row names one of the person row's identifiers. */
const belongsToStoreRow = (m: string, p: string) => sql<boolean>`(${sql.ref(`${m}.phone`)} = ${sql.ref(`${p}.phone`)} or ${sql.ref(`${m}.email`)} = ${sql.ref(`${p}.email`)})`;

export async function storeNames(trx: Transaction<DB>, storeIds: number[]) {
  if (storeIds.length === 0) return new Map<number, string>();
  const rows = await trx.selectFrom('stores').select(['id', 'name']).where('id', 'in', storeIds).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** For the metrics scrape: messages waiting to be sent (src/db/queue-stats.ts). */
export const queueStats = (db: Kysely<DB>) => pendingRowsStats(db, 'messages');
