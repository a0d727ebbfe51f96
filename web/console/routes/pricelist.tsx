// One price list: its summary (found through GET /pricelist's search: GET /pricelist/{code}
// would carry every price), the switch for writers, and its prices paged on the server
// (GET /pricelist/{code}/entries), the search and the page in the URL. Moving forward keeps
// the service's cursor (`after`) in the URL too, so any page of a 50,000-entry list costs
// the same and a shared link shows the same rows. A role with bulk price writes changes one
// price in place: a batch of one (the API's only price write), followed until it ends.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { client, useCan } from '../lib/api.ts';
import { catalogKeys, changePrice, findPriceList, type PriceEntry } from '../lib/catalog.ts';
import { EnabledBadge, EnabledSwitch, SearchForm } from '../components/catalog.tsx';
import { ErrorBox, Listed, Loading, Notice, Pager } from '../components/states.tsx';
import { problemMessage, useFormat, useT } from '../i18n.ts';

const TAKE = 25;
type Search = { search?: string; page?: number; after?: string };

function EntryRow({ list, entry, canWrite }: { list: string; entry: PriceEntry; canWrite: boolean }) {
  const t = useT();
  const f = useFormat();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [price, setPrice] = useState(String(entry.price));
  const change = useMutation({
    mutationFn: (value: number) => changePrice({ priceListInternalCode: list, productInternalCode: entry.productInternalCode, units: entry.units, price: value }),
    onSuccess: async (result) => {
      if (result.outcome === 'completed') {
        setEditing(false);
        await queryClient.invalidateQueries({ queryKey: ['pricelist-entries', list] });
      }
    },
  });
  const label = `${entry.productName} (${t('pricelist.units', { units: entry.units })})`;
  const result = change.data;
  const inputId = `price-${entry.productInternalCode}-${entry.units}`;
  return (
    <tr data-entry={`${entry.productInternalCode}/${entry.units}`}>
      <td>
        <code>{entry.productInternalCode}</code>
      </td>
      <td>{entry.productName}</td>
      <td className="num">{f.number(entry.units)}</td>
      <td className="num">
        {editing ? (
          <form
            id={`${inputId}-form`}
            onSubmit={(e) => {
              e.preventDefault();
              change.mutate(Number(price));
            }}
          >
            <label htmlFor={inputId} className="visually-hidden">
              {t('pricelist.newPrice', { product: label })}
            </label>
            <input id={inputId} className="price-input" type="number" inputMode="decimal" step="any" min={0} required value={price} onChange={(e) => setPrice(e.target.value)} />
          </form>
        ) : (
          <span data-testid="price">{f.money(entry.price)}</span>
        )}
      </td>
      <td>{f.dateTime(entry.updatedAt)}</td>
      {canWrite && (
        <td>
          {editing ? (
            <div className="actions">
              <button type="submit" form={`${inputId}-form`} className="primary" disabled={change.isPending}>
                {t('pricelist.save')}
              </button>
              <button type="button" disabled={change.isPending} onClick={() => setEditing(false)}>
                {t('catalog.cancel')}
              </button>
            </div>
          ) : (
            <button
              type="button"
              aria-label={t('pricelist.changeNamed', { product: label })}
              onClick={() => {
                setPrice(String(entry.price));
                change.reset();
                setEditing(true);
              }}
            >
              {t('pricelist.change')}
            </button>
          )}
          {change.isPending && (
            <p role="status" className="small muted">
              {t('pricelist.applying')}
            </p>
          )}
          {result?.outcome === 'completed' && <Notice>{t('pricelist.applied', { product: label })}</Notice>}
          {result?.outcome === 'running' && <Notice>{t('pricelist.running')}</Notice>}
          {result?.outcome === 'failed' && (
            <div role="alert" className="error">
              <p>{problemMessage(t, result.code ?? undefined) ?? result.message ?? t('state.error')}</p>
            </div>
          )}
          {change.error && <ErrorBox error={change.error} />}
        </td>
      )}
    </tr>
  );
}

function Summary({ code }: { code: string }) {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const summary = useQuery({ queryKey: catalogKeys.priceList(code), queryFn: () => findPriceList(code) });
  if (summary.isPending) return <Loading rows={1} />;
  if (summary.error) return <ErrorBox error={summary.error} retry={() => void summary.refetch()} />;
  if (!summary.data) return null;
  const l = summary.data;
  return (
    <div className="panel" data-testid="pricelist-summary">
      <dl className="facts">
        <dt>{t('catalog.name')}</dt>
        <dd>{l.name ?? '—'}</dd>
        <dt>{t('catalog.state')}</dt>
        <dd>
          <EnabledBadge enabled={l.enabled} />
        </dd>
        <dt>{t('pricelists.stores')}</dt>
        <dd>{f.number(l.storeCount)}</dd>
        <dt>{t('catalog.updated')}</dt>
        <dd>{f.dateTime(l.updatedAt)}</dd>
      </dl>
      {can('supplier/pricelist.write') && <EnabledSwitch kind="pricelist" code={l.internalCode} name={l.name ?? l.internalCode} enabled={l.enabled} invalidate={['pricelists', 'pricelist']} />}
    </div>
  );
}

export default function PriceListPage() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const code = useParams({ from: '/pricelists/$code' }).code;
  const search = useSearch({ from: '/pricelists/$code' }) as Search;
  const navigate = useNavigate();
  const go = (next: Partial<Search>) => void navigate({ to: '/pricelists/$code', params: { code }, search: { ...search, ...next } });
  const page = search.page ?? 1;
  const query = { search: search.search, page, after: search.after, take: TAKE };
  const entries = useQuery({
    queryKey: catalogKeys.entries(code, query),
    queryFn: () => client.get('/pricelist/{code}/entries', { params: { path: { code }, query } }),
    placeholderData: keepPreviousData,
  });
  // One price is written through a batch, followed by its status.
  const canWrite = can('supplier/pricelist.bulkwrite') && can('supplier/batch.read');
  return (
    <section>
      <p>
        <Link to="/pricelists" search={{}}>
          {t('pricelist.back')}
        </Link>
      </p>
      <h1>{t('pricelist.title', { code })}</h1>
      <Summary code={code} />
      <h2>{t('pricelist.prices')}</h2>
      <SearchForm key={search.search ?? ''} id="entry-search" label={t('pricelist.search')} value={search.search} apply={(s) => go({ search: s, page: undefined, after: undefined })} />
      <Listed query={entries} empty={search.search ? t('pricelist.emptySearch') : t('pricelist.empty')}>
        {(found) => (
          <>
            <div className="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('catalog.code')}</th>
                    <th scope="col">{t('pricelist.product')}</th>
                    <th scope="col" className="num">
                      {t('pricelist.size')}
                    </th>
                    <th scope="col" className="num">
                      {t('pricelist.price')}
                    </th>
                    <th scope="col">{t('catalog.updated')}</th>
                    {canWrite && (
                      <th scope="col">
                        <span className="visually-hidden">{t('catalog.actions')}</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {found.data.map((e) => (
                    <EntryRow key={`${e.productInternalCode}/${e.units}`} list={code} entry={e} canWrite={canWrite} />
                  ))}
                </tbody>
              </table>
            </div>
            <Pager
              page={found.page}
              totalPages={found.totalPages}
              total={found.total}
              // Forward by the cursor (the same cost at any depth); back by the page number.
              go={(p) => go(p === page + 1 && found.next ? { page: p, after: found.next } : { page: p === 1 ? undefined : p, after: undefined })}
            />
          </>
        )}
      </Listed>
    </section>
  );
}
