// The cart: lines kept on the phone, priced live by the service every time they change.
// Every amount shown is the service's answer; placing sends one Idempotency-Key per
// submit, kept across retries, so a double tap or a flaky network places one order.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { client, deliveryOptionsQuery, invalidateStore, pricedCartQuery, useProductNames, usePromotions, type PricedCart } from '../../lib/api.ts';
import { hintTexts, type CartHints } from '../../lib/hints.ts';
import { cartLines, keepPriced, keptPriced, removeItem, setQuantity, type CartItem } from '../../lib/cart-state.ts';
import type { MessageKey } from '../../lib/i18n.ts';
import { useCart, useSession } from '../../lib/session.ts';
import { Empty, ErrorBox, Loading, useOnline } from '../components/states.tsx';
import { DeliveryBar } from '../components/DeliveryBar.tsx';
import { MinimumProgress, minimumBlocks } from '../components/MinimumProgress.tsx';
import { CaseRuleNotes, learnRules, snapQuantity } from '../components/CaseRules.tsx';
import { CreditChoice, isCreditRefusal, type PaymentMethod } from '../components/CreditChoice.tsx';
import { useFormat, useT } from '../i18n.tsx';
import { QueueOrderButton, seenPrices } from '../components/OrderQueue.tsx';

const errorCode = (error: unknown) => (error && typeof error === 'object' && 'code' in error ? (error as { code: unknown }).code : undefined);

interface PricedLine {
  productInternalCode: string;
  units: number;
  quantity: number;
  unitPrice?: number;
  subtotal?: number;
  discount?: number;
  total?: number;
  error?: string;
}
/** What the quantity box holds while it is being typed in: a whole number from 1, or nothing yet. */
const typedQuantity = (text: string) => (/^\d+$/.test(text.trim()) && Number(text) >= 1 ? Number(text) : undefined);

function Line({ item, priced, onChange, onRemove }: { item: CartItem; priced: PricedLine | undefined; onChange: (q: number) => void; onRemove: () => void }) {
  const t = useT();
  const f = useFormat();
  const name = item.name ?? item.productInternalCode;
  // The box is the buyer's while they type: a quantity is committed on blur or Enter, an
  // empty box (backspacing to type a new number) is not zero, and nothing but the remove
  // button removes the line (issue 34).
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const commit = () => {
    const typed = draft === undefined ? undefined : typedQuantity(draft);
    setDraft(undefined);
    if (typed !== undefined && typed !== item.quantity) onChange(typed);
  };
  // A tap on − or + right after typing counts from what was typed (the blur commits it first).
  const current = (draft === undefined ? undefined : typedQuantity(draft)) ?? item.quantity;
  return (
    <li className="line" data-line={`${item.productInternalCode}/${item.units}`}>
      <div className="grow">
        <strong>{name}</strong>
        <span className="muted small"> · {t('catalog.units', { count: item.units })}</span>
        {priced?.error ? (
          <p className="warn">{t('cart.lineError', { reason: t(`lineError.${priced.error}` as MessageKey) })}</p>
        ) : priced?.unitPrice !== undefined ? (
          <p className="small">
            {f.money(priced.unitPrice)} × {item.quantity}
            {priced.discount ? (
              <span className="saving">
                {' '}
                − {f.money(priced.discount)}
              </span>
            ) : null}{' '}
            = <strong>{f.money(priced.total!)}</strong>
          </p>
        ) : null}
      </div>
      <div className="stepper">
        <button type="button" aria-label={t('cart.less', { name })} disabled={current <= 1} onClick={() => onChange(current - 1)}>
          −
        </button>
        <input
          type="number"
          inputMode="numeric"
          min={1}
          max={9999}
          aria-label={t('cart.quantity', { name })}
          value={draft ?? String(item.quantity)}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit();
            if (e.key === 'Escape') setDraft(undefined);
          }}
        />
        <button type="button" aria-label={t('cart.more', { name })} onClick={() => onChange(current + 1)}>
          +
        </button>
        <button type="button" className="link remove" aria-label={t('cart.remove', { name })} onClick={onRemove}>
          {t('cart.removeShort')}
        </button>
      </div>
    </li>
  );
}

