// The store's catalog: search, category and brand filters, compact rows with sizes, prices,
// a stepper and the promotions each product takes part in. Filters live in the URL
// (shareable, and the back button undoes them). Offline, a search or filter runs over the
// catalog pages this phone already holds (issue 34): at once, said as such, no spinner.
import { keepPreviousData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { catalogQuery, useCatalogFilters, usePromotions, type CatalogItem } from '../../lib/api.ts';
import { cartPackages, putQuantity } from '../../lib/cart-state.ts';
import { session, useCart, useSession } from '../../lib/session.ts';
import { ProductCard } from '../components/ProductCard.tsx';
import { Empty, ErrorBox, Loading, useOnline } from '../components/states.tsx';
import { useT } from '../i18n.tsx';
// The product page comes in this page's chunk, not a lazy one of its own: a row's page
// then opens offline too (the service worker keeps the files a page loaded).
import { savedCatalog } from './product.tsx';

/** The rows whose pictures load at once and first: what a phone's first screen shows. */
const EAGER_ROWS = 6;

/**
 * The service's filter over saved items: the search in the name or code (case folded as
 * the service folds it), the category or its parent, the brand. A parent category is
 * known from the filters' choices.
 */
function filterSaved(items: CatalogItem[], f: { search?: string; category?: string; brand?: string }, parentOf: (code: string) => string | null | undefined) {
  const search = f.search?.toLowerCase();
  return items.filter(
    (p) =>
      (search === undefined || p.name.toLowerCase().includes(search) || p.internalCode.toLowerCase().includes(search)) &&
      (f.category === undefined || p.categoryInternalCode === f.category || parentOf(p.categoryInternalCode) === f.category) &&
      (f.brand === undefined || p.brandInternalCode === f.brand),
  );
}

export default function Catalog() {
  const t = useT();
  const storeId = useSession().storeId!;
  const search = useSearch({ from: '/catalog' });
  const navigate = useNavigate();
  const go = (next: Partial<typeof search>) => void navigate({ to: '/catalog', search: { ...search, ...next }, replace: 'search' in next });
  const [text, setText] = useState(search.search ?? '');
  const [items] = useCart(storeId);
  const promotions = usePromotions(storeId);
  const online = useOnline();
  const queryClient = useQueryClient();

  // Typing searches after a short pause, not on every key.
  useEffect(() => {
    const timer = setTimeout(() => {
      if ((search.search ?? '') !== text.trim()) go({ search: text.trim() || undefined });
    }, 300);
    return () => clearTimeout(timer);
  }, [text]); // eslint-disable-line react-hooks/exhaustive-deps

  const filter = { search: search.search, category: search.category, brand: search.brand };
  const filtered = filter.search !== undefined || filter.category !== undefined || filter.brand !== undefined;
  // Offline, a filter the phone has no answer for would wait on retries and fail: it is
  // answered from the pages held instead (the catalog as first loaded comes from the
  // service worker's copy, like every page).
  const saved = useMemo(() => (online || !filtered ? [] : savedCatalog(queryClient, storeId)), [online, filtered, queryClient, storeId]);
  const fromSaved = !online && filtered && saved.length > 0;
  // The query the app's boot already asked for this URL (first-data.ts), unless answered
  // from what is saved. While a new search or filter is asked, the rows shown stay (marked
  // busy) rather than blinking to a skeleton: a row the buyer is tapping is not torn down,
  // and one in both answers keeps its chosen size.
  const catalog = useInfiniteQuery({ ...catalogQuery(storeId, search), enabled: !fromSaved, placeholderData: keepPreviousData });
  // The filters' choices, by name: the categories and brands of what the store can buy.
  const filters = useCatalogFilters(storeId);
  const categories = filters.data?.categories ?? [];
  const brands = filters.data?.brands ?? [];
  const parentName = new Map(categories.filter((c) => c.parentCode === null).map((c) => [c.code, c.name]));
  // A code in the URL that is not a choice (any more) still shows as chosen.
  const unknown = (code: string | undefined, choices: { code: string }[]) => (code !== undefined && !choices.some((c) => c.code === code) ? code : undefined);

  // The same function for every row and render (the rows are memoized): it reads the cart as it is now.
  const onSet = useCallback(
    (p: CatalogItem, units: number, quantity: number) => session.saveCart(storeId, putQuantity(session.cart(storeId), { productInternalCode: p.internalCode, units, quantity, name: p.name })),
    [storeId],
  );
  const parentOf = (code: string) => categories.find((c) => c.code === code)?.parentCode;
  const products = fromSaved ? filterSaved(saved, filter, parentOf) : ((catalog.data?.pages.flatMap((p) => p.data) ?? []) as CatalogItem[]);

  return (
    <section>
      {/* Compact, so five rows fit a phone's first screen: the tab names the page (the heading
          is for screen readers), the filters name themselves ("Todas las categorías"). */}
      <h1 className="visually-hidden">{t('catalog.title')}</h1>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label className="grow">
          <span className="visually-hidden">{t('catalog.search')}</span>
          <input type="search" placeholder={t('catalog.search')} value={text} onChange={(e) => setText(e.target.value)} enterKeyHint="search" />
        </label>
        {/* The promotions are a section of the catalog, not a tab (the tab bar's five: components/Layout.tsx). */}
        <Link to="/promotions" className="button">
          {t('nav.promotions')}
        </Link>
        <label>
          <span className="visually-hidden">{t('catalog.category')}</span>
          <select value={search.category ?? ''} onChange={(e) => go({ category: e.target.value || undefined })}>
            <option value="">{t('catalog.allCategories')}</option>
            {categories.map((c) => (
              <option key={c.code} value={c.code}>
                {c.parentCode === null ? c.name : `${parentName.get(c.parentCode) ?? c.parentCode} › ${c.name}`}
              </option>
            ))}
            {unknown(search.category, categories) && <option value={search.category}>{search.category}</option>}
          </select>
        </label>
        <label className="wide-end">
          <span className="visually-hidden">{t('catalog.brand')}</span>
          <select value={search.brand ?? ''} onChange={(e) => go({ brand: e.target.value || undefined })}>
            <option value="">{t('catalog.allBrands')}</option>
            {brands.map((b) => (
              <option key={b.code} value={b.code}>
                {b.name}
              </option>
            ))}
            {unknown(search.brand, brands) && <option value={search.brand}>{search.brand}</option>}
          </select>
        </label>
      </form>
      {fromSaved && (
        <p className="hint" role="status">
          {t('catalog.savedResults')}
        </p>
      )}
      {fromSaved ? null : catalog.isPending ? (
        <Loading rows={4} />
      ) : catalog.error ? (
        <ErrorBox error={catalog.error} retry={() => void catalog.refetch()} />
      ) : null}
      {!fromSaved && (catalog.isPending || catalog.error) ? null : products.length === 0 ? (
        <Empty>{t('catalog.empty')}</Empty>
      ) : (
        <>
          <ul className="cards" aria-busy={(!fromSaved && catalog.isFetching) || undefined}>
            {products.map((p, i) => (
              <ProductCard
                key={p.internalCode}
                item={p}
                eager={i < EAGER_ROWS}
                promotions={promotions.data}
                inCart={cartPackages(items, p.internalCode)}
                onSet={onSet}
              />
            ))}
          </ul>
          {!fromSaved && catalog.hasNextPage && (
            <button type="button" className="wide" onClick={() => void catalog.fetchNextPage()} disabled={catalog.isFetchingNextPage}>
              {t('catalog.more')}
            </button>
          )}
        </>
      )}
    </section>
  );
}
