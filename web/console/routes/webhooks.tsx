// The supplier's webhook: its settings (GET /webhook; an operator sets the URL), a test
// ping, and the delivery log with every attempt, paged on the server with its filters in
// the URL; a delivery can be sent again (a new delivery, the same webhook-id).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { client, keys, useCan, type Delivery } from '../lib/api.ts';
import { Empty, ErrorBox, Loading, Notice, Pager } from '../components/states.tsx';
import { useFormat, useT, type Translate } from '../i18n.ts';

const TAKE = 20;
type Search = { status?: Delivery['status']; failing?: boolean; page?: number };

function answerOf(t: Translate, a: { statusCode: number | null; error: string | null }) {
  return a.statusCode !== null ? `HTTP ${a.statusCode}` : t('webhooks.noAnswer', { error: a.error ?? '?' });
}

function Settings() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: keys.webhook, queryFn: () => client.get('/webhook') });
  const ping = useMutation({
    mutationFn: () => client.post('/webhook/test'),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['deliveries'] }),
  });
  return (
    <section className="panel" aria-labelledby="settings">
      <h2 id="settings">{t('webhooks.settings')}</h2>
      {settings.isPending ? (
        <Loading rows={1} />
      ) : settings.error ? (
        <ErrorBox error={settings.error} retry={() => void settings.refetch()} />
      ) : (
        <dl className="facts">
          <dt>{t('webhooks.url')}</dt>
          <dd>
            <code>{settings.data.baseUrl ?? t('webhooks.none')}</code>
          </dd>
          <dt>{t('webhooks.state')}</dt>
          <dd>{settings.data.enabled ? t('webhooks.on') : t('webhooks.off')}</dd>
          {settings.data.updatedAt && (
            <>
              <dt>{t('webhooks.updated')}</dt>
              <dd>{f.dateTime(settings.data.updatedAt)}</dd>
            </>
          )}
        </dl>
      )}
      {can('supplier/webhook.write') && (
        <button type="button" disabled={ping.isPending || !settings.data?.baseUrl} onClick={() => ping.mutate()}>
          {t('webhooks.test')}
        </button>
      )}
      {ping.data && <Notice>{t('webhooks.testResult', { result: ping.data.lastStatusCode !== null ? `HTTP ${ping.data.lastStatusCode}` : (ping.data.lastError ?? '?') })}</Notice>}
      {ping.error && <ErrorBox error={ping.error} />}
    </section>
  );
}

function DeliveryRow({ d }: { d: Delivery }) {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const queryClient = useQueryClient();
  const redeliver = useMutation({
    mutationFn: () => client.post('/webhook/deliveries/{id}/redeliver', { params: { path: { id: d.id } } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['deliveries'] }),
  });
  const last = d.attempts.at(-1);
  return (
    <tr data-delivery={d.id} data-status={d.status}>
      <td>
        #{d.id}
        {d.redeliveryOf !== null && <span className="muted small"> · {t('webhooks.redeliveryOf', { id: d.redeliveryOf })}</span>}
      </td>
      <td>
        <code>{d.eventType}</code>
      </td>
      <td>{f.dateTime(d.createdAt)}</td>
      <td>
        <span className={`status delivery-${d.status}`}>{t(`delivery.${d.status}`)}</span>
        {d.status === 'pending' && d.nextAttemptAt && <span className="muted small"> · {t('webhooks.next', { at: f.dateTime(d.nextAttemptAt) })}</span>}
      </td>
      <td>
        {last ? answerOf(t, last) : '—'}
        {d.attempts.length > 0 && (
          <details>
            <summary>{t('webhooks.attempts', { count: d.attempts.length })}</summary>
            <ol className="attempts">
              {d.attempts.map((a, i) => (
                <li key={i}>
                  {t('webhooks.attempt', { at: f.dateTime(a.at), result: answerOf(t, a), ms: a.latencyMs })}
                  {a.responseBody ? <pre>{a.responseBody}</pre> : null}
                </li>
              ))}
            </ol>
          </details>
        )}
      </td>
      <td>
        {can('supplier/webhook.write') && (
          <button type="button" disabled={redeliver.isPending} onClick={() => redeliver.mutate()} aria-label={`${t('webhooks.redeliver')} #${d.id}`}>
            {t('webhooks.redeliver')}
          </button>
        )}
        {redeliver.data && <Notice>{t('webhooks.redelivered', { id: redeliver.data.id })}</Notice>}
        {redeliver.error && <ErrorBox error={redeliver.error} />}
      </td>
    </tr>
  );
}

export default function Webhooks() {
  const t = useT();
  const search = useSearch({ from: '/webhooks' }) as Search;
  const navigate = useNavigate();
  const go = (next: Partial<Search>) => void navigate({ to: '/webhooks', search: { ...search, ...next } });
  const page = search.page ?? 1;
  const query = { status: search.status, failing: search.failing, page, take: TAKE };
  const deliveries = useQuery({
    queryKey: keys.deliveries(query),
    queryFn: () => client.get('/webhook/deliveries', { params: { query } }),
    placeholderData: keepPreviousData,
  });
  return (
    <section>
      <h1>{t('webhooks.title')}</h1>
      <Settings />
      <h2>{t('webhooks.deliveries')}</h2>
      <div className="filters">
        <div>
          <label htmlFor="delivery-status">{t('webhooks.status')}</label>
          <select id="delivery-status" value={search.status ?? ''} onChange={(e) => go({ status: (e.target.value || undefined) as Search['status'], page: undefined })}>
            <option value="">{t('webhooks.all')}</option>
            {(['pending', 'delivered', 'failed'] as const).map((s) => (
              <option key={s} value={s}>
                {t(`delivery.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <label className="check">
          <input type="checkbox" checked={search.failing === true} onChange={(e) => go({ failing: e.target.checked || undefined, page: undefined })} />
          {t('webhooks.failing')}
        </label>
      </div>
      {deliveries.isPending ? (
        <Loading />
      ) : deliveries.error ? (
        <ErrorBox error={deliveries.error} retry={() => void deliveries.refetch()} />
      ) : deliveries.data.data.length === 0 ? (
        <Empty>{t('webhooks.empty')}</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('webhooks.id')}</th>
                  <th scope="col">{t('webhooks.event')}</th>
                  <th scope="col">{t('webhooks.created')}</th>
                  <th scope="col">{t('webhooks.status')}</th>
                  <th scope="col">{t('webhooks.lastAnswer')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('members.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data.data.map((d) => (
                  <DeliveryRow key={d.id} d={d} />
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={deliveries.data.page} totalPages={deliveries.data.totalPages} total={deliveries.data.total} go={(p) => go({ page: p === 1 ? undefined : p })} />
        </>
      )}
    </section>
  );
}
