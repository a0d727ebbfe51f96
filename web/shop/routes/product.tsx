// A product's page (issue 34): its picture, description, each size with its price, the
// price of a unit inside a box and whether the store's warehouse has it, a stepper per size
// in stock, and the promotions it takes part in. Read from GET /app/stores/{id}/products/{code};
// until that answers (or offline, when the service worker kept no copy), the row the
// catalog already holds stands in for it.
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { SurtidoApiError } from 'surtido/client';
import { client, usePromotions, type CatalogItem } from '../../lib/api.ts';
import { putQuantity } from '../../lib/cart-state.ts';
import { useCart, useSession } from '../../lib/session.ts';
import { ProductImage, QuantityStepper, sizeLabel, useBadges } from '../components/ProductCard.tsx';
import { Empty, ErrorBox, Loading, useOnline } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.tsx';

type Product = CatalogItem & { outOfStock?: { units: number }[] };

/** Every catalog item this phone holds for the store (any search or page seen), each once, in the catalog's order. */
export function savedCatalog(queryClient: QueryClient, storeId: number): CatalogItem[] {
  const seen = new Map<string, CatalogItem>();
  for (const [, data] of queryClient.getQueriesData<{ pages?: { data: CatalogItem[] }[] }>({ queryKey: ['catalog', storeId] })) {
    for (const page of data?.pages ?? []) for (const item of page.data) if (!seen.has(item.internalCode)) seen.set(item.internalCode, item);
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name) || (a.internalCode < b.internalCode ? -1 : 1));
}

export default function ProductPage() {
  const t = useT();
  const f = useFormat();
  const online = useOnline();
  const storeId = useSession().storeId!;
  const { code } = useParams({ from: '/products/$code' });
  const queryClient = useQueryClient();
  const [items, setItems] = useCart(storeId);
  const promotions = usePromotions(storeId);
  const saved = (): Product | undefined => savedCatalog(queryClient, storeId).find((p) => p.internalCode === code);
  const product = useQuery({
    queryKey: ['product', storeId, code],
    queryFn: async (): Promise<Product> => client.get('/app/stores/{storeId}/products/{code}', { params: { path: { storeId, code } } }),
    placeholderData: saved,
  });
  // Offline or failed, the row the catalog holds still shows (said to be the saved one).
  const p = product.data ?? (product.error || !online ? saved() : undefined);
  const fromSaved = p !== undefined && (product.isPlaceholderData || !product.data);
  const badges = useBadges(p ?? { promotions: [] } as unknown as CatalogItem, promotions.data);
  const back = (
    <Link to="/catalog" className="button">
      {t('cart.toCatalog')}
    </Link>
  );

  if (!p) {
    if (product.isPending) return <Loading rows={3} />;
    const missing = product.error instanceof SurtidoApiError && product.error.status === 404;
    return (
      <section>
        {missing ? <Empty>{t('product.notFound')}</Empty> : <ErrorBox error={product.error} retry={() => void product.refetch()} />}
        {back}
      </section>
    );
  }
  const inCart = (units: number) => items.find((i) => i.productInternalCode === p.internalCode && i.units === units)?.quantity ?? 0;
  const sizes = [...p.sizes.map((s) => ({ ...s, inStock: true })), ...(p.outOfStock ?? []).map((s) => ({ units: s.units, name: null, price: undefined, inStock: false }))].sort((a, b) => a.units - b.units);

  return (
    <section className="product" aria-busy={product.isFetching || undefined}>
      <p>
        <Link to="/catalog" className="back">
          {t('cart.toCatalog')}
        </Link>
      </p>
      {fromSaved && (!online || product.error) && (
        <p className="hint" role="status">
          {t('product.saved')}
        </p>
      )}
      <div className="product-head">
        <ProductImage item={p} eager size={160} />
        <div>
          <h1>{p.name}</h1>
          <p className="muted small">{t('product.code', { code: p.internalCode })}</p>
        </div>
      </div>
      <p>{p.description ?? <span className="muted">{t('product.noDescription')}</span>}</p>
      <h2>{t('product.sizes')}</h2>
      <ul className="product-sizes">
        {sizes.map((s) => {
          const label = sizeLabel(t, s);
          return (
            <li key={s.units} data-size={s.units}>
              <div className="grow">
                <strong>{label}</strong>
                {s.price !== undefined && <> · {f.money(s.price)}</>}
                {/* The price of one unit inside a box: the box's price shared out, to compare sizes. */}
                {s.price !== undefined && s.units > 1 && <span className="muted small"> · {t('product.perUnit', { price: f.money(Math.round((s.price / s.units) * 100) / 100) })}</span>}
                <br />
                <span className={s.inStock ? 'stock in' : 'stock out'}>{s.inStock ? t('product.inStock') : t('product.outOfStock')}</span>
              </div>
              {s.inStock && (
                <QuantityStepper
                  label={`${p.name} ${label}`}
                  quantity={inCart(s.units)}
                  onSet={(quantity) => setItems(putQuantity(items, { productInternalCode: p.internalCode, units: s.units, quantity, name: p.name }))}
                />
              )}
            </li>
          );
        })}
      </ul>
      <section aria-labelledby="product-promotions">
        <h2 id="product-promotions">{t('promo.title')}</h2>
        {badges.length === 0 ? (
          <p className="muted">{t('product.noPromotions')}</p>
        ) : (
          <ul className="badges">
            {badges.map((b) => (
              <li key={b.code} className="badge">
                {b.name === b.text ? b.text : `${b.name}: ${b.text}`}
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}
