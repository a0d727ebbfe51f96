// GET /sandbox/messages: the twin's test inbox (README.md, "Messages"), written by the
// message module's outbox (../messages): what its store users would have been sent.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { page } from '../../lib/pagination.ts';
import * as repo from './sandbox.repository.ts';

export async function inbox(db: Kysely<DB>, twinId: number, query: { take: number; page: number }) {
  const { rows, total } = await repo.inboxPage(db, twinId, query);
  const data = rows.map((r) => ({
    id: r.id,
    purpose: r.purpose,
    to: r.recipient,
    channel: r.channel ?? (r.to_kind === 'email' ? 'email' : 'sms'),
    subject: r.subject,
    body: r.body,
    status: r.status === 'dropped' ? ('withheld' as const) : ('inbox' as const),
    note: r.status === 'dropped' ? r.last_error : null,
    createdAt: r.created_at.toISOString(),
  }));
  return page(data, total, query.page, query.take);
}
