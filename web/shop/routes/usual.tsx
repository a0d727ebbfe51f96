// "Lo de siempre": what the store usually buys (GET /app/stores/{storeId}/order-guide), one
// tap to add the usual quantities to the cart, pins, hidden products, and the par: what
// the shopkeeper wants on the shelf, filled from what is there (POST .../order-guide/fill).
// Quantities, prices and availability are the service's; the cart is the phone's.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { client, useMe } from '../../lib/api.ts';
import type { MessageKey } from '../../lib/i18n.ts';
import { addLines, guideKeys, useOrderGuide, type GuideItem, type GuideSort } from '../../lib/order-guide.ts';
import { session, useSession } from '../../lib/session.ts';
import { Empty, ErrorBox, Loading, useOnline } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.tsx';

function GuideRow({ item, storeId, onHand, setOnHand, onAdd }: { item: GuideItem; storeId: number; onHand: string; setOnHand: (v: string) => void; onAdd: () => void }) {
  const t = useT();
  const f = useFormat();
  const online = useOnline();
  const queryClient = useQueryClient();
  const timezone = useMe().data?.settings.timezone;
  // The day of the last order in the platform's timezone: the hour says nothing here.
  const dayOf = (iso: string) => f.date(new Intl.DateTimeFormat('en-CA', { timeZone: timezone ?? 'UTC' }).format(new Date(iso)));
  const [par, setPar] = useState(item.par === null ? '' : String(item.par));
  useEffect(() => setPar(item.par === null ? '' : String(item.par)), [item.par]);
  const save = useMutation({
    networkMode: 'online',
    mutationFn: (body: { pinned?: boolean; hidden?: boolean; par?: number | null }) =>
      client.put('/app/stores/{storeId}/order-guide/{productInternalCode}', { params: { path: { storeId, productInternalCode: item.productInternalCode } }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: guideKeys.all(storeId) }),
  });
  const savePar = () => {
    const value = par.trim() === '' ? null : Math.max(0, Math.trunc(Number(par)));
    if (value !== item.par && (value === null || Number.isFinite(value))) save.mutate({ par: value });
  };
  const id = `guide-${item.productInternalCode}`;
  return (
    <li className="panel guide" data-guide={item.productInternalCode}>
      <h2 className="small-title">{item.name}</h2>
      <p className="muted small">
        {t('catalog.units', { count: item.units })} ·{' '}
        {item.lastOrderedAt
          ? `${t('usual.last', { quantity: f.number(item.lastQuantity ?? 0), date: dayOf(item.lastOrderedAt) })} · ${item.timesOrdered === 1 ? t('usual.once') : t('usual.times', { count: item.timesOrdered })}`
          : t('usual.never')}
      </p>
      {item.promotions.length > 0 && (
        <ul className="badges">
          {item.promotions.map((p) => (
            <li key={p.internalCode} className="badge">
              {p.name}
            </li>
          ))}
        </ul>
      )}
      <div className="guide-buy">
        {item.available && item.unitPrice !== null ? (
          <strong>{f.money(item.unitPrice)}</strong>
        ) : (
          <span className="warn small">{t('usual.unavailable', { reason: t(`lineError.${item.unavailableReason}` as MessageKey) })}</span>
        )}
        <button type="button" disabled={!item.available} onClick={onAdd} aria-label={t('usual.addLabel', { quantity: item.usualQuantity, name: item.name })}>
          {t('usual.add', { quantity: item.usualQuantity })}
        </button>
      </div>
      <div className="guide-shelf">
        <div>
          <label htmlFor={`${id}-par`} className="small">
            {t('usual.par')}
          </label>
          <input id={`${id}-par`} type="number" inputMode="numeric" min={0} value={par} disabled={!online} aria-label={t('usual.parLabel', { name: item.name })} onChange={(e) => setPar(e.target.value)} onBlur={savePar} />
        </div>
        <div>
          <label htmlFor={`${id}-hand`} className="small">
            {t('usual.onHand')}
          </label>
          <input id={`${id}-hand`} type="number" inputMode="numeric" min={0} value={onHand} disabled={item.par === null} aria-label={t('usual.onHandLabel', { name: item.name })} onChange={(e) => setOnHand(e.target.value)} />
        </div>
      </div>
      <div className="actions">
        <button type="button" className="link" aria-pressed={item.pinned} disabled={!online || save.isPending} aria-label={t('usual.pinLabel', { name: item.name })} onClick={() => save.mutate({ pinned: !item.pinned })}>
          {t('usual.pin')}
        </button>
        <button type="button" className="link" disabled={!online || save.isPending} aria-label={t('usual.hideLabel', { name: item.name })} onClick={() => save.mutate({ hidden: true })}>
          {t('usual.hide')}
        </button>
      </div>
      {save.error && <ErrorBox error={save.error} />}
    </li>
  );
}

