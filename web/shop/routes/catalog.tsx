// The store's catalog: search, category and brand filters, cards with sizes, prices and
// the promotions each product takes part in. Filters live in the URL (shareable, and the
// back button undoes them).
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { client, keys, useCatalogFilters, usePromotions, type CatalogItem } from '../../lib/api.ts';
import { addItem } from '../../lib/cart-state.ts';
import { useCart, useSession } from '../../lib/session.ts';
import { ProductCard } from '../components/ProductCard.tsx';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
import { useT } from '../i18n.tsx';

const TAKE = 24;

export default function Catalog() {
  const t = useT();
  const storeId = useSession().storeId!;
  const search = useSearch({ from: '/catalog' });
  const navigate = useNavigate();
  const go = (next: Partial<typeof search>) => void navigate({ to: '/catalog', search: { ...search, ...next }, replace: 'search' in next });
  const [text, setText] = useState(search.search ?? '');
  const [items, setItems] = useCart(storeId);
  const promotions = usePromotions(storeId);

  // Typing searches after a short pause, not on every key.
  useEffect(() => {
    const timer = setTimeout(() => {
      if ((search.search ?? '') !== text.trim()) go({ search: text.trim() || undefined });
    }, 300);
    return () => clearTimeout(timer);
  }, [text]); // eslint-disable-line react-hooks/exhaustive-deps

  const filter = { search: search.search, category: search.category, brand: search.brand, take: TAKE };
  const catalog = useInfiniteQuery({
    queryKey: keys.catalog(storeId, filter),
    queryFn: ({ pageParam }) => client.get('/app/stores/{storeId}/catalog', { params: { path: { storeId }, query: { ...filter, page: pageParam } } }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page < last.totalPages ? last.page + 1 : undefined),
  });
  // The filters' choices, by name: the categories and brands of what the store can buy.
  const filters = useCatalogFilters(storeId);
  const categories = filters.data?.categories ?? [];
  const brands = filters.data?.brands ?? [];
  const parentName = new Map(categories.filter((c) => c.parentCode === null).map((c) => [c.code, c.name]));
  // A code in the URL that is not a choice (any more) still shows as chosen.
  const unknown = (code: string | undefined, choices: { code: string }[]) => (code !== undefined && !choices.some((c) => c.code === code) ? code : undefined);

  const inCart = useCallback((code: string) => (units: number) => items.find((i) => i.productInternalCode === code && i.units === units)?.quantity ?? 0, [items]);
  const products = (catalog.data?.pages.flatMap((p) => p.data) ?? []) as CatalogItem[];

  return (
    <section>
      <h1>{t('catalog.title')}</h1>
      {/* The promotions are a section of the catalog, not a tab (the tab bar's five: components/Layout.tsx). */}
      <p>
        <Link to="/promotions" className="button">
          {t('nav.promotions')}
        </Link>
      </p>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label className="grow">
          <span className="visually-hidden">{t('catalog.search')}</span>
          <input type="search" placeholder={t('catalog.search')} value={text} onChange={(e) => setText(e.target.value)} enterKeyHint="search" />
        </label>
        <label>
          <span className="small">{t('catalog.category')}</span>
          <select value={search.category ?? ''} onChange={(e) => go({ category: e.target.value || undefined })}>
            <option value="">{t('catalog.all')}</option>
            {categories.map((c) => (
              <option key={c.code} value={c.code}>
                {c.parentCode === null ? c.name : `${parentName.get(c.parentCode) ?? c.parentCode} › ${c.name}`}
              </option>
            ))}
            {unknown(search.category, categories) && <option value={search.category}>{search.category}</option>}
          </select>
        </label>
        <label>
          <span className="small">{t('catalog.brand')}</span>
          <select value={search.brand ?? ''} onChange={(e) => go({ brand: e.target.value || undefined })}>
            <option value="">{t('catalog.all')}</option>
            {brands.map((b) => (
              <option key={b.code} value={b.code}>
                {b.name}
              </option>
            ))}
            {unknown(search.brand, brands) && <option value={search.brand}>{search.brand}</option>}
          </select>
        </label>
      </form>
      {catalog.isPending ? (
        <Loading rows={4} />
      ) : catalog.error ? (
        <ErrorBox error={catalog.error} retry={() => void catalog.refetch()} />
      ) : products.length === 0 ? (
        <Empty>{t('catalog.empty')}</Empty>
      ) : (
        <>
          <ul className="cards" aria-busy={catalog.isFetching || undefined}>
            {products.map((p) => (
              <ProductCard
                key={p.internalCode}
                item={p}
                promotions={promotions.data}
                inCart={inCart(p.internalCode)}
                onAdd={(units) => setItems(addItem(items, { productInternalCode: p.internalCode, units, quantity: 1, name: p.name }))}
              />
            ))}
          </ul>
          {catalog.hasNextPage && (
            <button type="button" className="wide" onClick={() => void catalog.fetchNextPage()} disabled={catalog.isFetchingNextPage}>
              {t('catalog.more')}
            </button>
          )}
        </>
      )}
    </section>
  );
}
