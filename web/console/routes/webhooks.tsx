// The supplier's webhook: its settings (GET /webhook), which a writer changes here (the URL
// and its state, PUT /webhook) and whose signing secret a writer rotates (POST
// /webhook/rotate-secret: the new secret shown once, on this page, until it is left), a
// test ping, and the delivery log with every attempt, paged on the server with its filters
// in the URL; a delivery can be sent again (a new delivery, the same webhook-id; while one
// of its event is pending, that one is sent now instead, so the event never goes twice). A
// pending delivery says what it waits for, never a "next attempt" already past; the body
// its attempts sent can be read (issue #34).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { client, DELIVERY_STATUSES, keys, useCan, type Delivery, type WebhookSettings } from '../lib/api.ts';
import { choices, ListPage, useList } from '../components/list/ListPage.tsx';
import { ErrorBox, Loading, Notice } from '../components/states.tsx';
import { WebhookFacts } from '../components/WebhookFacts.tsx';
import { useFormat, useT, type Translate } from '../i18n.ts';

type Search = { status?: Delivery['status']; failing?: boolean; page?: number };

function answerOf(t: Translate, a: { statusCode: number | null; error: string | null }) {
  return a.statusCode !== null ? `HTTP ${a.statusCode}` : t('webhooks.noAnswer', { error: a.error ?? '?' });
}

/** A secret the service answered once: shown here, with how to keep it, until the page is left. */
function ShownOnce({ secret, intro }: { secret: string; intro: string }) {
  const t = useT();
  const [copied, setCopied] = useState<boolean | undefined>();
  return (
    <div className="panel secret" role="status" data-testid="webhook-secret-shown">
      <p>
        <strong>{intro}</strong>
      </p>
      <p>
        <code data-testid="webhook-secret">{secret}</code>
      </p>
      <p className="help small">{t('webhooks.secretHint')}</p>
      <button
        type="button"
        onClick={() =>
          void navigator.clipboard?.writeText(secret).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {t('webhooks.copy')}
      </button>
      {copied !== undefined && <span className="small"> {copied ? t('webhooks.copied') : t('webhooks.copyFailed')}</span>}
    </div>
  );
}

/** The URL and state, as a writer changes them; the secret is answered only when this save made it. */
function EditSettings({ current, onSecret }: { current: WebhookSettings; onSecret: (secret: string) => void }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [baseUrl, setBaseUrl] = useState(current.baseUrl ?? '');
  const [enabled, setEnabled] = useState(current.enabled);
  const save = useMutation({
    // The URL is shown with its password and query values masked: left as shown, it is not
    // sent, so the stored one stays whole (sending the masked one back is refused).
    mutationFn: () => client.put('/webhook', { body: baseUrl === (current.baseUrl ?? '') ? { enabled } : { baseUrl: baseUrl.trim() || null, enabled } }),
    onSuccess: (saved) => {
      // A webhook never set before got its first secret with this save: the one time to show it.
      if (current.updatedAt === null && saved.secret) onSecret(saved.secret);
      void queryClient.invalidateQueries({ queryKey: keys.webhook });
    },
  });
  return (
    <form
      className="filters"
      aria-labelledby="webhook-edit"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <h3 id="webhook-edit" className="full">
        {t('webhooks.edit')}
      </h3>
      <div className="grow">
        <label htmlFor="webhook-url">{t('webhooks.url')}</label>
        <input id="webhook-url" type="url" inputMode="url" placeholder="https://erp.example.com/surtido" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} aria-describedby="webhook-url-help" />
        <p id="webhook-url-help" className="help small">
          {t('webhooks.urlHelp')}
        </p>
      </div>
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        {t('webhooks.enabled')}
      </label>
      <button type="submit" className="primary" disabled={save.isPending}>
        {t('webhooks.save')}
      </button>
      <div className="full">
        {save.isSuccess && <Notice>{t('webhooks.saved')}</Notice>}
        {save.error && <ErrorBox error={save.error} />}
      </div>
    </form>
  );
}

