// "Price this cart as store X sees it": the store (searched by code or name), the lines
// (product, package size, quantity), and the service's answer of POST /store/{code}/cart,
// the same pricing the store app calls (lines, discounts, gifts, totals, the minimum order
// and what the next tier would give). The page computes nothing: it shows the answer.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { client } from '../lib/api.ts';
import { catalogKeys, type CartAnswer } from '../lib/catalog.ts';
import { ListTable } from './list/ListPage.tsx';
import { ErrorBox } from './states.tsx';
import { useFormat, useT, type Translate } from '../i18n.ts';

type Line = { key: number; product: string; units: string; quantity: string };
type LineError = Extract<CartAnswer['lines'][number], { error: string }>['error'];
type Gives = CartAnswer['hints']['nextTiers'][number]['gives'];

/** Suggestions while typing (at least two characters): the service's search, ten at most. */
function useSuggestions(kind: 'store' | 'product', text: string) {
  const search = text.trim();
  return useQuery({
    queryKey: kind === 'store' ? catalogKeys.storeSearch(search) : catalogKeys.productSearch(search),
    queryFn: () =>
      kind === 'store'
        ? client.get('/store', { params: { query: { search, take: 10 } } }).then((r) => r.data.map((s) => ({ code: s.internalCode, label: s.name, sizes: [] as number[] })))
        : client.get('/product', { params: { query: { search, take: 10 } } }).then((r) => r.data.map((p) => ({ code: p.internalCode, label: p.name, sizes: p.displayProducts.map((d) => d.units) }))),
    enabled: search.length >= 2,
    staleTime: 30_000,
  });
}

function LineRow({ line, index, change, remove, removable }: { line: Line; index: number; change: (l: Line) => void; remove: () => void; removable: boolean }) {
  const t = useT();
  const products = useSuggestions('product', line.product);
  const sizes = products.data?.find((p) => p.code === line.product.trim())?.sizes ?? [];
  const n = index + 1;
  return (
    <fieldset className="cart-line" data-line-index={index}>
      <legend>{t('preview.line', { n })}</legend>
      <div>
        <label htmlFor={`line-product-${line.key}`}>{t('preview.product')}</label>
        <input id={`line-product-${line.key}`} list={`line-products-${line.key}`} required autoComplete="off" value={line.product} onChange={(e) => change({ ...line, product: e.target.value })} />
        <datalist id={`line-products-${line.key}`}>
          {(products.data ?? []).map((p) => (
            <option key={p.code} value={p.code}>
              {p.label}
            </option>
          ))}
        </datalist>
      </div>
      <div>
        <label htmlFor={`line-units-${line.key}`}>{t('preview.units')}</label>
        <input
          id={`line-units-${line.key}`}
          type="number"
          min={1}
          step={1}
          required
          list={`line-sizes-${line.key}`}
          value={line.units}
          onChange={(e) => change({ ...line, units: e.target.value })}
        />
        <datalist id={`line-sizes-${line.key}`}>
          {sizes.map((u) => (
            <option key={u} value={u} />
          ))}
        </datalist>
      </div>
      <div>
        <label htmlFor={`line-quantity-${line.key}`}>{t('preview.quantity')}</label>
        <input id={`line-quantity-${line.key}`} type="number" min={1} step={1} required value={line.quantity} onChange={(e) => change({ ...line, quantity: e.target.value })} />
      </div>
      {removable && (
        <button type="button" onClick={remove} aria-label={t('preview.removeLine', { n })}>
          {t('preview.remove')}
        </button>
      )}
    </fieldset>
  );
}

function givesText(t: Translate, number: (n: number) => string, money: (n: number) => string, g: Gives): string {
  if ('discountPercentage' in g) return t('promo.percent', { value: number(g.discountPercentage) });
  if ('discountAmount' in g) return t('promo.amount', { value: money(g.discountAmount) });
  return t('preview.gift', { quantity: number(g.quantity), product: g.product.name ?? g.product.internalCode, units: number(g.product.units) });
}