export default function Cart() {
  const t = useT();
  const f = useFormat();
  const online = useOnline();
  const storeId = useSession().storeId!;
  const [items, setItems] = useCart(storeId);
  const [notes, setNotes] = useState('');
  // A distributor's week (issue #31): the delivery date the cart is priced and placed for
  // (none for a store without a zone) and how the order is paid (none: the store's first).
  const [deliveryDate, setDeliveryDate] = useState<string | undefined>();
  const [paymentMethod, setPaymentMethod] = useState<PaymentMethod | undefined>();
  const dated = deliveryDate ? { deliveryDate } : {};
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const lines = cartLines(items);
  const names = new Map(items.map((i) => [i.productInternalCode, i.name ?? i.productInternalCode]));

  const priced = useQuery({
    ...pricedCartQuery(storeId, lines, deliveryDate),
    // Asked only with a network (the query client believes the browser online until told
    // otherwise, so a page opened offline would fail its retries).
    enabled: lines.length > 0 && online,
    // Until the service answers: the answer shown before, else the last one this phone
    // kept for exactly these lines (issue 34).
    placeholderData: (previous) => keepPreviousData(previous) ?? keptPriced<PricedCart>(storeId, items),
    networkMode: 'online',
  });
  const fresh = priced.isSuccess && !priced.isPlaceholderData ? priced.data : undefined;
  useEffect(() => {
    if (fresh) keepPriced(storeId, items, fresh);
  }, [fresh]); // eslint-disable-line react-hooks/exhaustive-deps

  // Gifts are named by the cart, else by the store's promotions (which name a gift the
  // store cannot buy, too), else by the catalog.
  const promotions = usePromotions(storeId);
  for (const p of promotions.data ?? []) {
    for (const tier of [p.bonusTierData, p.bonusTierDataCash]) if (tier?.productInternalCode && tier.productName && !names.has(tier.productInternalCode)) names.set(tier.productInternalCode, tier.productName);
  }
  const giftCodes = [
    ...(priced.data?.rewards ?? []).flatMap((r) => r.products.map((p) => p.internalCode)),
    ...(priced.data?.hints?.nextTiers ?? []).flatMap((h) => ('product' in h.gives ? [h.gives.product.internalCode] : [])),
    ...(priced.data?.hints?.giftsNotGiven ?? []).map((h) => h.product.internalCode),
  ].filter((code) => !names.has(code));
  const productName = useProductNames(storeId, promotions.isPending ? [] : giftCodes);
  const nameOf = (code: string) => names.get(code) ?? productName(code);
  const promotionName = (code: string) => {
    const p = promotions.data?.find((x) => x.internalCode === code);
    return p?.name ?? code;
  };

  // One key per submit of these lines: a retry after a lost answer reuses it.
  const submit = useRef<{ lines: string; key: string } | undefined>(undefined);
  const place = useMutation({
    networkMode: 'online',
    mutationFn: (approval?: { requestApproval: true }) => {
      const payment = paymentMethod ? { paymentMethod, ...approval } : {};
      const signature = JSON.stringify([lines, notes, dated, payment]);
      if (submit.current?.lines !== signature) submit.current = { lines: signature, key: crypto.randomUUID() };
      return client.post('/app/stores/{storeId}/orders', {
        params: { path: { storeId } },
        body: { lines, ...(notes.trim() ? { notes: notes.trim() } : {}), ...dated, ...payment },
        headers: { 'idempotency-key': submit.current.key },
      });
    },
    onSuccess: async (order) => {
      submit.current = undefined;
      setItems([]);
      await invalidateStore(queryClient, storeId);
      await navigate({ to: '/orders/$id', params: { id: String(order.id) }, search: { placed: true } });
    },
    // A date the service no longer takes: ask for the dates again (the bar moves and says so).
    onError: (error) => void (errorCode(error) === 'CUTOFF_PASSED' || errorCode(error) === 'NOT_A_DELIVERY_DAY' ? queryClient.invalidateQueries({ queryKey: deliveryOptionsQuery(storeId).queryKey }) : undefined),
  });

  if (items.length === 0) {
    return (
      <section>
        <h1>{t('cart.title')}</h1>
        <Empty>{t('cart.empty')}</Empty>
        <Link to="/catalog" className="button">
          {t('cart.toCatalog')}
        </Link>
      </section>
    );
  }

  // A call that failed on a flaky network keeps the last prices on screen too.
  const result = priced.data ?? (priced.error ? keptPriced<PricedCart>(storeId, items) : undefined);
  const minimum = result?.minimumOrder;
  learnRules(storeId, result?.violations);

  return (
    <section>
      <h1>{t('cart.title')}</h1>
      <DeliveryBar storeId={storeId} value={deliveryDate} onChange={setDeliveryDate} />
      <ul className="lines" id="cart-lines">
        {items.map((item) => (
          <Line
            key={`${item.productInternalCode}/${item.units}`}
            item={item}
            onRemove={() => setItems(removeItem(items, item))}
            priced={result?.lines.find((l) => l.productInternalCode === item.productInternalCode && l.units === item.units)}
            onChange={(asked) => {
              const q = snapQuantity(storeId, item, asked);
              setItems(q <= 0 ? removeItem(items, item) : setQuantity(items, item, q));
            }}
          />
        ))}
      </ul>
      {priced.isPending && !result ? (
        <Loading rows={2} />
      ) : priced.error && !result ? (
        <ErrorBox error={priced.error} retry={() => void priced.refetch()} />
      ) : result ? (
        <div className="summary" aria-live="polite" aria-busy={priced.isFetching || undefined}>
          {(!online || priced.error) && <p className="hint">{t('cart.offlinePrices')}</p>}
          {result.rewards.length > 0 && (
            <div className="gifts">
              <h2>{t('cart.gifts')}</h2>
              <ul>
                {result.rewards.map((r) =>
                  r.products.map((p) => (
                    <li key={`${r.promoInternalCode}/${p.internalCode}`} className="gift" data-gift={p.internalCode}>
                      <span className="badge">{t('cart.gift')}</span> {t('cart.giftLine', { quantity: f.number(r.quantity), name: p.name ?? nameOf(p.internalCode), size: t('catalog.units', { count: p.units }) })}
                    </li>
                  )),
                )}
              </ul>
            </div>
          )}
          {hintTexts(result.hints, { t, money: f.money, number: f.number, list: f.list, productName: nameOf, promotionName }).map((h) => (
            <p key={h.key} className={h.kind === 'next' ? 'hint' : 'hint warn'} data-hint={h.kind}>
              {h.text}
            </p>
          ))}
          <dl className="totals">
            <dt>{t('cart.subtotal')}</dt>
            <dd>{f.money(result.subtotal)}</dd>
            {result.discountTotal > 0 && (
              <>
                <dt>{t('cart.discounts')}</dt>
                <dd className="saving" data-testid="discount-total">
                  − {f.money(result.discountTotal)}
                </dd>
              </>
            )}
            <dt>{t('cart.total')}</dt>
            <dd data-testid="cart-total">
              <strong>{f.money(result.total)}</strong>
            </dd>
          </dl>
          <MinimumProgress minimum={minimum} />
        </div>
      ) : null}
      <CaseRuleNotes violations={result?.violations} items={items} names={nameOf} onFix={(item, q) => setItems(setQuantity(items, item, q))} />
      <CreditChoice
        storeId={storeId}
        total={result ? result.total + (minimum?.mode === 'fee' ? (minimum.fee ?? 0) : 0) : undefined}
        method={paymentMethod}
        onMethod={(m) => {
          setPaymentMethod(m);
          place.reset();
        }}
        placeError={place.error}
        busy={!online || place.isPending}
        onApproval={() => place.mutate({ requestApproval: true })}
      />
      <label htmlFor="notes">{t('cart.notes')}</label>
      <textarea id="notes" rows={2} maxLength={1000} value={notes} onChange={(e) => setNotes(e.target.value)} />
      {place.error && !isCreditRefusal(place.error) && <ErrorBox error={place.error} />}
      {/* The total and the place button stay on screen above the tabs however long the cart (issue 34). */}
      <div className="cart-bar">
        <p className="bar-total">
          {result ? (
            <>
              {t('cart.total')} <strong>{f.money(result.total)}</strong>
            </>
          ) : (
            t('cart.pricing')
          )}
        </p>
        {/* Offline, the order is queued on the phone and sent once when the network returns (web/lib/order-queue.ts). */}
        {!online && (
          <QueueOrderButton storeId={storeId} items={items} notes={notes} deliveryDate={deliveryDate} seen={seenPrices(queryClient, storeId, result?.lines)} onQueued={() => setItems([])} />
        )}
        <button
          type="button"
          className="primary"
          hidden={!online}
          disabled={!online || place.isPending || !result || minimumBlocks(minimum) || (result.violations?.length ?? 0) > 0 || result.lines.some((l) => 'error' in l)}
          onClick={() => place.mutate(undefined)}
        >
          {place.isPending ? t('cart.placing') : t('cart.place')}
        </button>
      </div>
    </section>
  );
}
