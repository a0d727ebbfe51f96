// POST /sandbox/events (README.md, "Events on demand"): an event made to happen in the
// twin the way a store makes it happen, through the store side's own services, so the
// order is priced by the pricing engine, stored with its event in one statement, and the
// webhook goes through the real delivery path (signed, logged, retried, redeliverable).
import type { Deps } from '../../deps.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { cancelCodes } from '../orders/cancel-codes.ts';
import { personSigningIn } from '../people/people.service.ts';
import type { CartLine } from '../pricing/pricing.types.ts';
import { storeCatalog } from '../store-app/store-app.catalog.ts';
import { storeAppContext } from '../store-app/store-app.context.ts';
import { requireMembership } from '../store-app/store-app.membership.ts';
import { cancelStoreOrder, placeOrder } from '../store-app/store-app.orders.ts';
import { answerTicket, openTicket, requestInfo, type TicketContext } from '../tickets/tickets.service.ts';
import * as repo from './sandbox.repository.ts';

export { SANDBOX_EVENT_TYPES as SANDBOX_EVENTS } from './sandbox.schemas.ts';
import type { SANDBOX_EVENT_TYPES } from './sandbox.schemas.ts';
export type SandboxEvent = (typeof SANDBOX_EVENT_TYPES)[number];

export interface EventInput {
  type: SandboxEvent;
  /** The test store (internal code); its first store when left out. */
  storeCode?: string;
  /** An order of the twin's: the one cancelled, or the ticket's; a new one when left out. */
  orderId?: number;
  /** A ticket of the twin's waiting for information (ticket.additional_info_received); a new one when left out. */
  ticketId?: number;
  /** The order's lines (order.created); one unit of the first product of the store's catalog when left out. */
  lines?: CartLine[];
  /** The ticket's or the answer's text. */
  message?: string;
}

type Context = Pick<Deps, 'db' | 'clocks' | 'storeCache' | 'config' | 'clock' | 'placeStoreOrder' | 'workAccepted'>;

const storeCtx = (deps: Context) => storeAppContext(deps as Deps);
const ticketCtx = (deps: Context): TicketContext => ({ db: deps.db, clocks: deps.clocks, wake: () => deps.workAccepted('webhooks') });

/** The store and the person who acts for it: its first user, made a person as a first sign-in would. */
async function storeAndBuyer(deps: Context, twinId: number, where: { storeCode?: string; storeId?: number }) {
  const store =
    where.storeId !== undefined
      ? { id: where.storeId }
      : await repo.findStore(deps.db, twinId, where.storeCode);
  if (!store) {
    throw where.storeCode === undefined
      ? new AppError('CONFLICT', 'the sandbox has no store yet: load one (POST /batch/store) or copy the live data (POST /sandbox/copy-live)')
      : fieldError('NOT_FOUND', '/storeCode', `the sandbox has no store ${where.storeCode}`);
  }
  const user = await repo.firstStoreUser(deps.db, store.id);
  const identifier = user?.phone ? { kind: 'phone' as const, value: user.phone } : user?.email ? { kind: 'email' as const, value: user.email } : undefined;
  const personId = identifier && (await inTransaction(deps.db, (trx) => personSigningIn(trx, identifier)));
  if (personId === undefined) throw new AppError('CONFLICT', 'the store has no user to act for it: add one (POST /store/{code}/add/user)');
  const context = await requireMembership(storeCtx(deps), personId, store.id);
  return { personId, context };
}

/** One unit of the first product the store can buy, in its first size. */
async function sampleLines(deps: Context, context: Awaited<ReturnType<typeof storeAndBuyer>>['context']): Promise<CartLine[]> {
  const catalog = await storeCatalog(storeCtx(deps), context, { page: 1, take: 1 });
  const first = catalog.data[0];
  if (!first || first.sizes.length === 0) throw new AppError('CONFLICT', `store ${context.store.internal_code} can buy nothing yet: load products, a price list and its prices`);
  return [{ productInternalCode: first.internalCode, units: first.sizes[0]!.units, quantity: 1 }];
}

const at = (deps: Context) => async (supplierId: number) => (await deps.clocks.nowFor(supplierId)).toISOString();

