// "Sugerido para ti": the supplier's recommendations for the store today and the
// platform's cadence suggestion (GET /app/stores/{storeId}/recommendations), each added to
// the cart whole in one tap (what can be ordered today; the service says what cannot).
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { MessageKey } from '../../lib/i18n.ts';
import { addLines, useRecommendations, type StoreRecommendation } from '../../lib/order-guide.ts';
import { session, useSession } from '../../lib/session.ts';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.tsx';

export default function Suggested() {
  const t = useT();
  const f = useFormat();
  const storeId = useSession().storeId!;
  const recommendations = useRecommendations(storeId);
  const [notice, setNotice] = useState<string>();
  const nameOf = (r: StoreRecommendation) => r.name ?? t('suggested.cadenceName');
  const addAll = (r: StoreRecommendation) => {
    const lines = r.products.filter((p) => p.available).map((p) => ({ productInternalCode: p.productInternalCode, units: p.units, quantity: p.quantity, ...(p.name ? { name: p.name } : {}) }));
    const { items, added } = addLines(session.cart(storeId), lines);
    session.saveCart(storeId, items);
    setNotice(t('suggested.added', { count: added }));
  };
  return (
    <section>
      <h1>{t('suggested.title')}</h1>
      {notice && (
        <p role="status" className="notice">
          {notice} <Link to="/cart">{t('nav.cart')}</Link>
        </p>
      )}
      {recommendations.isPending ? (
        <Loading rows={3} />
      ) : recommendations.error ? (
        <ErrorBox error={recommendations.error} retry={() => void recommendations.refetch()} />
      ) : recommendations.data.length === 0 ? (
        <Empty>{t('suggested.empty')}</Empty>
      ) : (
        <ul className="list">
          {recommendations.data.map((r) => (
            <li key={r.internalCode ?? `platform-${r.reason}`} className="panel" data-recommendation={r.internalCode ?? r.reason}>
              <h2>{nameOf(r)}</h2>
              <p>
                <span className="badge">{t(`reason.${r.reason}` as MessageKey)}</span>
                {r.end && <span className="muted small"> {t('suggested.until', { date: f.date(r.end) })}</span>}
              </p>
              <ul className="lines">
                {r.products.map((p) => (
                  <li key={`${p.productInternalCode}/${p.units}`} className="line">
                    <div className="grow">
                      <strong>{p.name ?? p.productInternalCode}</strong>
                      <p className="small">
                        {t('suggested.quantity', { quantity: f.number(p.quantity), size: t('catalog.units', { count: p.units }) })}
                        {p.available && p.unitPrice !== null ? (
                          <> · {f.money(p.unitPrice)}</>
                        ) : (
                          <span className="warn"> · {t('usual.unavailable', { reason: t(`lineError.${p.unavailableReason}` as MessageKey) })}</span>
                        )}
                      </p>
                      {p.cadence && <p className="muted small">{t('suggested.cadence', { every: f.number(p.cadence.everyDays), since: p.cadence.daysSinceLast })}</p>}
                    </div>
                  </li>
                ))}
              </ul>
              <button type="button" className="primary wide" disabled={!r.products.some((p) => p.available)} onClick={() => addAll(r)} aria-label={t('suggested.addAllLabel', { name: nameOf(r) })}>
                {t('suggested.addAll')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
