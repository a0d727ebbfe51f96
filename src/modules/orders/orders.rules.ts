// The order lifecycle as pure functions over the order document: PENDING -> CONFIRMED ->
// DELIVERED -> RETURNED, and CANCELLED from PENDING or CONFIRMED. Each operation checks
// the state and its input, and returns the changed document; nothing else moves an order.
// Discounts were fixed at placement: deliveries and returns change quantities only, and
// every line keeps its net unit price.
import { Decimal } from 'decimal.js';
import type { Static } from 'typebox';
import type { OrderStatus } from '../../db/types.ts';
import { AppError, fieldError, type FieldError } from '../../lib/errors.ts';
import type { OrderLine as OrderLineSchema } from './orders.schemas.ts';

/** An order's line as the API answers it (orders.schemas.ts). */
export type OrderLine = Static<typeof OrderLineSchema>;

export interface HistoryEntry {
  status: OrderStatus;
  at: string;
  by: 'STORE' | 'SUPPLIER' | 'IMPORT';
  note?: string;
}

export interface Cancellation {
  code: string;
  reason: string;
  by: 'STORE' | 'SUPPLIER';
  message: string | null;
  at: string;
}

export interface OrderState {
  status: OrderStatus;
  products: OrderLine[];
  deliveryDate: string | null;
  cancellation: Cancellation | null;
  history: HistoryEntry[];
}

export interface QuantityInput {
  internalCode: string;
  units: number;
  quantity: number;
}

const refuse = (status: OrderStatus, operation: string) =>
  new AppError('INVALID_ORDER_TRANSITION', `an order that is ${status} cannot be ${operation}`);

function lineIndex(state: OrderState, input: QuantityInput, pointer: string): number {
  const i = state.products.findIndex((l) => l.internalCode === input.internalCode && l.units === input.units);
  if (i === -1) {
    throw new AppError('UNKNOWN_ORDER_LINE', `the order has no line ${input.internalCode} in packages of ${input.units}`, {
      errors: [{ pointer, code: 'UNKNOWN_ORDER_LINE', message: 'no such product and size in this order' }],
    });
  }
  return i;
}

const exceeded = (errors: FieldError[]) => new AppError('QUANTITY_EXCEEDED', errors[0]!.message, { errors });

export function confirm(state: OrderState, input: { deliveryDate?: string }, at: string): OrderState {
  if (state.status !== 'PENDING') throw refuse(state.status, 'confirmed');
  return {
    ...state,
    status: 'CONFIRMED',
    deliveryDate: input.deliveryDate ?? state.deliveryDate,
    history: [...state.history, { status: 'CONFIRMED', at, by: 'SUPPLIER' }],
  };
}

/**
 * A delivery or return says what moved: `complete: true`, or at least one product line.
 * Anything else (`{}`, `complete: false` alone, an empty `products`, a body of unknown
 * fields, which validation empties) would move the order with every quantity at 0 and
 * could not be undone, so it is refused naming the field.
 */
function requireQuantities(input: { complete?: boolean; products?: QuantityInput[] }, verb: 'delivered' | 'returned') {
  if (input.complete === true) return;
  if (input.products === undefined) {
    if (input.complete === false) throw fieldError('REQUIRED', '/products', `products is required when complete is false: list the quantities ${verb}`);
    throw fieldError('REQUIRED', '/complete', `send complete: true, or products with the quantities ${verb}`);
  }
  if (input.products.length === 0) {
    throw fieldError('INVALID_LENGTH', '/products', `products is empty: list at least one product ${verb}, or send complete: true`);
  }
}

