// Every SQL statement of credit, invoices and payments (migration 0042): a store's credit
// terms, its account (open invoices, pending orders, payments), the aging of a supplier's
// open balances, the batches' writes, an order's hold, and the overdue job's claim.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB, InvoicesTable, PaymentMethod, PaymentsTable, StoreCreditTable } from '../../db/types.ts';
import { textIn } from '../../db/sql.ts';
import type { StagedRun } from '../batch/batch.kinds.ts';

type Executor = Kysely<DB> | Transaction<DB>;
export type CreditRow = Selectable<StoreCreditTable>;
export type InvoiceRow = Selectable<InvoicesTable> & { store_code: string };
export type PaymentRow = Selectable<PaymentsTable> & { store_code: string };

/** An order's payment status, read from the invoices that name it (README.md, "Payment status"); null for an order without a method. */
export const paymentStatusOf = (order: string) => sql<'NOT_INVOICED' | 'INVOICED' | 'PARTIALLY_PAID' | 'PAID' | null>`
  case when ${sql.ref(`${order}.payment_method`)} is null then null else coalesce(
    (select case when bool_and(i.paid >= i.amount) then 'PAID' when sum(i.paid) > 0 then 'PARTIALLY_PAID' else 'INVOICED' end
     from invoice_orders x join invoices i on i.id = x.invoice_id where x.order_id = ${sql.ref(`${order}.id`)} having count(*) > 0),
    'NOT_INVOICED') end`;

/** A store's credit terms as written (the service has normalised them). */
export interface CreditWrite {
  payment_methods: PaymentMethod[];
  credit_limit: string | number;
  term_days: number | null;
  hold_when_overdue_days: number | null;
  allow_over_limit_with_approval: boolean;
}

/** The supplier's store by code: its id and name (undefined: none). */
export async function storeByCode(db: Executor, supplierId: number, code: string) {
  return db.selectFrom('stores').select(['id', 'internal_code', 'name']).where('supplier_id', '=', supplierId).where('internal_code', '=', code).executeTakeFirst();
}

export async function findCredit(db: Executor, storeId: number): Promise<CreditRow | undefined> {
  return db.selectFrom('store_credit').selectAll().where('store_id', '=', storeId).executeTakeFirst();
}

/**
 * The store's credit terms, locked for the rest of the transaction: every placement on
 * credit of the store takes this lock before it reads what is used and pending, so two
 * of them are checked one after the other, the second counting the first.
 */
export async function lockCredit(trx: Transaction<DB>, storeId: number): Promise<CreditRow | undefined> {
  return trx.selectFrom('store_credit').selectAll().where('store_id', '=', storeId).forUpdate().executeTakeFirst();
}

