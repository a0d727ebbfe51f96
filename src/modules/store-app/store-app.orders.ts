// A store's orders: placed from the priced cart, listed, read and cancelled while PENDING.
// The orders module writes them (its service records each order with its webhook event in
// one transaction: README.md); the store side prices the cart, resolves the buyer and
// the address, and checks membership.
import type { StoreAddress } from '../../db/types.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import * as orders from '../orders/orders.service.ts';
import type { OrderLine } from '../orders/orders.rules.ts';
import { minimumRuleOf } from '../pricing/pricing.minimums.ts';
import type { CartLine } from '../pricing/pricing.types.ts';
import type { StoreAppContext } from './store-app.context.ts';
import { requireBuyerAccess, requireMembership, type BuyerContext } from './store-app.membership.ts';
import { minimumOutcome, totalWithFee, zoneOf } from './store-app.minimums.ts';
import type { StoreContext } from './store-app.pricing-context.ts';
import { buyerOf, type MemberStore } from './store-app.repository.ts';
import { orderDelivery } from '../delivery/delivery.service.ts';
import { cachedCreditOfStore, paymentMethodFor, placeOnCredit } from '../credit/credit.service.ts';
import type { PaymentMethod } from '../../db/types.ts';
import { todayIn } from '../../lib/clock.ts';
import { pricedCart, refusalOf } from './store-app.service.ts';

export interface PlaceOrderInput {
  lines: CartLine[];
  /** The delivery address; the store's default address when none is sent. */
  address?: StoreAddress;
  notes?: string;
  /** The delivery date asked for (src/modules/delivery: checked against the store's zone). */
  deliveryDate?: string;
  /** One of the store's payment methods (src/modules/credit); default: its first. */
  paymentMethod?: PaymentMethod;
  /** On CREDIT: send an order the credit cannot take for the supplier's approval instead. */
  requestApproval?: boolean;
}

function defaultAddress(store: MemberStore): StoreAddress | null {
  const addresses = store.addresses as StoreAddress[];
  return addresses.find((a) => a.default) ?? addresses[0] ?? null;
}

/** `context.seller`: a seller places it for the store (src/modules/sellers); the order then carries placedBy. */
export async function placeOrder(ctx: StoreAppContext, personId: number, context: BuyerContext, input: PlaceOrderInput, at: string) {
  const { store } = context;
  if (!store.enabled) throw new AppError('STORE_DISABLED', 'this store is disabled and cannot place orders');
  // The delivery date first: a date that cannot be delivered is refused before pricing.
  const zone = await zoneOf(ctx, store);
  const delivery = orderDelivery(zone, new Date(at), input.deliveryDate, ctx.today);
  // The payment method too (src/modules/credit): null for a store without any, as before.
  const payment = paymentMethodFor(await cachedCreditOfStore(ctx, store.id), input.paymentMethod);
  // Priced once, exactly as the preview prices it (the same cached reads), and stored as computed.
  const { input: pricingInput, result } = await pricedCart(ctx, context, input.lines, zone);
  const refusal = refusalOf(result, input.lines);
  if (refusal) throw refusal;
  // The buyer as the supplier knows them: never what another supplier registered (kept in
  // the store cache: store_users and people announce their changes).
  const person = await ctx.cache.get(`buyer:${store.id}:${personId}`, () => buyerOf(ctx.db, store.id, personId));
  const lines: OrderLine[] = result.lines.map((l) => {
    if ('error' in l) throw new Error('a refused line reached placement');
    return { internalCode: l.productInternalCode, name: pricingInput.names.get(l.productInternalCode) ?? null, units: l.units, quantity: l.quantity, unitPrice: l.unitPrice, subtotal: l.subtotal, discount: l.discount, total: l.total, deliveredQuantity: 0, returnedQuantity: 0 };
  });
  const order: orders.StoreOrder = {
    supplier_id: store.supplier_id,
    store_id: store.id,
    buyer: {
      storeInternalCode: store.internal_code,
      storeName: store.name,
      legalName: store.legal_name,
      legalId: store.legal_id,
      user: person ? { name: person.name, phone: person.phone, email: person.email } : null,
    },
    address: input.address ?? defaultAddress(store),
    price_list_code: context.priceList?.internal_code ?? null,
    products: lines,
    promotions: { rewards: result.rewards, discounts: result.discounts },
    subtotal: result.subtotal,
    discount_total: result.discountTotal,
    total: result.total,
    notes: input.notes ?? null,
    history: [{ status: 'PENDING', at, by: 'STORE' }],
    placed_by: personId,
    // A seller's order says who placed it (src/modules/sellers); its buyer user is then none.
    seller: context.seller ? { sellerInternalCode: context.seller.internalCode, name: context.seller.name } : null,
    created_at: at,
    delivery_date: delivery.deliveryDate,
    after_cutoff: delivery.afterCutoff,
    delivery_zone_id: delivery.zoneId,
    payment_method: payment,
  };
  const view =
    payment === 'CREDIT'
      ? await placeOnCreditWithMinimum(ctx, order, minimumRuleOf(pricingInput), result.total, delivery.deliveryDate, { requestApproval: input.requestApproval === true, at })
      : await placeWithMinimum(ctx, order, minimumRuleOf(pricingInput), result.total, delivery.deliveryDate);
  ctx.wake();
  return view;
}