async function placeSample(deps: Context, twinId: number, input: EventInput) {
  const { personId, context } = await storeAndBuyer(deps, twinId, { storeCode: input.storeCode });
  const lines = input.lines ?? (await sampleLines(deps, context));
  const order = await placeOrder(storeCtx(deps), personId, context, { lines }, await at(deps)(twinId));
  return { order, context, personId };
}

async function delivered(deps: Context, twinId: number, type: SandboxEvent, key: string) {
  const found = await repo.latestDelivery(deps.db, twinId, type, key);
  return { deliveryId: found?.id ?? null, webhookId: found?.message_id ?? null };
}

async function orderOf(deps: Context, twinId: number, orderId: number) {
  const order = await repo.findOrderOf(deps.db, twinId, orderId);
  if (!order) throw fieldError('NOT_FOUND', '/orderId', `the sandbox has no order ${orderId}`);
  return order;
}

/** What an event made: its store, the order or ticket, and the delivery of its webhook (null: none yet). */
export interface Triggered {
  type: SandboxEvent;
  storeCode: string;
  orderId?: number | null;
  ticketId?: number;
  deliveryId: number | null;
  webhookId: string | null;
}

async function openSampleTicket(deps: Context, twinId: number, input: EventInput) {
  const order = input.orderId === undefined ? undefined : await orderOf(deps, twinId, input.orderId);
  const { personId, context } = await storeAndBuyer(deps, twinId, order ? { storeId: order.store_id } : { storeCode: input.storeCode });
  const ticket = await openTicket(ticketCtx(deps), { id: context.store.id, supplierId: twinId }, personId, { message: input.message ?? 'A sample ticket from the sandbox', ...(order ? { orderId: order.id } : {}) });
  return { ticket, order, context };
}

/** Makes the event happen in the twin; answers what was made and the event's delivery. */
export async function triggerEvent(deps: Context, twinId: number, input: EventInput): Promise<Triggered> {
  switch (input.type) {
    case 'order.created': {
      const { order, context } = await placeSample(deps, twinId, input);
      return { type: input.type, storeCode: context.store.internal_code, orderId: order.id, ...(await delivered(deps, twinId, input.type, `order:${order.id}`)) };
    }
    case 'order.cancelled': {
      const orderId = input.orderId ?? (await placeSample(deps, twinId, input)).order.id;
      const order = await orderOf(deps, twinId, orderId);
      const { personId, context } = await storeAndBuyer(deps, twinId, { storeId: order.store_id });
      const code = (await cancelCodes(deps.db, twinId)).find((c) => c.usage === 'STORE');
      if (!code) throw new AppError('CONFLICT', 'the sandbox has no STORE cancel code (PUT /admin/suppliers/{id}/cancel-codes)');
      await cancelStoreOrder(storeCtx(deps), order.placed_by ?? personId, orderId, { cancelCode: code.code, message: input.message ?? 'Cancelled from the sandbox' }, at(deps));
      return { type: input.type, storeCode: context.store.internal_code, orderId, ...(await delivered(deps, twinId, input.type, `order:${orderId}`)) };
    }
    case 'ticket.created': {
      const { ticket, order, context } = await openSampleTicket(deps, twinId, input);
      return { type: input.type, storeCode: context.store.internal_code, ticketId: ticket.id, orderId: order?.id ?? null, ...(await delivered(deps, twinId, input.type, `ticket:${ticket.id}`)) };
    }
    case 'ticket.additional_info_received': {
      let ticketId: number;
      if (input.ticketId === undefined) {
        // A new ticket, on which the supplier asks for information (as its ERP would), then the store's answer.
        ticketId = (await openSampleTicket(deps, twinId, { ...input, message: undefined })).ticket.id;
        await requestInfo(ticketCtx(deps), twinId, { ticketId, message: 'Could you send a photo?' });
      } else ticketId = input.ticketId;
      const ticket = await repo.findTicketOf(deps.db, twinId, ticketId);
      if (!ticket) throw fieldError('NOT_FOUND', '/ticketId', `the sandbox has no ticket ${ticketId}`);
      const { context } = await storeAndBuyer(deps, twinId, { storeId: ticket.store_id });
      await answerTicket(ticketCtx(deps), twinId, ticketId, { message: input.message ?? 'Here is the photo' });
      return { type: input.type, storeCode: context.store.internal_code, ticketId, ...(await delivered(deps, twinId, input.type, `ticket:${ticketId}`)) };
    }
  }
}
