// Frozen once shipped. Credit, invoices and payments (issue 31, third part;
// src/modules/credit/README.md).
//
// - store_credit: a store's payment methods and credit terms, one row per store (none:
//   the store places orders as before, no payment method). Keyed to the store by
//   (supplier_id, store_id), as orders are (migration 0032), so a row never names another
//   supplier's store. The credit check of a placement locks this row (FOR UPDATE): two
//   orders of one store on credit are checked one after the other. A change sends NOTIFY
//   store_data_changed (migration 0016): the store side caches a store's payment methods.
// - invoices: relayed by the ERP (POST /batch/invoice), keyed (supplier_id, internal_code).
//   `paid` is the sum of the payments' allocations to it, kept by the payment batch with
//   deltas (`paid = paid + d`, safe beside another writer of the row). `order_ids` is the
//   list as sent (answered in its order); `overdue_announced_at` marks the invoice.overdue
//   event as recorded (claimed once, by whichever worker updates it first). invoices_open
//   serves a store's account (open balances); invoices_overdue_due the overdue job.
// - invoice_orders: which invoices name which orders (an order stops counting as pending
//   credit once an invoice names it; its payment status reads its invoices). No key on the
//   pair: an invoice's links are replaced by one statement (delete and insert together).
//   supplier_id as on every row a supplier owns (a sandbox reset empties a twin by it).
// - payments: relayed by the ERP (POST /batch/payment); `allocations` is JSON
//   ([{invoiceId, invoiceInternalCode, amount}]), replaced whole when the payment comes again.
// - orders.payment_method, orders.credit_hold: the method an order was placed with (null:
//   the store had no payment methods, today's orders) and, while the supplier has not
//   released it, why an order on credit waits (JSON; null: not held).
//   orders_credit_pending finds a store's orders that may count as pending credit.
// - batch_store_chunks.credits: POST /batch/store's `credit`, one JSON array with each
//   item's value (null when not sent; `sent` bit 1024 says it was sent, null included).
//   Null in chunks staged before this migration: their items sent none.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table store_credit (
     store_id bigint primary key,
     supplier_id bigint not null,
     payment_methods text[] not null check (cardinality(payment_methods) between 1 and 3),
     credit_limit numeric not null default 0 check (credit_limit >= 0),
     term_days integer check (term_days >= 0),
     hold_when_overdue_days integer check (hold_when_overdue_days >= 0),
     allow_over_limit_with_approval boolean not null default false,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     foreign key (supplier_id, store_id) references stores (supplier_id, id))`,
  `create trigger store_credit_store_data_changed after insert or update or delete or truncate on store_credit
     for each statement execute function store_data_changed()`,
  `create table invoices (
     id bigint generated always as identity primary key,
     supplier_id bigint not null,
     store_id bigint not null,
     internal_code text collate "C" not null,
     amount numeric not null check (amount >= 0),
     paid numeric not null default 0,
     issued_at timestamptz not null,
     due_date date not null,
     pdf_url text,
     order_ids bigint[] not null default '{}',
     overdue_announced_at timestamptz,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     unique (supplier_id, internal_code),
     foreign key (supplier_id, store_id) references stores (supplier_id, id))`,
  `create index invoices_open on invoices (store_id, due_date) where paid < amount`,
  `create index invoices_overdue_due on invoices (due_date) where paid < amount and overdue_announced_at is null`,
  `create table invoice_orders (
     supplier_id bigint not null,
     invoice_id bigint not null references invoices(id),
     order_id bigint not null references orders(id))`,
  `create index invoice_orders_invoice on invoice_orders (invoice_id)`,
  `create index invoice_orders_order on invoice_orders (order_id)`,
  `create table payments (
     id bigint generated always as identity primary key,
     supplier_id bigint not null,
     store_id bigint not null,
     internal_code text collate "C" not null,
     amount numeric not null check (amount >= 0),
     method text not null check (method in ('CASH', 'TRANSFER', 'CARD')),
     collected_by text,
     paid_at timestamptz not null,
     allocations jsonb not null default '[]',
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     unique (supplier_id, internal_code),
     foreign key (supplier_id, store_id) references stores (supplier_id, id))`,
  `create index payments_store on payments (store_id, paid_at desc)`,
  `alter table orders add column payment_method text check (payment_method in ('CASH_ON_DELIVERY', 'TRANSFER', 'CREDIT')), add column credit_hold jsonb`,
  `create index orders_credit_pending on orders (store_id)
     where payment_method = 'CREDIT' and credit_hold is null and status in ('PENDING', 'CONFIRMED', 'DELIVERED')`,
  `alter table batch_store_chunks add column credits json`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
