// One order: its lines, totals and status history; cancel while PENDING with one of the
// store's reasons; "Repetir" asks the service what of it can be ordered today
// (POST /app/stores/{storeId}/orders/{orderId}/repeat), adds that to the cart and says
// what is unavailable or repriced.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { client, invalidateStore, keys, useProductNames } from '../../lib/api.ts';
import { addLines } from '../../lib/order-guide.ts';
import type { MessageKey } from '../../lib/i18n.ts';
import { session, useSession } from '../../lib/session.ts';
import { ErrorBox, Loading, useOnline } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.tsx';

/**
 * The service words cancel reasons in the language asked for (Accept-Language): the shop
 * asks in the one it shows, and keys the answers by it, so a language switched is a fetch.
 */
const inLanguage = (language: string) => ({ 'accept-language': language });

function CancelForm({ orderId, storeId }: { orderId: number; storeId: number }) {
  const t = useT();
  const online = useOnline();
  const queryClient = useQueryClient();
  const { language } = useSession();
  const codes = useQuery({
    queryKey: [...keys.cancelCodes(storeId), language],
    queryFn: () => client.get('/app/stores/{storeId}/cancel-codes', { params: { path: { storeId } }, headers: inLanguage(language) }),
  });
  const [code, setCode] = useState('');
  const [message, setMessage] = useState('');
  const cancel = useMutation({
    networkMode: 'online',
    mutationFn: () =>
      client.post('/app/orders/{id}/cancel', { params: { path: { id: orderId } }, headers: inLanguage(language), body: { cancelCode: code, ...(message.trim() ? { message: message.trim() } : {}) } }),
    onSuccess: async (order) => {
      queryClient.setQueryData([...keys.order(orderId), language], order);
      await invalidateStore(queryClient, storeId);
    },
  });
  if (codes.isPending) return <Loading rows={1} />;
  if (codes.error) return <ErrorBox error={codes.error} retry={() => void codes.refetch()} />;
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        cancel.mutate();
      }}
    >
      <h2>{t('orders.cancel')}</h2>
      <label htmlFor="cancel-code">{t('orders.cancelReason')}</label>
      <select id="cancel-code" required value={code} onChange={(e) => setCode(e.target.value)}>
        <option value="" disabled>
          —
        </option>
        {codes.data.data.map((c) => (
          <option key={c.code} value={c.code}>
            {c.reason}
          </option>
        ))}
      </select>
      <label htmlFor="cancel-message">{t('orders.cancelMessage')}</label>
      <textarea id="cancel-message" rows={2} maxLength={1000} value={message} onChange={(e) => setMessage(e.target.value)} />
      {cancel.error && <ErrorBox error={cancel.error} />}
      <button type="submit" className="danger" disabled={!online || !code || cancel.isPending}>
        {t('orders.cancelConfirm')}
      </button>
    </form>
  );
}

