// Frozen once shipped. A sandbox for integrators (src/modules/sandbox/README.md):
//
// - suppliers.live_supplier_id: a supplier row that names another is that supplier's test
//   twin, with its own catalog, stores, orders, tickets, webhook settings and deliveries,
//   kept apart from the live ones by every rule that already keeps suppliers apart by
//   supplier_id. At most one twin per live supplier (unique), never its own twin, and
//   a twin of a twin is refused by the service. A twin has its live supplier's code, so
//   the code is unique among live suppliers only (a partial unique index replaces the
//   column's unique constraint).
// - sandbox_clocks: a twin's moved time. The twin's now is set_now + (real now - set_at),
//   so time keeps moving from the set point; no row is real time. Every change sends
//   NOTIFY sandbox_clock_changed from its transaction (the per-process cache forgets).
// - console_sessions.test_mode: the console's test-mode switch; while on, the session's
//   supplier calls work on the twin of the supplier it acts for.
// - messages.supplier_id: set, the message is a twin's and lands in its test inbox
//   (GET /sandbox/messages) instead of being sent.
import { sql, type Kysely } from 'kysely';

const statements = [
  `alter table suppliers
     add column live_supplier_id bigint unique references suppliers(id) on delete cascade,
     add constraint suppliers_twin_of_another check (live_supplier_id <> id)`,
  `alter table suppliers drop constraint suppliers_code_key`,
  `create unique index suppliers_live_code on suppliers (code) where live_supplier_id is null`,

  `create table sandbox_clocks (
     supplier_id bigint primary key references suppliers(id) on delete cascade,
     set_now timestamptz not null,
     set_at timestamptz not null)`,

  `alter table console_sessions add column test_mode boolean not null default false`,

  `alter table messages add column supplier_id bigint references suppliers(id) on delete cascade`,
  `create index messages_test_inbox on messages (supplier_id, id) where supplier_id is not null`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
