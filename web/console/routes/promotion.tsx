// One promotion (GET /promotion/{code}): its type, dates and state in words, its tiers (as a
// table, and as the store app words them: web/lib/promotions.ts), its products and the
// stores' groupers that see it; the switch for writers; and the preview of a cart priced as
// a chosen store sees it (POST /store/{code}/cart, the store app's own pricing).
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { promotionPhrases } from '../../lib/promotions.ts';
import { client, useCan } from '../lib/api.ts';
import { catalogKeys, type Promotion } from '../lib/catalog.ts';
import { EnabledBadge, EnabledSwitch, ImageState } from '../components/catalog.tsx';
import { CartPreview } from '../components/CartPreview.tsx';
import { ListTable } from '../components/list/ListPage.tsx';
import { ErrorBox, Loading } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

type DiscountTier = NonNullable<Promotion['discountTiersData']>[number];

function Tiers({ p }: { p: Promotion }) {
  const t = useT();
  const f = useFormat();
  const benefit = (tier: DiscountTier) => (tier.discountPercentage != null ? t('promo.percent', { value: f.number(tier.discountPercentage) }) : t('promo.amount', { value: f.money(tier.discountAmount ?? 0) }));
  const discount = p.discountTiersData ? { measure: 'count' as const, tiers: p.discountTiersData } : p.discountTiersDataCash ? { measure: 'amount' as const, tiers: p.discountTiersDataCash } : null;
  const bonus = p.bonusTierData ?? p.bonusTierDataCash;
  // Amount tiers start at an amount of money; quantity tiers at a count.
  const bound = (n: number) => (discount?.measure === 'amount' ? f.money(n) : f.number(n));
  const gift = (b: NonNullable<typeof bonus>) =>
    t('promotion.giftOf', {
      quantity: f.number(b.quantityGiven),
      units: f.number(b.units),
      product: b.productInternalCode ?? (p.products[0]?.internalCode ?? ''),
    });
  return (
    <>
      {discount && (
        <div className="table-wrap" tabIndex={0}>
          <table data-testid="tiers">
            <caption className="visually-hidden">{t('promotion.tiers')}</caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  {t(discount.measure === 'count' ? 'promotion.fromCount' : 'promotion.fromAmount')}
                </th>
                <th scope="col" className="num">
                  {t(discount.measure === 'count' ? 'promotion.toCount' : 'promotion.toAmount')}
                </th>
                <th scope="col">{t('promotion.benefit')}</th>
              </tr>
            </thead>
            <tbody>
              {discount.tiers.map((tier, i) => (
                <tr key={i}>
                  <td className="num">{bound(tier.min)}</td>
                  <td className="num">{tier.max !== undefined ? bound(tier.max) : t('promotion.upToNext')}</td>
                  <td>{benefit(tier)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {bonus && (
        <p data-testid="bonus">
          {bonus.quantityRequired != null
            ? t('promotion.bonusEvery', { required: f.number(bonus.quantityRequired), gift: gift(bonus) })
            : t('promotion.bonusAmount', { amount: f.money(bonus.amountRequired ?? 0), gift: gift(bonus) })}
        </p>
      )}
    </>
  );
}

export default function PromotionPage() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const code = useParams({ from: '/promotions/$code' }).code;
  const promotion = useQuery({ queryKey: catalogKeys.promotion(code), queryFn: () => client.get('/promotion/{code}', { params: { path: { code } } }) });
  if (promotion.isPending) return <Loading />;
  if (promotion.error)
    return (
      <section>
        <p>
          <Link to="/promotions">{t('promotion.back')}</Link>
        </p>
        <ErrorBox error={promotion.error} retry={() => void promotion.refetch()} />
      </section>
    );
  const p = promotion.data;
  const phrases = promotionPhrases(p, t, f.money, f.number);
  return (
    <section>
      <p>
        <Link to="/promotions">{t('promotion.back')}</Link>
      </p>
      <h1>
        {p.name} <EnabledBadge enabled={p.enabled} />
        {p.active && <span className="status status-active">{t('promotions.active')}</span>}
      </h1>
      <dl className="facts">
        <dt>{t('catalog.code')}</dt>
        <dd>
          <code>{p.internalCode}</code>
        </dd>
        <dt>{t('promotions.type')}</dt>
        <dd data-testid="promotion-type">{t(`promotionType.${p.type}`)}</dd>
        <dt>{t('promotions.runs')}</dt>
        <dd>{t('promotions.range', { start: f.date(p.start), end: f.date(p.end) })}</dd>
        {p.title && (
          <>
            <dt>{t('promotion.headline')}</dt>
            <dd>{p.title}</dd>
          </>
        )}
        {p.description && (
          <>
            <dt>{t('promotion.description')}</dt>
            <dd>{p.description}</dd>
          </>
        )}
        <dt>{t('promotion.image')}</dt>
        <dd>
          <ImageState p={p} />
        </dd>
        <dt>{t('promotion.who')}</dt>
        <dd>{p.promotionGrouperCodes.length === 0 ? t('promotion.everyStore') : t('promotion.groupers', { codes: p.promotionGrouperCodes.join(', ') })}</dd>
      </dl>
      {can('supplier/promotion.write') && <EnabledSwitch kind="promotion" code={p.internalCode} name={p.name} enabled={p.enabled} invalidate={['promotions', 'promotion']} />}
      <h2>{t('promotion.tiers')}</h2>
      <p className="help">{t(`promotionAbout.${p.type}`)}</p>
      <Tiers p={p} />
      {phrases.length > 0 && (
        <>
          <h3>{t('promotion.asTheStoreReads')}</h3>
          <ul data-testid="phrases">
            {phrases.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </>
      )}
      <h2>{t('promotion.products')}</h2>
      <ListTable
        rows={p.products}
        rowKey={(x) => x.internalCode}
        rowAttrs={(x) => ({ 'data-promotion-product': x.internalCode })}
        columns={[
          {
            header: t('catalog.code'),
            cell: (x) =>
              can('supplier/catalog.read') ? (
                <Link to="/products" search={{ search: x.internalCode }}>
                  <code>{x.internalCode}</code>
                </Link>
              ) : (
                <code>{x.internalCode}</code>
              ),
          },
          { header: t('promotion.boxRatio'), align: 'num', cell: (x) => f.number(x.boxRatio) },
        ]}
      />
      {can('supplier/store.read') && <CartPreview key={p.internalCode} product={p.products[0]?.internalCode} />}
    </section>
  );
}
