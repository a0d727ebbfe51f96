// The offline queue on screen (web/lib/order-queue.ts): the runner that sends it when the
// network returns, the cart's "Pedir sin conexión", and the orders page's list of what is
// queued ("En cola"), received, or waiting for the buyer ("Requiere tu confirmación").
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { invalidateStore } from '../../lib/api.ts';
import type { CartItem } from '../../lib/cart-state.ts';
import type { MessageKey } from '../../lib/i18n.ts';
import { flushQueue, orderQueue, sendAsItIsNow, type Difference, type QueuedOrder } from '../../lib/order-queue.ts';
import { useFormat, useT } from '../i18n.tsx';
import { useOnline } from './states.tsx';

export const useOrderQueue = () => useSyncExternalStore(orderQueue.subscribe, orderQueue.get, orderQueue.get);

/** Sends the queue at start, whenever the network returns, and every 30 s while something waits. */
export function QueueRunner() {
  const queryClient = useQueryClient();
  const online = useOnline();
  const waiting = useOrderQueue().some((o) => o.state === 'queued');
  useEffect(() => {
    if (!online || !waiting) return;
    const run = async () => {
      if ((await flushQueue()) > 0) await queryClient.invalidateQueries({ queryKey: ['orders'] });
    };
    void run();
    const timer = setInterval(() => void run(), 30_000);
    return () => clearInterval(timer);
  }, [online, waiting, queryClient]);
  return null;
}

/**
 * The unit prices the buyer saw for the cart's lines: the cart's last priced answer, else
 * the catalogue pages the phone kept. A line with none is compared with nothing (a price
 * the buyer never saw cannot have changed under them).
 */
export function seenPrices(queryClient: QueryClient, storeId: number, priced: readonly { productInternalCode: string; units: number; unitPrice?: number }[] | undefined) {
  const seen: Record<string, number> = {};
  for (const [, data] of queryClient.getQueriesData<unknown>({ queryKey: ['catalog', storeId] })) {
    const pages = (data as { pages?: unknown[] } | undefined)?.pages ?? [data];
    for (const page of pages) {
      for (const item of (page as { data?: { internalCode: string; sizes: { units: number; price: number }[] }[] } | undefined)?.data ?? []) {
        for (const size of item.sizes ?? []) seen[`${item.internalCode}/${size.units}`] = size.price;
      }
    }
  }
  for (const line of priced ?? []) if (typeof line.unitPrice === 'number') seen[`${line.productInternalCode}/${line.units}`] = line.unitPrice;
  return seen;
}

/** The cart's way to order with no network: the lines (and the prices last seen) go to the queue. */
export function QueueOrderButton({ storeId, items, notes, deliveryDate, seen, onQueued }: { storeId: number; items: CartItem[]; notes: string; deliveryDate?: string; seen: Record<string, number>; onQueued: () => void }) {
  const t = useT();
  const navigate = useNavigate();
  return (
    <>
      <p className="hint">{t('queue.offlineHint')}</p>
      <button
        type="button"
        className="primary wide"
        onClick={() => {
          orderQueue.add({
            storeId,
            body: {
              lines: items.map(({ productInternalCode, units, quantity }) => ({ productInternalCode, units, quantity })),
              ...(notes.trim() ? { notes: notes.trim() } : {}),
              ...(deliveryDate ? { deliveryDate } : {}),
            },
            names: Object.fromEntries(items.map((i) => [i.productInternalCode, i.name ?? i.productInternalCode])),
            seen,
          });
          onQueued();
          void navigate({ to: '/orders' });
        }}
      >
        {t('queue.placeOffline')}
      </button>
    </>
  );
}

function DifferenceText({ d, names }: { d: Difference; names: Record<string, string> }) {
  const t = useT();
  const f = useFormat();
  if (d.kind === 'order') return <li>{t('queue.refusedWhole', { reason: d.detail })}</li>;
  const name = `${names[d.productInternalCode] ?? d.productInternalCode} (${t('catalog.units', { count: d.units })})`;
  if (d.kind === 'price') return <li>{t('queue.priceChanged', { name, before: f.money(d.before), after: f.money(d.after) })}</li>;
  const reason = t(`lineError.${d.reason}` as MessageKey);
  return <li>{t('queue.refusedLine', { name, reason: reason.startsWith('lineError.') ? d.reason : reason })}</li>;
}

function QueuedItem({ order }: { order: QueuedOrder }) {
  const t = useT();
  const f = useFormat();
  const online = useOnline();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const count = order.body.lines.length;
  return (
    <li className="queued" data-queued={order.state}>
      <div className="row">
        <strong>{t('queue.order', { count })}</strong>
        <span className={`status status-${order.state === 'sent' ? 'confirmed' : order.state === 'confirm' ? 'cancelled' : 'pending'}`}>{t(`queue.state.${order.state}` as MessageKey)}</span>
        <span className="muted small">{f.dateTime(order.createdAt)}</span>
      </div>
      {order.state === 'queued' && <p className="small muted">{t('queue.queuedHint')}</p>}
      {order.state === 'sent' && order.orderId !== undefined && (
        <Link to="/orders/$id" params={{ id: String(order.orderId) }} onClick={() => orderQueue.forgetSent(order.storeId)}>
          {t('queue.viewOrder', { id: order.orderId })}
        </Link>
      )}
      {order.state === 'confirm' && (
        <>
          <ul className="differences">
            {(order.differences ?? []).map((d, i) => (
              <DifferenceText key={i} d={d} names={order.names} />
            ))}
          </ul>
          <div className="actions">
            <button
              type="button"
              disabled={!online || busy}
              onClick={async () => {
                setBusy(true);
                try {
                  await sendAsItIsNow(order.key);
                  await invalidateStore(queryClient, order.storeId);
                } catch {
                  // Offline again: it stays as it is.
                } finally {
                  setBusy(false);
                }
              }}
            >
              {t('queue.sendNow')}
            </button>
            <button type="button" className="link" onClick={() => orderQueue.discard(order.key)}>
              {t('queue.discard')}
            </button>
          </div>
        </>
      )}
    </li>
  );
}

/** The store's queued orders, above its order list. */
export function QueuedOrders({ storeId }: { storeId: number }) {
  const t = useT();
  const mine = useOrderQueue().filter((o) => o.storeId === storeId);
  if (mine.length === 0) return null;
  return (
    <section aria-labelledby="queue-title" className="queue">
      <h2 id="queue-title">{t('queue.title')}</h2>
      <ul className="list">
        {mine.map((o) => (
          <QueuedItem key={o.key} order={o} />
        ))}
      </ul>
    </section>
  );
}
