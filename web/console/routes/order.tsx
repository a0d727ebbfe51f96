// One order: its lines and history, and what the role may do with it now (confirm with a
// delivery date, deliver in whole or in part, return in whole or in part, cancel with one
// of the supplier's codes).
// The buttons show only when the role's scopes allow the call; the service checks anyway.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { client, keys, useCan, type Order } from '../lib/api.ts';
import { ListTable } from '../components/list/ListPage.tsx';
import { orderPerson } from '../components/Person.tsx';
import { ErrorBox, Loading, Notice } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

type Operation =
  | { op: 'confirm'; body: { deliveryDate?: string } }
  | { op: 'deliver'; body: { complete?: boolean; products?: { internalCode: string; units: number; quantity: number }[] } }
  | { op: 'return'; body: { complete?: boolean; products?: { internalCode: string; units: number; quantity: number }[]; reason?: string } }
  | { op: 'cancel'; body: { cancelCode: string; message?: string } };

function useOperate(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    // POST: each submit carries an Idempotency-Key, so a retry after a lost answer acts once.
    mutationFn: (o: Operation) => {
      const params = { path: { id } };
      if (o.op === 'confirm') return client.post('/order/{id}/confirm', { params, body: o.body });
      if (o.op === 'deliver') return client.post('/order/{id}/deliver', { params, body: o.body });
      if (o.op === 'return') return client.post('/order/{id}/return', { params, body: o.body });
      return client.post('/order/{id}/cancel', { params, body: o.body });
    },
    onSuccess: (order) => {
      queryClient.setQueryData(keys.order(id), order);
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
    },
  });
}

type Line = Order['products'][number];
const lineKey = (l: Line) => `${l.internalCode}/${l.units}`;

/** A typed quantity: a whole number from 0 (empty is 0), else NaN. */
const quantityOf = (text: string | undefined) => (text === undefined || text.trim() === '' ? 0 : /^\d+$/.test(text.trim()) ? Number(text) : NaN);

/** The lines and quantities a partial delivery or return names (lines left at 0 are not sent). */
const chosen = (order: Order, quantities: Record<string, string>) =>
  order.products.map((l) => ({ internalCode: l.internalCode, units: l.units, quantity: quantityOf(quantities[lineKey(l)]) })).filter((p) => p.quantity > 0);

/**
 * What is wrong with the typed quantities, per line: above `most` (what is left to deliver or
 * to return), or not a whole number. Refused with a message, never clamped: a clerk who
 * typed 3 for 1 must see it (issue 34), and the service refuses it too (QUANTITY_EXCEEDED).
 */
function problems(lines: Line[], most: (l: Line) => number, quantities: Record<string, string>, tooMany: (l: Line, asked: number) => string, t: ReturnType<typeof useT>) {
  const found = new Map<string, string>();
  for (const l of lines) {
    const asked = quantityOf(quantities[lineKey(l)]);
    if (Number.isNaN(asked)) found.set(lineKey(l), t('order.notAQuantity'));
    else if (asked > most(l)) found.set(lineKey(l), tooMany(l, asked));
  }
  return found;
}

/** A quantity for each line that still allows one, with what was ordered (or delivered) beside it and the line's problem under it. */
function LineQuantities(props: {
  lines: Line[];
  most: (l: Line) => number;
  beside: (l: Line) => string;
  label: (name: string) => string;
  id: string;
  quantities: Record<string, string>;
  errors: Map<string, string>;
  change: (q: Record<string, string>) => void;
}) {
  const t = useT();
  const { most, quantities } = props;
  return (
    <>
      {props.lines
        .filter((l) => most(l) > 0)
        .map((l) => {
          const id = `${props.id}-${lineKey(l)}`;
          const error = props.errors.get(lineKey(l));
          return (
            <div key={lineKey(l)} className="qty" data-qty={l.internalCode}>
              <label htmlFor={id}>{props.label(`${l.name ?? l.internalCode} (${t('order.size', { units: l.units })})`)}</label>
              <div className="qty-row">
                <input
                  id={id}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={most(l)}
                  value={quantities[lineKey(l)] ?? ''}
                  placeholder="0"
                  aria-invalid={error ? true : undefined}
                  aria-describedby={`${id}-beside${error ? ` ${id}-error` : ''}`}
                  onChange={(e) => props.change({ ...quantities, [lineKey(l)]: e.target.value })}
                />
                <span id={`${id}-beside`} className="muted">
                  {props.beside(l)}
                </span>
              </div>
              {error && (
                <p id={`${id}-error`} className="field-error" role="alert">
                  {error}
                </p>
              )}
            </div>
          );
        })}
    </>
  );
}

