// The promotions taking part for this store today, with their products and tiers.
import { usePromotions } from '../../lib/api.ts';
import { promotionPhrases } from '../../lib/promotions.ts';
import { useSession } from '../../lib/session.ts';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.tsx';

export default function Promotions() {
  const t = useT();
  const f = useFormat();
  const storeId = useSession().storeId!;
  const promotions = usePromotions(storeId);
  return (
    <section>
      <h1>{t('promo.title')}</h1>
      {promotions.isPending ? (
        <Loading />
      ) : promotions.error ? (
        <ErrorBox error={promotions.error} retry={() => void promotions.refetch()} />
      ) : promotions.data.length === 0 ? (
        <Empty>{t('promo.empty')}</Empty>
      ) : (
        <ul className="list">
          {promotions.data.map((p) => (
            <li key={p.internalCode} className="panel">
              <h2>{p.name}</h2>
              <p className="muted small">{t('promo.until', { date: f.date(p.end) })}</p>
              <ul className="badges">
                {promotionPhrases(p, t, f.money, f.number).map((text) => (
                  <li key={text} className="badge">
                    {text}
                  </li>
                ))}
              </ul>
              <h3 className="small">{t('promo.products')}</h3>
              <ul className="small" data-promotion-products={p.internalCode}>
                {p.products.map((x) => (
                  <li key={x.internalCode}>{x.name ?? x.internalCode}</li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
