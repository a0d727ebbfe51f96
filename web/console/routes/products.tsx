// The supplier's products by code, paged on the server (GET /product), with the search, the
// state filter and the page in the URL; each with its picture's state in words (the image
// worker's: none, waiting, ready with a thumbnail, failed with why) and its package sizes.
import { client } from '../lib/api.ts';
import { catalogKeys } from '../lib/catalog.ts';
import { EnabledBadge, enabledFilter, ImageState, searchFilter } from '../components/catalog.tsx';
import { ListPage, useList } from '../components/list/ListPage.tsx';
import { useT } from '../i18n.ts';

type Search = { search?: string; enabled?: boolean; page?: number };

export default function Products() {
  const t = useT();
  const list = useList({
    query: (s: Search, page) => ({ search: s.search, enabled: s.enabled, page, take: 25 }),
    key: catalogKeys.products,
    fetch: (query) => client.get('/product', { params: { query } }),
  });
  return (
    <section>
      <h1>{t('products.title')}</h1>
      <ListPage
        list={list}
        filters={{ filters: [searchFilter('product-search', t('products.search')), enabledFilter(t, 'product-enabled')] }}
        empty={t('products.empty')}
        rowKey={(p) => p.internalCode}
        rowAttrs={(p) => ({ 'data-product': p.internalCode })}
        columns={[
          { header: t('catalog.code'), cell: (p) => <code>{p.internalCode}</code> },
          {
            header: t('catalog.name'),
            cell: (p) => (
              <>
                {p.name}
                {p.ean && <span className="muted small"> · EAN {p.ean}</span>}
              </>
            ),
          },
          { header: t('products.brand'), cell: (p) => <code>{p.brandInternalCode}</code> },
          { header: t('products.category'), cell: (p) => <code>{p.categoryInternalCode}</code> },
          { header: t('products.sizes'), cell: (p) => (p.displayProducts.length === 0 ? '—' : p.displayProducts.map((d) => `${d.name} (${d.units})`).join(', ')) },
          {
            header: t('products.image'),
            attrs: { 'data-testid': 'image-state' },
            cell: (p) => (
              <>
                <ImageState p={p} />
                {p.imagesDetail.length > 0 && <span className="muted small"> · {t('products.moreImages', { count: p.imagesDetail.length })}</span>}
              </>
            ),
          },
          { header: t('catalog.state'), cell: (p) => <EnabledBadge enabled={p.enabled} /> },
        ]}
      />
    </section>
  );
}