/** Creates or replaces a store's credit terms (PUT /store/{code}/credit). */
export async function upsertCredit(db: Executor, supplierId: number, storeId: number, credit: CreditWrite): Promise<CreditRow> {
  return db
    .insertInto('store_credit')
    .values({ store_id: storeId, supplier_id: supplierId, ...credit })
    .onConflict((oc) => oc.column('store_id').doUpdateSet({ ...credit, updated_at: sql`now()` }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * POST /batch/store's `credit`, for the run's items that sent it and were written (`failed`:
 * the batch indexes of the items that failed, which write nothing), one statement: the last
 * item of a store wins; a credit object creates or replaces the store's terms, `null`
 * removes them. Reads the chunk's staging row (batch_store_chunks.credits, migration 0042).
 */
export async function writeStagedCredits(trx: Transaction<DB>, supplierId: number, run: StagedRun, sentBit: number, failed: number[]) {
  await sql`
    with input as (
      select distinct on (o.code) o.code, o.credit::jsonb as credit
      from batch_store_chunks c
      cross join lateral rows from (unnest(c.codes), unnest(c.sent), json_array_elements(c.credits)) with ordinality as o(code, sent, credit, n)
      where c.batch_seq = ${run.batchSeq} and c.chunk = ${run.chunk}
        and o.n > ${run.from - run.first} and o.n <= ${run.to - run.first}
        and (o.sent & ${sql.lit(sentBit)}) <> 0
        and (${run.first - 1} + o.n)::int <> all(${failed}::int[])
      order by o.code, o.n desc),
    target as (
      select i.credit, s.id as store_id from input i join stores s on s.supplier_id = ${supplierId} and s.internal_code = i.code),
    removed as (
      delete from store_credit x using target t where x.store_id = t.store_id and jsonb_typeof(t.credit) is distinct from 'object')
    insert into store_credit (store_id, supplier_id, payment_methods, credit_limit, term_days, hold_when_overdue_days, allow_over_limit_with_approval)
    select t.store_id, ${supplierId},
      array(select m.value from jsonb_array_elements_text(t.credit->'paymentMethods') with ordinality as m(value, n) group by m.value order by min(m.n)),
      coalesce((t.credit->>'limit')::numeric, 0), (t.credit->>'termDays')::int, (t.credit->>'holdWhenOverdueDays')::int,
      coalesce((t.credit->>'allowOverLimitWithApproval')::boolean, false)
    from target t where jsonb_typeof(t.credit) = 'object'
    on conflict (store_id) do update set
      payment_methods = excluded.payment_methods, credit_limit = excluded.credit_limit, term_days = excluded.term_days,
      hold_when_overdue_days = excluded.hold_when_overdue_days, allow_over_limit_with_approval = excluded.allow_over_limit_with_approval,
      updated_at = now()`.execute(trx);
}

/** What a store owes and has pending, as exact decimal text, and its oldest open due date. */
export interface Exposure {
  used: string;
  pending: string;
  overdue: string;
  oldest_due: string | null;
}

/**
 * - used: the open balances of the store's invoices (amount − paid, where paid < amount);
 * - overdue: those of them past due (due_date before `today`);
 * - pending: the totals of its orders on credit that no invoice names yet, neither held,
 *   cancelled nor returned (README.md, "Pending").
 */
export async function exposure(db: Executor, storeId: number, today: string): Promise<Exposure> {
  const result = await sql<Exposure>`
    select
      (select coalesce(sum(i.amount - i.paid), 0) from invoices i where i.store_id = ${storeId} and i.paid < i.amount)::text as used,
      (select coalesce(sum(i.amount - i.paid), 0) from invoices i where i.store_id = ${storeId} and i.paid < i.amount and i.due_date < ${today}::date)::text as overdue,
      (select min(i.due_date)::text from invoices i where i.store_id = ${storeId} and i.paid < i.amount) as oldest_due,
      (select coalesce(sum(o.total), 0) from orders o
        where o.store_id = ${storeId} and o.payment_method = 'CREDIT' and o.credit_hold is null and o.status in ('PENDING', 'CONFIRMED', 'DELIVERED')
          and not exists (select 1 from invoice_orders x where x.order_id = o.id))::text as pending`.execute(db);
  return result.rows[0]!;
}

const invoiceColumns = [
  'i.id',
  'i.supplier_id',
  'i.store_id',
  'i.internal_code',
  'i.amount',
  'i.paid',
  'i.issued_at',
  sql<string>`i.due_date::text`.as('due_date'),
  'i.pdf_url',
  'i.order_ids',
  'i.overdue_announced_at',
  'i.created_at',
  'i.updated_at',
  's.internal_code as store_code',
] as const;

/** The store's open invoices, oldest due date first. */
export async function openInvoices(db: Executor, storeId: number): Promise<InvoiceRow[]> {
  return db
    .selectFrom('invoices as i')
    .innerJoin('stores as s', 's.id', 'i.store_id')
    .select(invoiceColumns)
    .where('i.store_id', '=', storeId)
    .where(sql<boolean>`i.paid < i.amount`)
    .orderBy('i.due_date')
    .orderBy('i.id')
    .execute();
}

/** The store's most recent payments, newest first. */
export async function recentPayments(db: Executor, storeId: number, limit: number): Promise<PaymentRow[]> {
  return db
    .selectFrom('payments as p')
    .innerJoin('stores as s', 's.id', 'p.store_id')
    .selectAll('p')
    .select('s.internal_code as store_code')
    .where('p.store_id', '=', storeId)
    .orderBy('p.paid_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .execute();
}

/** Open balances in days past due, per store (a page by code) and for the supplier. */
export interface AgingRow {
  store_code: string;
  store_name: string;
  current: string;
  days1to30: string;
  days31to60: string;
  over60: string;
  total: string;
}

const buckets = sql`
  coalesce(sum(balance) filter (where days <= 0), 0)::text as current,
  coalesce(sum(balance) filter (where days between 1 and 30), 0)::text as days1to30,
  coalesce(sum(balance) filter (where days between 31 and 60), 0)::text as days31to60,
  coalesce(sum(balance) filter (where days > 60), 0)::text as over60,
  coalesce(sum(balance), 0)::text as total`;

export async function aging(db: Executor, supplierId: number, today: string, q: { storeInternalCode?: string; take: number; page: number }) {
  const open = sql`
    select i.store_id, i.amount - i.paid as balance, (${today}::date - i.due_date) as days
    from invoices i
    where i.supplier_id = ${supplierId} and i.paid < i.amount
      ${q.storeInternalCode === undefined ? sql`` : sql`and i.store_id = (select s.id from stores s where s.supplier_id = ${supplierId} and s.internal_code = ${q.storeInternalCode})`}`;
  const [rows, totals] = await Promise.all([
    sql<AgingRow & { n: number }>`
      with open as (${open}), per_store as (select store_id, ${buckets} from open group by store_id)
      select s.internal_code as store_code, s.name as store_name, p.current, p.days1to30, p.days31to60, p.over60, p.total, count(*) over ()::int as n
      from per_store p join stores s on s.id = p.store_id
      order by s.internal_code collate "C"
      limit ${q.take} offset ${(q.page - 1) * q.take}`.execute(db),
    sql<Omit<AgingRow, 'store_code' | 'store_name'> & { stores: number }>`
      with open as (${open}) select ${buckets}, count(distinct store_id)::int as stores from open`.execute(db),
  ]);
  return { rows: rows.rows, totals: totals.rows[0]!, stores: totals.rows[0]!.stores };
}

/** A supplier's stores by code: id (several codes at once). */
export async function storeIdsByCode(db: Executor, supplierId: number, codes: string[]) {
  if (codes.length === 0) return new Map<string, number>();
  const rows = await db.selectFrom('stores').select(['id', 'internal_code']).where('supplier_id', '=', supplierId).where(textIn('internal_code', codes)).execute();
  return new Map(rows.map((r) => [r.internal_code, r.id]));
}

/** A supplier's invoices by code: id and store (several codes at once). */
export async function invoicesByCode(db: Executor, supplierId: number, codes: string[]) {
  if (codes.length === 0) return new Map<string, { id: number; store_id: number }>();
  const rows = await db.selectFrom('invoices').select(['id', 'internal_code', 'store_id']).where('supplier_id', '=', supplierId).where(textIn('internal_code', codes)).execute();
  return new Map(rows.map((r) => [r.internal_code, { id: r.id, store_id: r.store_id }]));
}

/** A supplier's payments by code: their store (several codes at once). */
export async function paymentStoresByCode(db: Executor, supplierId: number, codes: string[]) {
  if (codes.length === 0) return new Map<string, number>();
  const rows = await db.selectFrom('payments').select(['internal_code', 'store_id']).where('supplier_id', '=', supplierId).where(textIn('internal_code', codes)).execute();
  return new Map(rows.map((r) => [r.internal_code, r.store_id]));
}

/** A supplier's orders by id: their store (imported ones too). */
export async function orderStores(db: Executor, supplierId: number, ids: number[]) {
  if (ids.length === 0) return new Map<number, number>();
  const rows = await db.selectFrom('orders').select(['id', 'store_id']).where('supplier_id', '=', supplierId).where(sql<boolean>`id = any(${ids}::bigint[])`).execute();
  return new Map(rows.map((r) => [r.id, r.store_id]));
}

export interface InvoiceWrite {
  internal_code: string;
  store_id: number;
  amount: number;
  issued_at: string;
  due_date: string;
  pdf_url: string | null;
  order_ids: number[];
}

/**
 * Creates or replaces invoices and their links to orders, one statement (a code once: the
 * caller keeps the last per code). The links of a written invoice are replaced whole: the
 * old ones deleted and the new ones inserted by the same statement (no key on the pair,
 * so the two parts cannot collide). `paid` and the overdue announcement are the invoice's
 * own and stay.
 */
export async function writeInvoices(trx: Transaction<DB>, supplierId: number, invoices: InvoiceWrite[]) {
  if (invoices.length === 0) return;
  await sql`
    with input as (
      select * from json_to_recordset(${JSON.stringify(invoices)}::json)
        as r(internal_code text, store_id bigint, amount numeric, issued_at timestamptz, due_date date, pdf_url text, order_ids bigint[])),
    written as (
      insert into invoices (supplier_id, store_id, internal_code, amount, issued_at, due_date, pdf_url, order_ids)
      select ${supplierId}, store_id, internal_code, amount, issued_at, due_date, pdf_url, order_ids from input
      on conflict (supplier_id, internal_code) do update set
        amount = excluded.amount, issued_at = excluded.issued_at, due_date = excluded.due_date, pdf_url = excluded.pdf_url,
        order_ids = excluded.order_ids, updated_at = now()
      returning id, order_ids),
    unlinked as (delete from invoice_orders x using written w where x.invoice_id = w.id)
    insert into invoice_orders (supplier_id, invoice_id, order_id)
    select ${supplierId}, w.id, o.id from written w cross join lateral unnest(w.order_ids) as o(id)`.execute(trx);
}

export interface PaymentWrite {
  internal_code: string;
  store_id: number;
  amount: number;
  method: string;
  collected_by: string | null;
  paid_at: string;
  allocations: { invoiceId: number; invoiceInternalCode: string; amount: number }[];
}

/**
 * Creates or replaces payments, one statement (a code once: the caller keeps the last per
 * code), and moves each invoice's `paid` by the difference: minus what the payment's
 * earlier allocations gave it, plus what its new ones give. A delta (`paid = paid + d`),
 * never a sum read again: a payment batch applied beside another (other codes) may pay
 * the same invoice, and the second update re-reads the row the first committed.
 */
export async function writePayments(trx: Transaction<DB>, supplierId: number, payments: PaymentWrite[]) {
  if (payments.length === 0) return;
  await sql`
    with input as (
      select * from json_to_recordset(${JSON.stringify(payments)}::json)
        as r(internal_code text, store_id bigint, amount numeric, method text, collected_by text, paid_at timestamptz, allocations jsonb)),
    earlier as (
      select p.allocations from payments p join input i on p.supplier_id = ${supplierId} and p.internal_code = i.internal_code),
    written as (
      insert into payments (supplier_id, store_id, internal_code, amount, method, collected_by, paid_at, allocations)
      select ${supplierId}, store_id, internal_code, amount, method, collected_by, paid_at, allocations from input
      on conflict (supplier_id, internal_code) do update set
        amount = excluded.amount, method = excluded.method, collected_by = excluded.collected_by, paid_at = excluded.paid_at,
        allocations = excluded.allocations, updated_at = now()
      returning allocations),
    moves as (
      select (a->>'invoiceId')::bigint as invoice_id, -(a->>'amount')::numeric as d from earlier e cross join jsonb_array_elements(e.allocations) a
      union all
      select (a->>'invoiceId')::bigint, (a->>'amount')::numeric from written w cross join jsonb_array_elements(w.allocations) a),
    delta as (select invoice_id, sum(d) as d from moves group by invoice_id having sum(d) <> 0)
    update invoices i set paid = i.paid + delta.d, updated_at = now()
    from delta where i.id = delta.invoice_id and i.supplier_id = ${supplierId}`.execute(trx);
}

/**
 * Claims up to `limit` invoices that passed their due date unpaid and were not announced
 * yet (due_date before `today`), marking them announced; the caller records their
 * invoice.overdue events in the same transaction. SKIP LOCKED: two workers claim different
 * invoices, and an invoice claimed and committed is never claimed again (its mark), so each
 * is announced once whichever process gets there first.
 */
export async function claimOverdue(trx: Transaction<DB>, today: string, limit: number): Promise<InvoiceRow[]> {
  const result = await sql<InvoiceRow>`
    with due as (
      select id from invoices
      where paid < amount and overdue_announced_at is null and due_date < ${today}::date
      order by due_date, id limit ${limit} for update skip locked),
    marked as (
      update invoices i set overdue_announced_at = now() from due where i.id = due.id
      returning i.*)
    select m.id, m.supplier_id, m.store_id, m.internal_code, m.amount, m.paid, m.issued_at, m.due_date::text as due_date, m.pdf_url, m.order_ids,
      m.overdue_announced_at, m.created_at, m.updated_at, s.internal_code as store_code
    from marked m join stores s on s.id = m.store_id
    order by m.due_date, m.id`.execute(trx);
  return result.rows;
}

/** Takes an order's hold off and appends its history entry (the caller holds the order's row lock). */
export async function releaseHold(trx: Transaction<DB>, supplierId: number, orderId: number, entry: unknown) {
  await sql`
    update orders set credit_hold = null, history = history || ${JSON.stringify([entry])}::jsonb, updated_at = now()
    where supplier_id = ${supplierId} and id = ${orderId}`.execute(trx);
}
