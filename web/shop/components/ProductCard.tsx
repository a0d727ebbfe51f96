// A catalog row (issue 34, "a denser catalog"): the picture and name (both lead to the
// product page), the price of each size, the promotions' badges, and a − / + stepper in
// the size the row shows (a tap on another size's price switches it), whose box takes a
// typed quantity committed on blur or Enter as the cart's does. Five rows fit a phone's
// first screen (web/e2e/catalog-rows.test.ts measures it).
import { useRouter } from '@tanstack/react-router';
import { memo, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import type { CatalogItem, Promotion } from '../../lib/api.ts';
import { MAX_QUANTITY, packagesOf } from '../../lib/cart-state.ts';
import type { Translate } from '../../lib/i18n.ts';
import { hasTiers, promotionPhrases } from '../../lib/promotions.ts';
import { useFormat, useT } from '../i18n.tsx';

interface Props {
  item: CatalogItem;
  /** The store's promotions page, for tiers the catalog answer does not carry. */
  promotions: readonly Promotion[] | undefined;
  /** This product's packages in the cart by size (`cartPackages`): a string, so a row re-renders only when its own lines change. */
  inCart: string;
  /** Sets the packages of a size of the product in the cart (0 removes the line); the same function for every row. */
  onSet: (item: CatalogItem, units: number, quantity: number) => void;
  /** The first rows' pictures load at once and first; the others when scrolled to. */
  eager?: boolean;
}

/** A size as a shopkeeper says it: the supplier's name, else "Unidad", "Caja x12". */
export const sizeLabel = (t: Translate, s: { units: number; name?: string | null }) => s.name ?? (s.units === 1 ? t('catalog.unit') : t('catalog.box', { count: s.units }));

/** What the promotions' badges say: the tiers worded, else the promotion's name. */
export function useBadges(item: CatalogItem, promotions: readonly Promotion[] | undefined) {
  const t = useT();
  const f = useFormat();
  return item.promotions.map((p) => {
    const source = hasTiers(p) ? p : (promotions?.find((x) => x.internalCode === p.internalCode) ?? p);
    const phrases = promotionPhrases(source, t, f.money, f.number);
    const name = p.name ?? p.internalCode;
    return { code: p.internalCode, name, text: phrases.length ? phrases.join(' · ') : name };
  });
}

export function ProductImage({ item, eager = false, size = 64 }: { item: CatalogItem; eager?: boolean; size?: number }) {
  const t = useT();
  const urls = item.imageUrls;
  if (urls) {
    return (
      <img
        src={urls['160']}
        srcSet={`${urls['160']} 160w, ${urls['480']} 480w, ${urls['1024']} 1024w`}
        sizes={`${size}px`}
        width={size}
        height={size}
        alt={item.name}
        loading={eager ? 'eager' : 'lazy'}
        fetchPriority={eager ? 'high' : 'auto'}
        decoding="async"
      />
    );
  }
  // Never the supplier's own URL (the catalog has none): an image not stored is the placeholder.
  return (
    <div className="noimg" role="img" aria-label={`${item.name}: ${t('catalog.noImage')}`} style={{ width: size, height: size }}>
      {item.name.slice(0, 1)}
    </div>
  );
}

/** What the quantity box holds while it is typed in: a whole number from 0, or nothing yet. */
const typed = (text: string) => (/^\d+$/.test(text.trim()) ? Math.min(MAX_QUANTITY, Number(text)) : undefined);

/**
 * − / + and the quantity of one size in the cart. The box is the buyer's while they type:
 * a number is committed on blur or Enter (0 takes the size out of the cart), an empty box
 * is not zero, Escape gives the box back.
 */
export function QuantityStepper({ label, quantity, onSet }: { label: string; quantity: number; onSet: (quantity: number) => void }) {
  const t = useT();
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const commit = () => {
    const n = draft === undefined ? undefined : typed(draft);
    setDraft(undefined);
    if (n !== undefined && n !== quantity) onSet(n);
  };
  // A tap on − or + right after typing counts from what was typed (the blur commits it first).
  const current = (draft === undefined ? undefined : typed(draft)) ?? quantity;
  return (
    <div className="stepper">
      <button type="button" aria-label={t('catalog.less', { size: label })} disabled={current <= 0} onClick={() => onSet(current - 1)}>
        −
      </button>
      <input
        type="number"
        inputMode="numeric"
        min={0}
        max={MAX_QUANTITY}
        aria-label={t('catalog.quantity', { size: label })}
        value={draft ?? String(quantity)}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') setDraft(undefined);
        }}
      />
      <button type="button" aria-label={t('catalog.addSize', { size: label })} disabled={current >= MAX_QUANTITY} onClick={() => onSet(current + 1)}>
        +
      </button>
    </div>
  );
}

/**
 * A link to a product's page, as light as an anchor: a catalog page has two a row, and the
 * router's Link builds its location and follows the router's state in each (a tenth of
 * the catalog's first render on a throttled phone). A plain click navigates in the app; a
 * click with a modifier, or another button, is the browser's (a new tab).
 */
function ProductLink({ code, ...rest }: { code: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const router = useRouter();
  const open = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void router.navigate({ to: '/products/$code', params: { code } });
  };
  return <a href={`${router.basepath}/products/${encodeURIComponent(code)}`} onClick={open} {...rest} />;
}

export const ProductCard = memo(function ProductCard({ item, promotions, inCart, onSet, eager }: Props) {
  const t = useT();
  const f = useFormat();
  const badges = useBadges(item, promotions);
  // The size the stepper counts: one already in the cart, else the largest (a box).
  const [chosen, choose] = useState<number | undefined>(undefined);
  const packages = (u: number) => packagesOf(inCart, u);
  const units = chosen ?? item.sizes.find((s) => packages(s.units) > 0)?.units ?? item.sizes.at(-1)?.units;
  const size = item.sizes.find((s) => s.units === units);
  return (
    <li className="card compact" data-product={item.internalCode}>
      {/* The picture leads where the name does: one link for a screen reader and the keyboard. */}
      <ProductLink code={item.internalCode} className="thumb" tabIndex={-1} aria-hidden="true">
        <ProductImage item={item} eager={eager} />
      </ProductLink>
      <div className="card-body">
        <div className="card-head">
          <h2 className="card-title">
            <ProductLink code={item.internalCode}>{item.name}</ProductLink>
          </h2>
          {size && <QuantityStepper label={`${item.name} ${sizeLabel(t, size)}`} quantity={packages(size.units)} onSet={(q) => onSet(item, size.units, q)} />}
        </div>
        <ul className="sizes" aria-label={t('catalog.sizesOf', { name: item.name })}>
          {item.sizes.map((s) => (
            <li key={s.units}>
              {item.sizes.length > 1 ? (
                <button type="button" aria-pressed={s.units === units} onClick={() => choose(s.units)}>
                  {sizeLabel(t, s)}
                  <span className="sep" aria-hidden="true">
                    {' · '}
                  </span>
                  <strong>{f.money(s.price)}</strong>
                </button>
              ) : (
                <span>
                  {sizeLabel(t, s)}
                  <span className="sep" aria-hidden="true">
                    {' · '}
                  </span>
                  <strong>{f.money(s.price)}</strong>
                </span>
              )}
            </li>
          ))}
        </ul>
        {badges.length > 0 && (
          <ul className="badges">
            {badges.map((b) => (
              <li key={b.code} className="badge" title={b.name}>
                {b.text}
              </li>
            ))}
          </ul>
        )}
      </div>
    </li>
  );
});
