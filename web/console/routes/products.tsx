// The supplier's products by code, paged on the server (GET /product), with the search, the
// state filter and the page in the URL; each with its picture's state in words (the image
// worker's: none, waiting, ready with a thumbnail, failed with why) and its package sizes.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { client } from '../lib/api.ts';
import { catalogKeys } from '../lib/catalog.ts';
import { EnabledBadge, EnabledFilter, ImageState, SearchForm } from '../components/catalog.tsx';
import { Listed, Pager } from '../components/states.tsx';
import { useT } from '../i18n.ts';

const TAKE = 25;
type Search = { search?: string; enabled?: boolean; page?: number };

export default function Products() {
  const t = useT();
  const search = useSearch({ from: '/products' }) as Search;
  const navigate = useNavigate();
  const go = (next: Partial<Search>) => void navigate({ to: '/products', search: { ...search, ...next } });
  const page = search.page ?? 1;
  const query = { search: search.search, enabled: search.enabled, page, take: TAKE };
  const products = useQuery({
    queryKey: catalogKeys.products(query),
    queryFn: () => client.get('/product', { params: { query } }),
    placeholderData: keepPreviousData,
  });
  return (
    <section>
      <h1>{t('products.title')}</h1>
      <SearchForm key={search.search ?? ''} id="product-search" label={t('products.search')} value={search.search} apply={(s) => go({ search: s, page: undefined })}>
        <EnabledFilter id="product-enabled" value={search.enabled} change={(enabled) => go({ enabled, page: undefined })} />
      </SearchForm>
      <Listed query={products} empty={t('products.empty')}>
        {(found) => (
          <>
            <div className="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('catalog.code')}</th>
                    <th scope="col">{t('catalog.name')}</th>
                    <th scope="col">{t('products.brand')}</th>
                    <th scope="col">{t('products.category')}</th>
                    <th scope="col">{t('products.sizes')}</th>
                    <th scope="col">{t('products.image')}</th>
                    <th scope="col">{t('catalog.state')}</th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.map((p) => (
                    <tr key={p.internalCode} data-product={p.internalCode}>
                      <td>
                        <code>{p.internalCode}</code>
                      </td>
                      <td>
                        {p.name}
                        {p.ean && <span className="muted small"> · EAN {p.ean}</span>}
                      </td>
                      <td>
                        <code>{p.brandInternalCode}</code>
                      </td>
                      <td>
                        <code>{p.categoryInternalCode}</code>
                      </td>
                      <td>{p.displayProducts.length === 0 ? '—' : p.displayProducts.map((d) => `${d.name} (${d.units})`).join(', ')}</td>
                      <td data-testid="image-state">
                        <ImageState p={p} />
                        {p.imagesDetail.length > 0 && <span className="muted small"> · {t('products.moreImages', { count: p.imagesDetail.length })}</span>}
                      </td>
                      <td>
                        <EnabledBadge enabled={p.enabled} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={found.page} totalPages={found.totalPages} total={found.total} go={(p) => go({ page: p === 1 ? undefined : p })} />
          </>
        )}
      </Listed>
    </section>
  );
}