/** complete: every line delivered in full; otherwise the given quantities (0 for lines not named). */
export function deliver(state: OrderState, input: { complete?: boolean; products?: QuantityInput[] }, at: string): OrderState {
  requireQuantities(input, 'delivered');
  if (state.status !== 'CONFIRMED') throw refuse(state.status, 'delivered');
  const products = state.products.map((l) => ({ ...l, deliveredQuantity: input.complete ? l.quantity : 0 }));
  if (!input.complete) {
    const errors: FieldError[] = [];
    (input.products ?? []).forEach((p, n) => {
      const i = lineIndex(state, p, `/products/${n}`);
      const line = products[i]!;
      const delivered = line.deliveredQuantity + p.quantity;
      if (delivered > line.quantity) {
        errors.push({ pointer: `/products/${n}/quantity`, code: 'QUANTITY_EXCEEDED', message: `at most ${line.quantity} packages can be delivered` });
      }
      products[i] = { ...line, deliveredQuantity: delivered };
    });
    if (errors.length > 0) throw exceeded(errors);
  }
  return { ...state, status: 'DELIVERED', products, history: [...state.history, { status: 'DELIVERED', at, by: 'SUPPLIER' }] };
}

/** Adds returned quantities (never beyond what was delivered); RETURNED once all delivered came back. */
export function returnGoods(state: OrderState, input: { complete?: boolean; products?: QuantityInput[]; reason?: string }, at: string): OrderState {
  requireQuantities(input, 'returned');
  if (state.status !== 'DELIVERED') throw refuse(state.status, 'returned');
  const products = state.products.map((l) => ({ ...l, returnedQuantity: input.complete ? l.deliveredQuantity : l.returnedQuantity }));
  if (!input.complete) {
    const errors: FieldError[] = [];
    (input.products ?? []).forEach((p, n) => {
      const i = lineIndex(state, p, `/products/${n}`);
      const line = products[i]!;
      const returned = line.returnedQuantity + p.quantity;
      if (returned > line.deliveredQuantity) {
        errors.push({
          pointer: `/products/${n}/quantity`,
          code: 'QUANTITY_EXCEEDED',
          message: `at most ${line.deliveredQuantity - line.returnedQuantity} more packages can be returned`,
        });
      }
      products[i] = { ...line, returnedQuantity: returned };
    });
    if (errors.length > 0) throw exceeded(errors);
  }
  const allBack = products.every((l) => l.returnedQuantity >= l.deliveredQuantity);
  const status: OrderStatus = allBack ? 'RETURNED' : 'DELIVERED';
  const entry: HistoryEntry = { status, at, by: 'SUPPLIER', ...(input.reason ? { note: input.reason } : {}) };
  return { ...state, status, products, history: [...state.history, entry] };
}

/**
 * What the store keeps of a delivered order (README.md, "What a delivery leaves to pay"):
 * each line's net price (its `total` over its `quantity`, discounts fixed at placement)
 * times what was delivered and not returned, summed exactly and rounded once to the
 * currency, half away from zero. A complete delivery keeps the order's goods total.
 */
/** The packages delivered and ordered over every line: fewer delivered is a partial delivery. */
export function packagesDelivered(lines: readonly Pick<OrderLine, 'quantity' | 'deliveredQuantity'>[]): { delivered: number; ordered: number } {
  return { delivered: lines.reduce((n, l) => n + l.deliveredQuantity, 0), ordered: lines.reduce((n, l) => n + l.quantity, 0) };
}

/** Enough digits that a sum of thirds still rounds as the exact value would. */
const Exact = Decimal.clone({ precision: 60 });

export function keptTotal(lines: readonly Pick<OrderLine, 'quantity' | 'total' | 'deliveredQuantity' | 'returnedQuantity'>[], currencyDecimals: number): number {
  let sum = new Exact(0);
  for (const l of lines) {
    if (l.quantity > 0) sum = sum.plus(new Exact(l.total).times(l.deliveredQuantity - l.returnedQuantity).div(l.quantity));
  }
  return sum.toDecimalPlaces(currencyDecimals, Exact.ROUND_HALF_UP).toNumber();
}

export function cancel(state: OrderState, by: 'STORE' | 'SUPPLIER', cancellation: Omit<Cancellation, 'by' | 'at'>, at: string): OrderState {
  const allowed: OrderStatus[] = by === 'STORE' ? ['PENDING'] : ['PENDING', 'CONFIRMED'];
  if (!allowed.includes(state.status)) throw refuse(state.status, `cancelled by the ${by === 'STORE' ? 'store' : 'supplier'}`);
  return {
    ...state,
    status: 'CANCELLED',
    cancellation: { ...cancellation, by, at },
    history: [...state.history, { status: 'CANCELLED', at, by }],
  };
}