function Settings() {
  const t = useT();
  const can = useCan();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: keys.webhook, queryFn: () => client.get('/webhook') });
  const [shown, setShown] = useState<{ secret: string; rotated: boolean }>();
  const [confirming, setConfirming] = useState(false);
  const ping = useMutation({
    mutationFn: () => client.post('/webhook/test'),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['deliveries'] }),
  });
  const rotate = useMutation({
    mutationFn: () => client.post('/webhook/rotate-secret'),
    onSuccess: (rotated) => {
      setConfirming(false);
      if (rotated.secret) setShown({ secret: rotated.secret, rotated: true });
      void queryClient.invalidateQueries({ queryKey: keys.webhook });
    },
  });
  const canWrite = can('supplier/webhook.write');
  return (
    <section className="panel" aria-labelledby="settings">
      <h2 id="settings">{t('webhooks.settings')}</h2>
      {settings.isPending ? (
        <Loading rows={1} />
      ) : settings.error ? (
        <ErrorBox error={settings.error} retry={() => void settings.refetch()} />
      ) : (
        <dl className="facts">
          <WebhookFacts settings={settings.data} />
        </dl>
      )}
      {shown && <ShownOnce secret={shown.secret} intro={shown.rotated ? t('webhooks.secretRotated') : t('webhooks.secretCreated')} />}
      {canWrite && (
        <div className="actions">
          <button type="button" disabled={ping.isPending || !settings.data?.baseUrl} onClick={() => ping.mutate()}>
            {t('webhooks.test')}
          </button>
          {settings.data?.updatedAt &&
            (confirming ? (
              <>
                <button type="button" className="danger" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
                  {t('webhooks.confirmRotate')}
                </button>
                <button type="button" className="link" onClick={() => setConfirming(false)}>
                  {t('webhooks.keep')}
                </button>
              </>
            ) : (
              <button type="button" onClick={() => setConfirming(true)}>
                {t('webhooks.rotate')}
              </button>
            ))}
        </div>
      )}
      {confirming && <p className="help small">{t('webhooks.rotateHelp')}</p>}
      {rotate.error && <ErrorBox error={rotate.error} />}
      {ping.data && <Notice>{t('webhooks.testResult', { result: ping.data.lastStatusCode !== null ? `HTTP ${ping.data.lastStatusCode}` : (ping.data.lastError ?? '?') })}</Notice>}
      {ping.error && <ErrorBox error={ping.error} />}
      {canWrite && settings.data && <EditSettings current={settings.data} onSecret={(secret) => setShown({ secret, rotated: false })} />}
    </section>
  );
}

export default function Webhooks() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const list = useList({
    query: (s: Search, page) => ({ status: s.status, failing: s.failing, page, take: 20 }),
    key: keys.deliveries,
    fetch: (query) => client.get('/webhook/deliveries', { params: { query } }),
  });
  // Its outcome is told above the list, not in the row: the row may leave a filtered list
  // (a failing delivery that a retry delivers) while the answer is still worth reading.
  const queryClient = useQueryClient();
  const redeliver = useMutation({
    mutationFn: (id: number) => client.post('/webhook/deliveries/{id}/redeliver', { params: { path: { id } } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['deliveries'] }),
  });
  return (
    <section>
      <h1>{t('webhooks.title')}</h1>
      <Settings />
      <h2>{t('webhooks.deliveries')}</h2>
      <ListPage
        list={list}
        filters={{
          filters: [
            { kind: 'select', key: 'status', id: 'delivery-status', label: t('webhooks.status'), all: t('webhooks.all'), options: choices(DELIVERY_STATUSES, (s) => t(`delivery.${s}`)) },
            { kind: 'check', key: 'failing', id: 'delivery-failing', label: t('webhooks.failing') },
          ],
        }}
        empty={t('webhooks.empty')}
        rowKey={(d) => d.id}
        rowAttrs={(d) => ({ 'data-delivery': d.id, 'data-status': d.status })}
        columns={[
          {
            header: t('webhooks.id'),
            cell: (d) => (
              <>
                #{d.id}
                {d.redeliveryOf !== null && <span className="muted small"> · {t('webhooks.redeliveryOf', { id: d.redeliveryOf })}</span>}
              </>
            ),
          },
          { header: t('webhooks.event'), cell: (d) => <code>{d.eventType}</code> },
          { header: t('webhooks.created'), cell: (d) => f.dateTime(d.createdAt) },
          {
            header: t('webhooks.status'),
            cell: (d) => (
              <>
                <span className={`status delivery-${d.status}`}>{t(`delivery.${d.status}`)}</span>
                <Waiting d={d} />
              </>
            ),
          },
          { header: t('webhooks.lastAnswer'), cell: (d) => <Attempts d={d} /> },
          {
            header: t('members.actions'),
            quietHeader: true,
            cell: (d) =>
              can('supplier/webhook.write') && (
                <button type="button" disabled={redeliver.isPending && redeliver.variables === d.id} onClick={() => redeliver.mutate(d.id)} aria-label={`${t('webhooks.redeliver')} #${d.id}`}>
                  {t('webhooks.redeliver')}
                </button>
              ),
          },
        ]}
      >
        {/* A delivery of the event still pending is sent now rather than a second one queued (the service joins it): the answer may name it, and what still holds it back. */}
        {redeliver.data && (
          <Notice>
            {t('webhooks.redelivered', { id: redeliver.data.id })}
            {redeliver.data.waitingFor && ` ${t(`webhooks.waiting.${redeliver.data.waitingFor}`)}.`}
          </Notice>
        )}
        {redeliver.error && <ErrorBox error={redeliver.error} />}
      </ListPage>
    </section>
  );
}

