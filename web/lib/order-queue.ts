// Orders that survive a dead network (issue 32): an order placed offline is kept on the
// phone with its Idempotency-Key and sent when the network returns, once. The rules:
// - One key per queued order, made when it is queued and kept until it is sent: a retry
//   after a lost answer sends the same key, and the service places one order per key
//   (src/http/idempotency.ts), so the queue can retry freely.
// - Never silently changed: before sending, the cart is priced by the service; a line
//   priced otherwise than the buyer saw, or refused, and an order the service refuses
//   (stock, a passed cut-off, credit) wait as "Requiere tu confirmación" with the
//   differences. The buyer sends it as it is now or discards it.
// - Kept under the shop's prefix (session.ts), so signing out forgets it with the rest.
import { SurtidoApiError } from 'surtido/client';
import { client } from './api.ts';

const KEY = 'surtido.shop.queue';

export interface QueuedLine {
  productInternalCode: string;
  units: number;
  quantity: number;
}

/** What changed between what the buyer saw and what the service answers now. */
export type Difference =
  | { kind: 'price'; productInternalCode: string; units: number; before: number; after: number }
  | { kind: 'refused'; productInternalCode: string; units: number; reason: string }
  | { kind: 'order'; code: string; detail: string };

export interface QueuedOrder {
  key: string;
  storeId: number;
  body: { lines: QueuedLine[]; notes?: string; deliveryDate?: string };
  names: Record<string, string>;
  /** The unit price the buyer saw for each line (code/units), when the phone knew one. */
  seen: Record<string, number>;
  createdAt: string;
  state: 'queued' | 'confirm' | 'sent';
  /** An order was refused under this key: the service keeps that answer, so a resend takes a new key. */
  refused?: boolean;
  differences?: Difference[];
  orderId?: number;
}

const listeners = new Set<() => void>();
let snapshot: QueuedOrder[] = read();

function read(): QueuedOrder[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(value) ? (value as QueuedOrder[]) : [];
  } catch {
    return [];
  }
}

function save(orders: QueuedOrder[]) {
  try {
    if (orders.length) localStorage.setItem(KEY, JSON.stringify(orders));
    else localStorage.removeItem(KEY);
  } catch {
    // Private mode or a full disk: kept for this visit only.
  }
  snapshot = orders;
  listeners.forEach((l) => l());
}

const update = (key: string, change: Partial<QueuedOrder>) => save(read().map((o) => (o.key === key ? { ...o, ...change } : o)));

export const orderQueue = {
  get: () => snapshot,
  subscribe(listener: () => void) {
    listeners.add(listener);
    const onStorage = (e: StorageEvent) => {
      if (e.key === KEY || e.key === null) {
        snapshot = read();
        listener();
      }
    };
    addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      removeEventListener('storage', onStorage);
    };
  },
  add(order: Omit<QueuedOrder, 'key' | 'createdAt' | 'state'>): QueuedOrder {
    const queued: QueuedOrder = { ...order, key: crypto.randomUUID(), createdAt: new Date().toISOString(), state: 'queued' };
    save([...read(), queued]);
    return queued;
  },
  discard(key: string) {
    save(read().filter((o) => o.key !== key));
  },
  /** A received order shown long enough: forgotten (the store's order list has it). */
  forgetSent(storeId: number) {
    save(read().filter((o) => !(o.storeId === storeId && o.state === 'sent')));
  },
};

const isNetworkError = (error: unknown) => !(error instanceof SurtidoApiError) || error.status >= 500 || error.code === 'IDEMPOTENCY_KEY_IN_USE' || error.code === 'RATE_LIMITED';
const lineKey = (l: { productInternalCode: string; units: number }) => `${l.productInternalCode}/${l.units}`;

/** Sends one queued order under its key; its answer (placed, waiting for the buyer, or still queued). */
async function send(order: QueuedOrder, asItIsNow: boolean): Promise<void> {
  const { storeId, body } = order;
  if (!asItIsNow) {
    const priced = await client.post('/app/stores/{storeId}/cart', { params: { path: { storeId } }, body: { lines: body.lines, ...(body.deliveryDate ? { deliveryDate: body.deliveryDate } : {}) } });
    const differences: Difference[] = [];
    for (const line of priced.lines) {
      if ('error' in line && line.error) differences.push({ kind: 'refused', productInternalCode: line.productInternalCode, units: line.units, reason: String(line.error) });
      else if ('unitPrice' in line) {
        const before = order.seen[lineKey(line)];
        if (before !== undefined && before !== line.unitPrice) differences.push({ kind: 'price', productInternalCode: line.productInternalCode, units: line.units, before, after: line.unitPrice });
      }
    }
    if (differences.length) return update(order.key, { state: 'confirm', differences });
  }
  // A key the service answered with a refusal replays that refusal: sending again takes a new one.
  const key = order.refused ? crypto.randomUUID() : order.key;
  if (key !== order.key) update(order.key, { key, refused: false });
  try {
    const placed = await client.post('/app/stores/{storeId}/orders', { params: { path: { storeId } }, body, headers: { 'idempotency-key': key } });
    update(key, { state: 'sent', differences: undefined, ...('id' in placed && typeof placed.id === 'number' && 'total' in placed ? { orderId: placed.id } : {}) });
  } catch (error) {
    if (isNetworkError(error)) throw error;
    const e = error as SurtidoApiError;
    update(key, { state: 'confirm', refused: true, differences: [{ kind: 'order', code: e.code, detail: e.detail }] });
  }
}

let running: Promise<number> | undefined;

/**
 * Sends every queued order, oldest first, once each; stops at the first network failure
 * (they stay queued). Answers how many were placed. One run at a time per page; two pages
 * sending the same order send the same key, and the service places it once.
 */
export function flushQueue(): Promise<number> {
  running ??= (async () => {
    let placed = 0;
    try {
      for (const order of read().filter((o) => o.state === 'queued')) {
        await send(order, false);
        if (read().find((o) => o.key === order.key)?.state === 'sent') placed++;
      }
    } catch {
      // Offline again, or the service is away: the rest stays queued for the next run.
    } finally {
      running = undefined;
    }
    return placed;
  })();
  return running;
}

/** The buyer saw the differences and sends the order as the service prices it now. */
export async function sendAsItIsNow(key: string): Promise<void> {
  const order = read().find((o) => o.key === key);
  if (!order) return;
  await send(order, true);
}
