// Credit, invoices and payments (README.md): what the routes and batch kinds take and answer.
import { Type, type Static } from 'typebox';
import { Code, Money, Nullable, PageQuery, Timestamp, Url } from '../../lib/schemas.ts';

const CalendarDate = (description = 'YYYY-MM-DD') => Type.String({ format: 'calendar-date', description });

export const PaymentMethod = Type.Union([Type.Literal('CASH_ON_DELIVERY'), Type.Literal('TRANSFER'), Type.Literal('CREDIT')], {
  description: 'how the store pays the order',
});
export const PaymentStatus = Type.Union([Type.Literal('NOT_INVOICED'), Type.Literal('INVOICED'), Type.Literal('PARTIALLY_PAID'), Type.Literal('PAID')], {
  description: 'from the invoices that name the order: none yet, none paid, some paid, all paid',
});
export const CreditHoldSchema = Type.Object(
  {
    reason: Type.Union([Type.Literal('CREDIT_LIMIT_EXCEEDED'), Type.Literal('OVERDUE_INVOICES')]),
    detail: Type.String(),
    shortfall: Type.Optional(Type.Number({ description: 'CREDIT_LIMIT_EXCEEDED: what the order lacked of the available credit' })),
    at: Timestamp(),
  },
  { description: 'an order on credit sent for approval: PENDING until the supplier releases it (PUT /order/{id}/release) or cancels it' },
);

/** PUT /store/{code}/credit, and `credit` in POST /batch/store: written whole. */
export const CreditBody = Type.Object({
  paymentMethods: Type.Array(PaymentMethod, {
    minItems: 1,
    maxItems: 3,
    description: "the methods the store may choose; the first is an order's default (a method listed twice counts once)",
  }),
  limit: Type.Optional(Money({ description: 'the credit limit; absent: 0 (every order on credit is over it)' })),
  termDays: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 365, description: 'payment terms in days, answered in the account' }))),
  holdWhenOverdueDays: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 0,
        maximum: 365,
        description: 'orders on credit are refused (or sent for approval) while an invoice is more than this many days past its due date; absent or null: never',
      }),
    ),
  ),
  allowOverLimitWithApproval: Type.Optional(
    Type.Boolean({ description: 'an order on credit that does not fit may be sent for approval (requestApproval) instead of refused; absent: false' }),
  ),
});
export type CreditFields = Static<typeof CreditBody>;

export const StoreCredit = Type.Object({
  paymentMethods: Type.Array(PaymentMethod),
  limit: Type.Number(),
  termDays: Nullable(Type.Integer()),
  holdWhenOverdueDays: Nullable(Type.Integer()),
  allowOverLimitWithApproval: Type.Boolean(),
  updatedAt: Nullable(Type.String({ format: 'date-time', description: 'null: the store has no terms (no methods, limit 0)' })),
});

export const InvoiceInput = Type.Object({
  internalCode: Code(),
  storeInternalCode: Code(),
  orderIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000, description: "the platform's ids of the store's orders it bills; absent: none" })),
  amount: Money(),
  issuedAt: Timestamp(),
  dueDate: CalendarDate('the last day to pay it (platform timezone); overdue from the next day'),
  pdfUrl: Type.Optional(Nullable(Url())),
});
// A batch array has no maxItems: the one item limit is MAX_BATCH_REQUEST_ITEMS, checked on acceptance.
export const InvoiceBatchBody = Type.Object({ upsert: Type.Array(InvoiceInput) });

export const PaymentInput = Type.Object({
  internalCode: Code(),
  storeInternalCode: Code(),
  amount: Money(),
  method: Type.Union([Type.Literal('CASH'), Type.Literal('TRANSFER'), Type.Literal('CARD')]),
  collectedBy: Type.Optional(Nullable(Type.String({ maxLength: 255, description: 'who collected it (a driver, a bank)' }))),
  paidAt: Timestamp(),
  allocations: Type.Optional(
    Type.Array(Type.Object({ invoiceInternalCode: Code(), amount: Money() }), {
      maxItems: 1000,
      description: "the store's invoices it pays, each at most once; together at most `amount` (the rest stays unallocated); absent: none",
    }),
  ),
});
export const PaymentBatchBody = Type.Object({ upsert: Type.Array(PaymentInput) });

export const Invoice = Type.Object({
  internalCode: Type.String(),
  storeInternalCode: Type.String(),
  orderIds: Type.Array(Type.Integer()),
  amount: Type.Number(),
  paid: Type.Number({ description: "the payments' allocations to it" }),
  balance: Type.Number({ description: 'amount − paid, never below 0' }),
  issuedAt: Timestamp(),
  dueDate: Type.String({ description: 'YYYY-MM-DD' }),
  daysOverdue: Type.Integer({ description: 'days past its due date while open (platform timezone); 0 when not yet due or paid' }),
  pdfUrl: Nullable(Type.String()),
});

export const Payment = Type.Object({
  internalCode: Type.String(),
  storeInternalCode: Type.String(),
  amount: Type.Number(),
  method: Type.String(),
  collectedBy: Nullable(Type.String()),
  paidAt: Timestamp(),
  allocations: Type.Array(Type.Object({ invoiceInternalCode: Type.String(), amount: Type.Number() })),
  unallocated: Type.Number({ description: 'amount − the allocations' }),
});

export const Account = Type.Object(
  {
    paymentMethods: Type.Array(PaymentMethod, { description: "the store's methods, the first the default; empty: none configured (orders carry no method)" }),
    limit: Type.Number(),
    used: Type.Number({ description: 'the open balance of its invoices' }),
    pending: Type.Number({ description: 'orders placed on credit that no invoice names yet (not cancelled, returned or held)' }),
    overdue: Type.Number({ description: 'the open balance of its invoices past their due date' }),
    available: Type.Number({ description: 'limit − used − pending (negative once a released hold or an invoice took it past the limit)' }),
    termDays: Nullable(Type.Integer()),
    allowOverLimitWithApproval: Type.Boolean({
      description: 'an order on credit over the available credit may be sent for approval (requestApproval) instead of refused, so the store app can offer it',
    }),
    invoices: Type.Array(Invoice, { description: 'the open invoices, oldest due date first' }),
    payments: Type.Array(Payment, { description: 'the 20 most recent payments, newest first' }),
  },
  { description: "a store's account: its credit and what it owes" },
);

export const AgingBuckets = {
  current: Type.Number({ description: 'open balances not yet past due' }),
  days1to30: Type.Number(),
  days31to60: Type.Number(),
  over60: Type.Number(),
  total: Type.Number(),
};
export const AgingRow = Type.Object({ storeInternalCode: Type.String(), storeName: Type.String(), ...AgingBuckets });
export const AgingQuery = Type.Object({ storeInternalCode: Type.Optional(Code()), ...PageQuery });
export const Aging = Type.Object(
  {
    asOf: Type.String({ description: "today (platform timezone): the day the buckets' days past due count to" }),
    totals: Type.Object(AgingBuckets, { description: "every store's open balances together" }),
    data: Type.Array(AgingRow, { description: 'stores with an open balance, by code' }),
    page: Type.Integer(),
    take: Type.Integer(),
    total: Type.Integer(),
    totalPages: Type.Integer(),
  },
  { description: 'open invoice balances by days past due: current, 1–30, 31–60, over 60' },
);