export default function OrderPage() {
  const t = useT();
  const f = useFormat();
  const { storeId: chosenStore, language } = useSession();
  const storeId = chosenStore!;
  const id = Number(useParams({ from: '/orders/$id' }).id);
  const navigate = useNavigate();
  const [notice, setNotice] = useState<string[]>();
  const order = useQuery({ queryKey: [...keys.order(id), language], queryFn: () => client.get('/app/orders/{id}', { params: { path: { id } }, headers: inLanguage(language) }) });
  const again = useMutation({
    networkMode: 'online',
    mutationFn: () => client.post('/app/stores/{storeId}/orders/{orderId}/repeat', { params: { path: { storeId, orderId: id } } }),
    onSuccess: async (repeat) => {
      const names = (lines: { name: string | null; productInternalCode: string }[]) => f.list(lines.map((l) => l.name ?? l.productInternalCode));
      const told = [
        ...(repeat.unavailable.length ? [t('repeat.unavailable', { names: names(repeat.unavailable) })] : []),
        ...(repeat.repriced.length ? [t('repeat.repriced', { names: names(repeat.repriced) })] : []),
      ];
      if (repeat.lines.length === 0) return setNotice([t('repeat.none'), ...told]);
      const { items, added } = addLines(
        session.cart(storeId),
        repeat.lines.map((l) => ({ productInternalCode: l.productInternalCode, units: l.units, quantity: l.quantity, ...(l.name ? { name: l.name } : {}) })),
      );
      session.saveCart(storeId, items);
      // Nothing changed: straight to the cart. Otherwise the buyer reads what changed first.
      if (told.length === 0) return void (await navigate({ to: '/cart' }));
      setNotice([t('repeat.added', { count: added }), ...told]);
    },
  });

  const lineNames = new Map((order.data?.products ?? []).map((l) => [l.internalCode, l.name ?? l.internalCode]));
  const giftName = useProductNames(storeId, (order.data?.promotions.rewards ?? []).flatMap((r) => r.products.map((p) => p.internalCode)).filter((c) => !lineNames.has(c)));
  // Just placed from the cart: said once, in a live region there from the first render (the
  // order number, and the delivery date where the distributor's week gave one).
  const placed = useSearch({ from: '/orders/$id' }).placed;
  const confirmation = (
    <p role="status" className={placed && order.data ? 'notice' : 'visually-hidden'} data-testid="order-placed">
      {placed && order.data ? (order.data.deliveryDate ? t('cart.placedDelivery', { id, date: f.date(order.data.deliveryDate) }) : t('cart.placed', { id })) : ''}
    </p>
  );
  if (order.isPending)
    return (
      <>
        {confirmation}
        <Loading rows={4} />
      </>
    );
  if (order.error)
    return (
      <>
        {confirmation}
        <ErrorBox error={order.error} retry={() => void order.refetch()} />
      </>
    );
  const o = order.data;
  // Once delivered, the service answers what the store keeps; the page shows it beside what was ordered (issue 34).
  const delivered = o.deliveredTotal !== undefined;
  const packages = { delivered: o.products.reduce((n, l) => n + l.deliveredQuantity, 0), ordered: o.products.reduce((n, l) => n + l.quantity, 0) };
  return (
    <>
      {confirmation}
      <section>
        <h1>{t('orders.order', { id: o.id })}</h1>
        <p>
          <span className={`status status-${o.status.toLowerCase()}`} data-testid="order-status">
            {t(`status.${o.status}` as MessageKey)}
          </span>{' '}
          <span className="muted small">{f.dateTime(o.createdAt)}</span>
        </p>
        {o.deliveryDate && <p>{t('orders.delivery', { date: f.date(o.deliveryDate) })}</p>}
        {o.cancellation && <p className="warn">{t('orders.cancelled', { reason: o.cancellation.reason })}</p>}
        <h2>{t('orders.lines')}</h2>
        <ul className="lines">
          {o.products.map((l) => (
            <li key={`${l.internalCode}/${l.units}`} className="line">
              <div className="grow">
                <strong>{l.name ?? l.internalCode}</strong>
                <span className="muted small"> · {t('catalog.units', { count: l.units })}</span>
                <p className="small">
                  {f.money(l.unitPrice)} × {l.quantity}
                  {l.discount ? <span className="saving"> − {f.money(l.discount)}</span> : null} = <strong>{f.money(l.total)}</strong>
                </p>
                {delivered && (
                  <p className="small" data-testid="line-quantities">
                    {t('orders.quantities', { ordered: f.number(l.quantity), delivered: f.number(l.deliveredQuantity), returned: f.number(l.returnedQuantity) })}
                  </p>
                )}
              </div>
            </li>
          ))}
          {o.promotions.rewards.flatMap((r) =>
            r.products.map((p) => (
              <li key={`gift/${r.promoInternalCode}/${p.internalCode}`} className="line gift">
                <span className="badge">{t('cart.gift')}</span> {t('cart.giftLine', { quantity: f.number(r.quantity), name: p.name ?? lineNames.get(p.internalCode) ?? giftName(p.internalCode), size: t('catalog.units', { count: p.units }) })}
              </li>
            )),
          )}
        </ul>
        <dl className="totals">
          <dt>{t('cart.subtotal')}</dt>
          <dd>{f.money(o.subtotal)}</dd>
          {o.discountTotal > 0 && (
            <>
              <dt>{t('cart.discounts')}</dt>
              <dd className="saving">− {f.money(o.discountTotal)}</dd>
            </>
          )}
          <dt>{t('cart.total')}</dt>
          <dd>
            <strong>{f.money(o.total)}</strong>
          </dd>
          {delivered && (
            <>
              <dt>{t('orders.deliveredTotal')}</dt>
              <dd data-testid="delivered-total">
                <strong>{f.money(o.deliveredTotal!)}</strong>
              </dd>
            </>
          )}
        </dl>
        {delivered && packages.delivered < packages.ordered && (
          <p className="notice" data-testid="partial-delivery">
            {t('orders.partial', { delivered: f.number(packages.delivered), ordered: f.number(packages.ordered) })}
          </p>
        )}
        <h2>{t('orders.history')}</h2>
        <ol className="history">
          {o.history.map((h, i) => (
            <li key={i}>
              <strong>{t(`status.${h.status}` as MessageKey)}</strong> <span className="muted small">{f.dateTime(h.at)}</span>
              {h.note && <p className="small">{h.note}</p>}
            </li>
          ))}
        </ol>
        {notice && (
          <div role="status" className="notice" data-testid="repeat-notice">
            {notice.map((line) => (
              <p key={line}>{line}</p>
            ))}
            <Link to="/cart">{t('nav.cart')}</Link>
          </div>
        )}
        {again.error && <ErrorBox error={again.error} />}
        <div className="actions">
          <button type="button" onClick={() => again.mutate()} disabled={again.isPending}>
            {t('repeat.title')}
          </button>
          <Link to="/tickets" search={{ order: o.id }} className="button">
            {t('orders.help')}
          </Link>
        </div>
        {o.status === 'PENDING' && <CancelForm orderId={o.id} storeId={storeId} />}
      </section>
    </>
  );
}
