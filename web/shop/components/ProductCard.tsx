import { memo } from 'react';
import type { CatalogItem, Promotion } from '../../lib/api.ts';
import { hasTiers, promotionPhrases } from '../../lib/promotions.ts';
import { useFormat, useT } from '../i18n.tsx';

interface Props {
  item: CatalogItem;
  /** The store's promotions page, for tiers the catalog answer does not carry. */
  promotions: readonly Promotion[] | undefined;
  inCart: (units: number) => number;
  onAdd: (units: number) => void;
}

function ProductImage({ item }: { item: CatalogItem }) {
  const t = useT();
  const urls = item.imageUrls;
  if (urls) {
    return (
      <img
        src={urls['160']}
        srcSet={`${urls['160']} 160w, ${urls['480']} 480w, ${urls['1024']} 1024w`}
        sizes="(min-width: 640px) 200px, 40vw"
        width={160}
        height={160}
        alt={item.name}
        loading="lazy"
        decoding="async"
      />
    );
  }
  // Never the supplier's own URL (the catalog has none): an image not stored is the placeholder.
  return (
    <div className="noimg" role="img" aria-label={`${item.name}: ${t('catalog.noImage')}`}>
      {item.name.slice(0, 1)}
    </div>
  );
}

export const ProductCard = memo(function ProductCard({ item, promotions, inCart, onAdd }: Props) {
  const t = useT();
  const f = useFormat();
  const badges = item.promotions.flatMap((p) => {
    const source = hasTiers(p) ? p : (promotions?.find((x) => x.internalCode === p.internalCode) ?? p);
    const phrases = promotionPhrases(source, t, f.money, f.number);
    return phrases.length ? [{ code: p.internalCode, text: phrases.join(' · '), title: p.name ?? p.internalCode }] : [{ code: p.internalCode, text: p.name ?? p.internalCode, title: p.name ?? p.internalCode }];
  });
  return (
    <li className="card" data-product={item.internalCode}>
      <ProductImage item={item} />
      <div className="card-body">
        <h2 className="card-title">{item.name}</h2>
        <p className="muted small">{item.internalCode}</p>
        {badges.length > 0 && (
          <ul className="badges">
            {badges.map((b) => (
              <li key={b.code} className="badge" title={b.title}>
                {b.text}
              </li>
            ))}
          </ul>
        )}
        <ul className="sizes">
          {item.sizes.map((s) => {
            // A size the supplier named none reads as a shopkeeper says it: "Unidad", "Caja x12".
            const label = s.name ?? (s.units === 1 ? t('catalog.unit') : t('catalog.box', { count: s.units }));
            const n = inCart(s.units);
            return (
              <li key={s.units}>
                <span>
                  {label} · <strong>{f.money(s.price)}</strong>
                </span>
                <span className="add">
                  {n > 0 && (
                    <span className="count" role="status">
                      <span aria-hidden="true">{n}</span>
                      <span className="visually-hidden"> {t('catalog.inCart', { count: n })}</span>
                    </span>
                  )}
                  <button type="button" onClick={() => onAdd(s.units)} aria-label={t('catalog.addSize', { size: `${item.name} ${label}` })}>
                    {t('catalog.add')}
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      </div>
    </li>
  );
});
