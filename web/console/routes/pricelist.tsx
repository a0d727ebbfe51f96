// One price list: its summary (found through GET /pricelist's search: GET /pricelist/{code}
// would carry every price), the switch for writers, and its prices paged on the server
// (GET /pricelist/{code}/entries), the search and the page in the URL. Moving forward keeps
// the service's cursor (`after`) in the URL too, so any page of a 50,000-entry list costs
// the same and a shared link shows the same rows. A role with bulk price writes changes one
// price in place: a batch of one (the API's only price write), followed until it ends.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { client, useCan } from '../lib/api.ts';
import { catalogKeys, changePrice, findPriceList, type PriceEntry } from '../lib/catalog.ts';
import { EnabledBadge, EnabledSwitch, searchFilter } from '../components/catalog.tsx';
import { ListPage, useList } from '../components/list/ListPage.tsx';
import { ErrorBox, Loading, Notice } from '../components/states.tsx';
import { problemMessage, useFormat, useT } from '../i18n.ts';

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
  const can = useCan();
  const code = useParams({ from: '/pricelists/$code' }).code;
  const list = useList({
    query: (s: Search, page) => ({ search: s.search, page, after: s.after, take: 25 }),
    key: (query) => catalogKeys.entries(code, query),
    fetch: (query) => client.get('/pricelist/{code}/entries', { params: { path: { code }, query } }),
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
      <ListPage
        list={list}
        // A new search starts from the first page, without the cursor.
        filters={{ filters: [searchFilter('entry-search', t('pricelist.search'))], resets: ['after'] }}
        empty={list.search.search ? t('pricelist.emptySearch') : t('pricelist.empty')}
        rowKey={(e) => `${e.productInternalCode}/${e.units}`}
        row={(e) => <EntryRow list={code} entry={e} canWrite={canWrite} />}
        columns={[
          { header: t('catalog.code') },
          { header: t('pricelist.product') },
          { header: t('pricelist.size'), align: 'num' },
          { header: t('pricelist.price'), align: 'num' },
          { header: t('catalog.updated') },
          { header: t('catalog.actions'), quietHeader: true, when: canWrite },
        ]}
        // Forward by the cursor (the same cost at any depth); back by the page number.
        pageTo={(p, found) => (p === list.page + 1 && found.next ? { page: p, after: found.next } : { page: p === 1 ? undefined : p, after: undefined })}
      />
    </section>
  );
}