/** A delivery's last answer, and every attempt folded under it. */
function Attempts({ d }: { d: Delivery }) {
  const t = useT();
  const f = useFormat();
  const last = d.attempts.at(-1);
  return (
    <>
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
          <SentBody d={d} />
        </details>
      )}
    </>
  );
}

/**
 * Why a pending delivery is not sent yet, in words (the service's `waitingFor`), else when it
 * will be; a time already past is never shown as the next attempt: the delivery is due and
 * goes out with the dispatcher's next round.
 */
function Waiting({ d }: { d: Delivery }) {
  const t = useT();
  const f = useFormat();
  if (d.status !== 'pending') return null;
  const said = d.waitingFor
    ? t(`webhooks.waiting.${d.waitingFor}`)
    : d.nextAttemptAt && Date.parse(d.nextAttemptAt) > Date.now()
      ? t('webhooks.next', { at: f.dateTime(d.nextAttemptAt) })
      : t('webhooks.due');
  return (
    <span className="muted small" data-testid="delivery-waiting">
      {' '}
      · {said}
    </span>
  );
}

/**
 * The body every attempt of the delivery sent (GET /webhook/deliveries/{id}), read when it is
 * asked for: the list stays light, and the body is the event's, the same on every attempt.
 */
function SentBody({ d }: { d: Delivery }) {
  const t = useT();
  const f = useFormat();
  const [open, setOpen] = useState(false);
  const detail = useQuery({
    queryKey: ['delivery', d.id],
    queryFn: () => client.get('/webhook/deliveries/{id}', { params: { path: { id: d.id } } }),
    enabled: open,
    staleTime: Infinity,
  });
  const id = `sent-body-${d.id}`;
  // A button rather than a <summary>: a control a thumb can reach (44 px on a phone, as every button).
  return (
    <div className="sent-body">
      <button type="button" className="link" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {t('webhooks.showBody')}
      </button>
      <div id={id} hidden={!open}>
        {!open ? null : detail.isPending ? (
          <Loading rows={2} />
        ) : detail.error ? (
          <ErrorBox error={detail.error} retry={() => void detail.refetch()} />
        ) : (
          <>
            <p className="help small">{t('webhooks.bodyHelp', { webhookId: d.webhookId })}</p>
            {/* Exactly the bytes that were signed and sent, wrapped to the screen, not laid out again. */}
            <pre className="item-json" tabIndex={0} aria-label={t('webhooks.bodyOf', { id: d.id })} data-testid="sent-body">
              {detail.data.requestBody}
            </pre>
            {detail.data.requestBodyTruncated && <p className="help small">{t('webhooks.bodyTruncated', { bytes: f.number(detail.data.requestBodyBytes) })}</p>}
          </>
        )}
      </div>
    </div>
  );
}