function Actions({ order }: { order: Order }) {
  const t = useT();
  const operate = useOperate(order.id);
  const [deliveryDate, setDeliveryDate] = useState('');
  const [partial, setPartial] = useState(false);
  // What a partial move may take of each line: what is left to deliver, or to return.
  const pending = (line: Line) => line.quantity - line.deliveredQuantity;
  const returnable = (line: Line) => line.deliveredQuantity - line.returnedQuantity;
  const [reason, setReason] = useState('');
  const [quantities, setQuantities] = useState<Record<string, string>>({});
  const lineName = (l: Line) => `${l.name ?? l.internalCode} (${t('order.size', { units: l.units })})`;
  const deliverErrors = problems(order.products, pending, quantities, (l, asked) => t('order.tooManyDeliver', { asked, name: lineName(l), most: pending(l) }), t);
  const returnErrors = problems(order.products, returnable, quantities, (l, asked) => t('order.tooManyReturn', { asked, name: lineName(l), most: returnable(l) }), t);
  const someChosen = chosen(order, quantities).length > 0;
  const [cancelCode, setCancelCode] = useState('');
  const [message, setMessage] = useState('');
  const [cancelling, setCancelling] = useState(false);
  const codes = useQuery({
    queryKey: keys.cancelCodes,
    queryFn: () => client.get('/supplier/cancelcodes'),
    enabled: cancelling,
    staleTime: 300_000,
  });

  return (
    <section className="panel no-print" aria-labelledby="actions">
      <h2 id="actions">{t('order.actions')}</h2>
      {operate.isSuccess && <Notice>{t('order.done', { status: t(`status.${operate.data.status}`) })}</Notice>}
      {operate.error && <ErrorBox error={operate.error} />}
      {order.status === 'PENDING' && (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            operate.mutate({ op: 'confirm', body: deliveryDate ? { deliveryDate } : {} });
          }}
        >
          <div>
            <label htmlFor="delivery-date">{t('order.confirmDate')}</label>
            <input id="delivery-date" type="date" value={deliveryDate} onChange={(e) => setDeliveryDate(e.target.value)} />
          </div>
          <button type="submit" className="primary" disabled={operate.isPending}>
            {t('order.confirm')}
          </button>
        </form>
      )}
      {order.status === 'CONFIRMED' && (
        <div className="actions">
          <button type="button" className="primary" disabled={operate.isPending} onClick={() => operate.mutate({ op: 'deliver', body: { complete: true } })}>
            {t('order.deliverAll')}
          </button>
          <button type="button" aria-expanded={partial} onClick={() => setPartial(!partial)}>
            {t('order.deliverPart')}
          </button>
        </div>
      )}
      {order.status === 'CONFIRMED' && partial && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (deliverErrors.size > 0) return;
            const products = chosen(order, quantities);
            operate.mutate({ op: 'deliver', body: { products } });
          }}
        >
          <p className="notice" data-testid="partial-closes">
            {t('order.partialCloses')}
          </p>
          <LineQuantities
            lines={order.products}
            most={pending}
            beside={(l) => t('order.orderedBeside', { quantity: l.quantity })}
            label={(name) => t('order.deliverQty', { name })}
            id="deliver"
            quantities={quantities}
            errors={deliverErrors}
            change={setQuantities}
          />
          <button type="submit" className="primary" disabled={operate.isPending || !someChosen || deliverErrors.size > 0}>
            {t('order.deliverSubmit')}
          </button>
        </form>
      )}
      {order.status === 'DELIVERED' && (
        <div className="actions">
          <button type="button" disabled={operate.isPending} onClick={() => operate.mutate({ op: 'return', body: { complete: true } })}>
            {t('order.returnAll')}
          </button>
          <button type="button" aria-expanded={partial} onClick={() => setPartial(!partial)}>
            {t('order.returnPart')}
          </button>
        </div>
      )}
      {order.status === 'DELIVERED' && partial && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (returnErrors.size > 0) return;
            const products = chosen(order, quantities);
            operate.mutate({ op: 'return', body: { products, ...(reason.trim() ? { reason: reason.trim() } : {}) } });
          }}
        >
          <LineQuantities
            lines={order.products}
            most={returnable}
            beside={(l) => t('order.returnableBeside', { delivered: l.deliveredQuantity, returned: l.returnedQuantity })}
            label={(name) => t('order.returnQty', { name })}
            id="return"
            quantities={quantities}
            errors={returnErrors}
            change={setQuantities}
          />
          <label htmlFor="return-reason">{t('order.returnReason')}</label>
          <textarea id="return-reason" rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
          <button type="submit" className="primary" disabled={operate.isPending || !someChosen || returnErrors.size > 0}>
            {t('order.returnSubmit')}
          </button>
        </form>
      )}
      {(order.status === 'PENDING' || order.status === 'CONFIRMED') &&
        (!cancelling ? (
          <button type="button" className="danger" onClick={() => setCancelling(true)}>
            {t('order.cancel')}
          </button>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              operate.mutate({ op: 'cancel', body: { cancelCode, ...(message.trim() ? { message: message.trim() } : {}) } });
            }}
          >
            {codes.isPending ? (
              <Loading rows={1} />
            ) : codes.error ? (
              <ErrorBox error={codes.error} retry={() => void codes.refetch()} />
            ) : (
              <>
                <label htmlFor="cancel-code">{t('order.cancelReason')}</label>
                <select id="cancel-code" required value={cancelCode} onChange={(e) => setCancelCode(e.target.value)}>
                  <option value="" disabled>
                    —
                  </option>
                  {codes.data
                    .filter((c) => c.usage === 'SUPPLIER')
                    .map((c) => (
                      <option key={c.code} value={c.code}>
                        {c.reason}
                      </option>
                    ))}
                </select>
                <label htmlFor="cancel-message">{t('order.cancelMessage')}</label>
                <textarea id="cancel-message" rows={2} value={message} onChange={(e) => setMessage(e.target.value)} />
                <button type="submit" className="danger" disabled={operate.isPending || !cancelCode}>
                  {t('order.cancelSubmit')}
                </button>
              </>
            )}
          </form>
        ))}
    </section>
  );
}

