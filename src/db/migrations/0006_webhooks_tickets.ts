// Frozen once shipped. The webhook outbox (events, their deliveries and every attempt),
// support tickets, and the notifications stores read in the app.
// - An event row is immutable: what was sent, as it was when it happened (JSON text).
// - A delivery row owns its state (status, attempts, next_attempt_at, last_error, lease):
//   the dispatcher claims it with FOR UPDATE SKIP LOCKED, and a dead dispatcher's lease
//   expires. Deliveries with an ordering_key go out one at a time per key, in id order.
// - Ticket ids are the platform's (stores and suppliers both use them); the messages of
//   a ticket are its conversation, kept on the row as one JSON array.
// No foreign key from tickets to orders: orders arrive in a later migration, and the
// ticket keeps the order id it was opened with.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table webhook_events (
     supplier_id bigint not null references suppliers(id),
     id bigint generated always as identity,
     message_id text not null,
     type text not null,
     path text not null,
     ordering_key text,
     body text not null,
     created_at timestamptz not null default now(),
     primary key (supplier_id, id),
     unique (supplier_id, message_id))`,

  `create table webhook_deliveries (
     supplier_id bigint not null references suppliers(id),
     id bigint generated always as identity,
     event_id bigint not null,
     event_type text not null,
     ordering_key text,
     redelivery_of bigint,
     status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
     attempts int not null default 0,
     max_attempts int not null default 10,
     next_attempt_at timestamptz not null default now(),
     last_status_code int,
     last_error text,
     lease_owner text,
     lease_expires_at timestamptz,
     created_at timestamptz not null default now(),
     finished_at timestamptz,
     primary key (supplier_id, id),
     foreign key (supplier_id, event_id) references webhook_events (supplier_id, id))`,
  `create index webhook_deliveries_due on webhook_deliveries (next_attempt_at, id) where status = 'pending'`,
  `create index webhook_deliveries_key on webhook_deliveries (supplier_id, ordering_key, id) where status = 'pending' and ordering_key is not null`,
  // Operators redeliver by the delivery's id alone (ids are unique across suppliers).
  `create index webhook_deliveries_id on webhook_deliveries (id)`,

  `create table webhook_attempts (
     supplier_id bigint not null,
     delivery_id bigint not null,
     id bigint generated always as identity,
     at timestamptz not null,
     status_code int,
     latency_ms int not null,
     response_body text,
     error text,
     primary key (supplier_id, delivery_id, id),
     foreign key (supplier_id, delivery_id) references webhook_deliveries (supplier_id, id) on delete cascade)`,

  `create table tickets (
     supplier_id bigint not null references suppliers(id),
     id bigint generated always as identity,
     store_id bigint not null references stores(id),
     opened_by bigint references people(id),
     status text not null check (status in ('PENDING', 'IN_PROGRESS', 'ADDITIONAL_INFO_REQUESTED', 'SOLVED', 'CLOSED')),
     user_message text not null,
     external_ticket_id text,
     order_id bigint,
     resolved_at timestamptz,
     messages jsonb not null,
     created_at timestamptz not null,
     updated_at timestamptz not null,
     primary key (supplier_id, id))`,
  `create index tickets_id on tickets (id)`,
  `create index tickets_status on tickets (supplier_id, status, id)`,
  `create index tickets_store on tickets (store_id, id)`,
  `create unique index tickets_external_id on tickets (supplier_id, external_ticket_id) where external_ticket_id is not null`,

  `create table notifications (
     supplier_id bigint not null references suppliers(id),
     id bigint generated always as identity,
     store_id bigint not null references stores(id),
     type text not null,
     ticket_id bigint,
     order_id bigint,
     message text,
     created_at timestamptz not null default now(),
     primary key (supplier_id, id))`,
  `create index notifications_store on notifications (store_id, id)`,

  // Read state is per person: two people of one store each read their notifications.
  `create table notification_reads (
     supplier_id bigint not null,
     notification_id bigint not null,
     person_id bigint not null references people(id),
     read_at timestamptz not null default now(),
     primary key (supplier_id, notification_id, person_id),
     foreign key (supplier_id, notification_id) references notifications (supplier_id, id) on delete cascade)`,
  `create index notification_reads_person on notification_reads (person_id, notification_id)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