/**
 * The minimum decides how the order is written (../pricing/README.md, "Minimum order";
 * ../orders/README.md, "A top-up order"). An order that meets it alone, one under a soft
 * minimum and one with no minimum go to the group placer as before, with no read more.
 * One below it alone, with a delivery date, counts the store's other orders for that date
 * under the store's lock: refused (hard), charged the fee (fee) or placed as it is if
 * they reach the minimum together. Without a date there is nothing to count with.
 */
async function placeWithMinimum(ctx: StoreAppContext, order: orders.StoreOrder, rule: ReturnType<typeof minimumRuleOf>, total: number, date: string | null) {
  const settled = (outcome: ReturnType<typeof minimumOutcome>): orders.StoreOrder => {
    if (!outcome.place) throw outcome.refusal;
    return outcome.fee === null ? order : { ...order, total: totalWithFee(order.total, outcome.fee), delivery_fee: outcome.fee };
  };
  const alone = minimumOutcome(rule, total, 0, date);
  if (alone.place && alone.fee === null) return ctx.placeOrder(order);
  if (date === null) return ctx.placeOrder(settled(alone));
  return orders.placeCountingOtherOrders(ctx.db, order.store_id, date, (ordered) => settled(minimumOutcome(rule, total, Number(ordered), date)));
}

/**
 * An order on CREDIT (../credit/README.md, "The credit check"): its minimum settled as
 * placeWithMinimum settles it (counting the store's other orders for the date under the
 * store's lock when it is below alone), and the order that makes checked against the
 * store's credit, all in the transaction that holds the credit's lock: never group-committed.
 */
async function placeOnCreditWithMinimum(
  ctx: StoreAppContext,
  order: orders.StoreOrder,
  rule: ReturnType<typeof minimumRuleOf>,
  total: number,
  date: string | null,
  options: { requestApproval: boolean; at: string },
) {
  const settled = (outcome: ReturnType<typeof minimumOutcome>): orders.StoreOrder => {
    if (!outcome.place) throw outcome.refusal;
    return outcome.fee === null ? order : { ...order, total: totalWithFee(order.total, outcome.fee), delivery_fee: outcome.fee };
  };
  const today = todayIn({ now: () => new Date(options.at) }, ctx.timezone);
  return placeOnCredit(ctx.db, { id: order.store_id, supplierId: order.supplier_id }, { ...options, today }, (trx, decide) => {
    const alone = minimumOutcome(rule, total, 0, date);
    if ((alone.place && alone.fee === null) || date === null) return orders.placeStoreOrderIn(trx, decide(settled(alone)));
    return orders.placeCountingOtherOrders(trx, order.store_id, date, (ordered) => decide(settled(minimumOutcome(rule, total, Number(ordered), date))));
  });
}

/** An order of one of the person's stores (the membership guard on its store; `guard`: a seller's reads too), or 404. */
async function requireOrderOfMember(ctx: StoreAppContext, personId: number, orderId: number, guard: typeof requireMembership = requireMembership) {
  const missing = () => notFound('order', String(orderId), '/params/id');
  const found = await orders.orderById(ctx.db, orderId, ctx.currencyDecimals);
  if (!found) throw missing();
  await guard(ctx, personId, found.storeId, missing);
  return found;
}

export async function getStoreOrder(ctx: StoreAppContext, personId: number, orderId: number) {
  return (await requireOrderOfMember(ctx, personId, orderId, requireBuyerAccess)).view;
}

export async function listStoreOrders(ctx: StoreAppContext, { store }: StoreContext, query: { take: number; page: number }, timezone: string) {
  return orders.listOrders(ctx.db, store.supplier_id, { ...query, storeId: store.id }, timezone, ctx.currencyDecimals);
}

/** `at`: the time of the order's supplier (its clock may be a test twin's, src/modules/sandbox). */
export async function cancelStoreOrder(ctx: StoreAppContext, personId: number, orderId: number, input: { cancelCode: string; message?: string }, at: (supplierId: number) => Promise<string>) {
  const found = await requireOrderOfMember(ctx, personId, orderId);
  await orders.cancelAsStore(ctx.db, found.supplierId, orderId, input, await at(found.supplierId));
  ctx.wake();
  return getStoreOrder(ctx, personId, orderId);
}