export default function Usual() {
  const t = useT();
  const storeId = useSession().storeId!;
  const online = useOnline();
  const navigate = useNavigate();
  const { start } = useSearch({ from: '/usual' });
  const [sort, setSort] = useState<GuideSort>('frequency');
  const [notice, setNotice] = useState<string>();
  const [counts, setCounts] = useState<Record<string, string>>({});
  const guide = useOrderGuide(storeId, sort);
  const items = guide.data?.data ?? [];

  // Opening the app: a store without history starts on the catalog instead.
  useEffect(() => {
    if (start && guide.data && guide.data.data.length === 0) void navigate({ to: '/catalog', replace: true });
  }, [start, guide.data, navigate]);

  const add = (lines: { productInternalCode: string; units: number; quantity: number; name?: string }[], message: (count: number) => string) => {
    const { items: next, added } = addLines(session.cart(storeId), lines);
    session.saveCart(storeId, next);
    setNotice(message(added));
  };
  const fill = useMutation({
    networkMode: 'online',
    mutationFn: () =>
      client.post('/app/stores/{storeId}/order-guide/fill', {
        params: { path: { storeId } },
        body: { counts: items.filter((i) => i.par !== null && (counts[i.productInternalCode] ?? '').trim() !== '').map((i) => ({ productInternalCode: i.productInternalCode, onHand: Math.max(0, Math.trunc(Number(counts[i.productInternalCode]))) })) },
      }),
    onSuccess: (answer) => {
      const names = new Map(items.map((i) => [i.productInternalCode, i.name]));
      const lines = answer.lines.filter((l) => l.available && l.quantity > 0).map((l) => ({ productInternalCode: l.productInternalCode, units: l.units, quantity: l.quantity, name: names.get(l.productInternalCode) }));
      if (lines.length === 0) return setNotice(t('usual.fillNothing'));
      add(lines, () => t('usual.filled'));
    },
  });
  const counted = items.some((i) => i.par !== null && (counts[i.productInternalCode] ?? '').trim() !== '');

  return (
    <section>
      <h1>{t('usual.title')}</h1>
      <p>
        <Link to="/suggested" className="button">
          {t('usual.suggested')}
        </Link>
      </p>
      {guide.isPending ? (
        <Loading rows={4} />
      ) : guide.error ? (
        <ErrorBox error={guide.error} retry={() => void guide.refetch()} />
      ) : items.length === 0 ? (
        <Empty>
          {t('usual.empty')} <Link to="/catalog">{t('cart.toCatalog')}</Link>
        </Empty>
      ) : (
        <>
          <p className="muted small">{t('usual.intro', { days: guide.data.windowDays })}</p>
          <label htmlFor="guide-sort">{t('usual.sort')}</label>
          <select id="guide-sort" value={sort} onChange={(e) => setSort(e.target.value as GuideSort)}>
            <option value="frequency">{t('usual.sortFrequency')}</option>
            <option value="recency">{t('usual.sortRecency')}</option>
          </select>
          <button
            type="button"
            className="primary wide"
            onClick={() =>
              add(
                items.filter((i) => i.available).map((i) => ({ productInternalCode: i.productInternalCode, units: i.units, quantity: i.usualQuantity, name: i.name })),
                (count) => t('usual.added', { count }),
              )
            }
          >
            {t('usual.addAll')}
          </button>
          {notice && (
            <p role="status" className="notice">
              {notice} <Link to="/cart">{t('nav.cart')}</Link>
            </p>
          )}
          <ul className="list">
            {items.map((item) => (
              <GuideRow
                key={item.productInternalCode}
                item={item}
                storeId={storeId}
                onHand={counts[item.productInternalCode] ?? ''}
                setOnHand={(v) => setCounts((c) => ({ ...c, [item.productInternalCode]: v }))}
                onAdd={() => add([{ productInternalCode: item.productInternalCode, units: item.units, quantity: item.usualQuantity, name: item.name }], (count) => t('usual.added', { count }))}
              />
            ))}
          </ul>
          {items.some((i) => i.par !== null) && (
            <button type="button" className="primary wide" disabled={!online || !counted || fill.isPending} onClick={() => fill.mutate()}>
              {t('usual.fill')}
            </button>
          )}
          {fill.error && <ErrorBox error={fill.error} />}
        </>
      )}
    </section>
  );
}