function Answer({ answer }: { answer: CartAnswer }) {
  const t = useT();
  const f = useFormat();
  const { hints } = answer;
  return (
    <section className="preview-answer" data-testid="cart-answer" aria-labelledby="cart-answer">
      <h3 id="cart-answer">{t('preview.answer')}</h3>
      <ListTable
        rows={answer.lines}
        rowKey={(_l, i) => i}
        rowAttrs={(l) => ({ 'data-answer-line': l.productInternalCode })}
        // A line the service refused says why across its money columns.
        row={(l) =>
          'error' in l ? (
            <tr data-answer-line={l.productInternalCode}>
              <td>
                <code>{l.productInternalCode}</code>
              </td>
              <td className="num">{f.number(l.units)}</td>
              <td className="num">{f.number(l.quantity)}</td>
              <td colSpan={4} className="line-error">
                {t(`cartError.${l.error as LineError}`)}
              </td>
            </tr>
          ) : undefined
        }
        columns={[
          { header: t('preview.product'), cell: (l) => <code>{l.productInternalCode}</code> },
          { header: t('preview.units'), align: 'num', cell: (l) => f.number(l.units) },
          { header: t('preview.quantity'), align: 'num', cell: (l) => f.number(l.quantity) },
          { header: t('preview.unitPrice'), align: 'num', cell: (l) => 'unitPrice' in l && f.money(l.unitPrice) },
          { header: t('preview.subtotal'), align: 'num', cell: (l) => 'subtotal' in l && f.money(l.subtotal) },
          { header: t('preview.discount'), align: 'num', cell: (l) => 'discount' in l && (l.discount > 0 ? `−${f.money(l.discount)}` : f.money(0)) },
          { header: t('preview.total'), align: 'num', cell: (l) => 'total' in l && f.money(l.total) },
        ]}
        totals={[
          { label: t('preview.subtotal'), value: f.money(answer.subtotal), attrs: { 'data-testid': 'cart-subtotal' } },
          { label: t('preview.discounts'), value: answer.discountTotal > 0 ? `−${f.money(answer.discountTotal)}` : f.money(0), attrs: { 'data-testid': 'cart-discount' } },
          { label: t('preview.total'), value: <strong>{f.money(answer.total)}</strong>, attrs: { 'data-testid': 'cart-total' } },
        ]}
      />
      <h4>{t('preview.discountsApplied')}</h4>
      {answer.discounts.length === 0 ? (
        <p className="muted">{t('preview.noDiscounts')}</p>
      ) : (
        <ul>
          {answer.discounts.map((d) => (
            <li key={d.promoInternalCode} data-discount={d.promoInternalCode}>
              {d.appliedDiscountPercentage !== null
                ? t('preview.discountPercent', { promo: d.promoInternalCode, percent: f.number(d.appliedDiscountPercentage), amount: f.money(d.appliedDiscountAmount) })
                : t('preview.discountAmount', { promo: d.promoInternalCode, amount: f.money(d.appliedDiscountAmount) })}
              <span className="muted small"> · {d.products.map((p) => `${p.internalCode} (${p.units}) × ${f.number(p.quantity)}`).join(', ')}</span>
            </li>
          ))}
        </ul>
      )}
      <h4>{t('preview.gifts')}</h4>
      {answer.rewards.length === 0 ? (
        <p className="muted">{t('preview.noGifts')}</p>
      ) : (
        <ul>
          {answer.rewards.map((r) => (
            <li key={r.promoInternalCode} data-reward={r.promoInternalCode}>
              {t('preview.reward', {
                promo: r.promoInternalCode,
                quantity: f.number(r.quantity),
                products: r.products.map((p) => `${p.internalCode} (${p.units})`).join(', '),
              })}
            </li>
          ))}
        </ul>
      )}
      {(answer.minimumOrder || hints.nextTiers.length > 0 || hints.giftsNotGiven.length > 0 || hints.lostConflicts.length > 0) && (
        <>
          <h4>{t('preview.hints')}</h4>
          <ul>
            {answer.minimumOrder && (
              <li>
                {answer.minimumOrder.missing > 0
                  ? t('preview.minimumMissing', { amount: f.money(answer.minimumOrder.amount), missing: f.money(answer.minimumOrder.missing) })
                  : t('preview.minimumMet', { amount: f.money(answer.minimumOrder.amount) })}
              </li>
            )}
            {hints.nextTiers.map((h, i) => (
              <li key={`next-${i}`}>
                {t(h.measure === 'count' ? 'preview.nextCount' : 'preview.nextAmount', { promo: h.promoInternalCode, missing: h.measure === 'amount' ? f.money(h.missing) : f.number(h.missing), gives: givesText(t, f.number, f.money, h.gives) })}
              </li>
            ))}
            {hints.giftsNotGiven.map((g, i) => (
              <li key={`gift-${i}`}>
                {t('preview.giftNotGiven', { promo: g.promoInternalCode, product: g.product.internalCode, reason: t(`cartError.${g.reason}`) })}
              </li>
            ))}
            {hints.lostConflicts.map((c, i) => (
              <li key={`lost-${i}`}>{t('preview.lost', { promo: c.promoInternalCode, by: c.takenBy.map((b) => b.promoInternalCode).join(', ') })}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

let nextKey = 1;
const emptyLine = (product = ''): Line => ({ key: nextKey++, product, units: '', quantity: '1' });

/** The preview form; `product` fills the first line (a promotion's first product). */
export function CartPreview({ product = '' }: { product?: string }) {
  const t = useT();
  const [store, setStore] = useState('');
  const [lines, setLines] = useState<Line[]>(() => [emptyLine(product)]);
  const stores = useSuggestions('store', store);
  const price = useMutation({
    mutationFn: () =>
      client.post('/store/{code}/cart', {
        params: { path: { code: store.trim() } },
        body: { lines: lines.map((l) => ({ productInternalCode: l.product.trim(), units: Number(l.units), quantity: Number(l.quantity) })) },
      }),
  });
  return (
    <section className="panel" aria-labelledby="preview">
      <h2 id="preview">{t('preview.title')}</h2>
      <p className="help">{t('preview.about')}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          price.mutate();
        }}
      >
        <div className="filters">
          <div>
            <label htmlFor="preview-store">{t('preview.store')}</label>
            <input id="preview-store" list="preview-stores" required autoComplete="off" value={store} onChange={(e) => setStore(e.target.value)} />
            <datalist id="preview-stores">
              {(stores.data ?? []).map((s) => (
                <option key={s.code} value={s.code}>
                  {s.label}
                </option>
              ))}
            </datalist>
          </div>
        </div>
        {lines.map((l, i) => (
          <LineRow
            key={l.key}
            line={l}
            index={i}
            removable={lines.length > 1}
            change={(next) => setLines(lines.map((x) => (x.key === l.key ? next : x)))}
            remove={() => setLines(lines.filter((x) => x.key !== l.key))}
          />
        ))}
        <div className="actions">
          <button type="button" disabled={lines.length >= 500} onClick={() => setLines([...lines, emptyLine()])}>
            {t('preview.addLine')}
          </button>
          <button type="submit" className="primary" disabled={price.isPending}>
            {t('preview.price')}
          </button>
        </div>
      </form>
      {price.isPending && (
        <p role="status" className="muted">
          {t('state.loading')}
        </p>
      )}
      {price.error && <ErrorBox error={price.error} />}
      {price.data && !price.isPending && <Answer answer={price.data} />}
    </section>
  );
}