export default function OrderPage() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const id = Number(useParams({ from: '/orders/$id' }).id);
  const order = useQuery({ queryKey: keys.order(id), queryFn: () => client.get('/order/{id}', { params: { path: { id } } }) });
  if (order.isPending) return <Loading />;
  if (order.error) return <ErrorBox error={order.error} retry={() => void order.refetch()} />;
  const o = order.data;
  // Moves the service allows from here: confirm, deliver or cancel while open; return once delivered.
  const open = o.status === 'PENDING' || o.status === 'CONFIRMED' || o.status === 'DELIVERED';
  // The free units are lines of their own: the warehouse packs them too (issue 34).
  const gifts = o.promotions.rewards.flatMap((r) => r.products.map((p) => ({ promo: r.promoInternalCode, quantity: r.quantity, ...p })));
  return (
    <section className="order-page">
      <p className="no-print">
        <Link to="/orders">{t('order.back')}</Link>{' '}
        <button type="button" className="link" onClick={() => window.print()}>
          {t('order.print')}
        </button>
      </p>
      <h1>
        {t('order.title', { id: o.id })}{' '}
        <span className={`status status-${o.status.toLowerCase()}`} data-testid="order-status">
          {t(`status.${o.status}`)}
        </span>
      </h1>
      <dl className="facts">
        <dt>{t('order.buyer')}</dt>
        <dd data-testid="order-store">
          {o.buyer.storeName} ({o.buyer.storeInternalCode})
        </dd>
        {/* Who placed it: the store's user as they were then, the store's seller or the ERP. */}
        <dt>{t('order.channel')}</dt>
        <dd data-testid="order-person">{orderPerson(t, o, true)}</dd>
        <dt>{t('orders.created')}</dt>
        <dd>{f.dateTime(o.createdAt)}</dd>
        <dt>{t('order.deliveryDate')}</dt>
        <dd data-testid="delivery-date">{o.deliveryDate ? f.date(o.deliveryDate) : t('order.noDate')}</dd>
        {o.notes && (
          <>
            <dt>{t('order.notes')}</dt>
            <dd>{o.notes}</dd>
          </>
        )}
        {o.cancellation && (
          <>
            <dt>{t('status.CANCELLED')}</dt>
            <dd>{t('order.cancelled', { reason: o.cancellation.reason })}</dd>
          </>
        )}
      </dl>
      {open && can('supplier/order.write') && <Actions key={o.status} order={o} />}
      <h2>{t('order.lines')}</h2>
      <ListTable
        rows={[...o.products.map((l) => ({ line: l })), ...gifts.map((g) => ({ gift: g }))]}
        rowKey={(r) => ('line' in r ? `${r.line.internalCode}/${r.line.units}` : `gift/${r.gift.promo}/${r.gift.internalCode}/${r.gift.units}`)}
        rowAttrs={(r) => ('line' in r ? { 'data-line': r.line.internalCode } : { className: 'gift', 'data-gift': r.gift.internalCode })}
        columns={[
          {
            header: t('order.product'),
            cell: (r) =>
              'line' in r ? (
                <>
                  {r.line.name ?? r.line.internalCode} <span className="muted small">{t('order.size', { units: r.line.units })}</span>
                </>
              ) : (
                <>
                  <span className="badge">{t('order.gift')}</span> {r.gift.name ?? r.gift.internalCode} <span className="muted small">{t('order.size', { units: r.gift.units })}</span>{' '}
                  <span className="muted small">{t('order.giftOf', { promo: r.gift.promo })}</span>
                </>
              ),
          },
          { header: t('order.quantity'), align: 'num', attrs: (r) => ('gift' in r ? { 'data-testid': 'gift-quantity' } : {}), cell: (r) => ('line' in r ? r.line.quantity : f.number(r.gift.quantity)) },
          { header: t('order.delivered'), align: 'num', attrs: (r) => ('line' in r ? { 'data-testid': 'delivered' } : {}), cell: (r) => ('line' in r ? r.line.deliveredQuantity : '—') },
          { header: t('order.returned'), align: 'num', cell: (r) => ('line' in r ? r.line.returnedQuantity : '—') },
          { header: t('order.lineTotal'), align: 'num', cell: (r) => ('line' in r ? f.money(r.line.total) : t('order.free')) },
        ]}
        totals={[
          { label: t('order.subtotal'), value: f.money(o.subtotal) },
          { label: t('order.discounts'), value: f.money(o.discountTotal) },
          { label: t('order.total'), value: <strong>{f.money(o.total)}</strong> },
          ...(o.deliveredTotal !== undefined ? [{ label: t('order.deliveredTotal'), value: <strong>{f.money(o.deliveredTotal)}</strong>, attrs: { 'data-testid': 'delivered-total' } }] : []),
        ]}
      />
      <h2>{t('order.history')}</h2>
      <ol className="history">
        {o.history.map((h, i) => (
          <li key={i}>
            <strong>{t(`status.${h.status}`)}</strong> · {f.dateTime(h.at)} · {t(`by.${h.by as 'STORE' | 'SUPPLIER' | 'IMPORT'}`)}
            {h.note ? ` · ${h.note}` : ''}
          </li>
        ))}
      </ol>
    </section>
  );
}
