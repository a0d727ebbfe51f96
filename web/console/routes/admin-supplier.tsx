// Operators: one supplier as the platform sees it: enabling or disabling it (disabled, its
// credentials and console sessions are refused at once and its stores show as closed), its
// members and adding one (its first owner, usually: they get an email inviting them to the
// console), its API credentials (paged on the server, the page in the URL; never a secret)
// and its webhook's health (the settings, how many deliveries are failing, the last one).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { client, keys, type Supplier } from '../lib/api.ts';
import { credentialColumns } from '../components/credentials.tsx';
import { ListAll, ListPage, useList } from '../components/list/ListPage.tsx';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
import { MemberForm } from '../components/MemberForm.tsx';
import { WebhookFacts } from '../components/WebhookFacts.tsx';
import { useFormat, useT } from '../i18n.ts';


function State({ supplier }: { supplier: Supplier }) {
  const t = useT();
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: () => client.put('/admin/suppliers/{supplierId}/status', { params: { path: { supplierId: supplier.id } }, body: { enabled: !supplier.enabled } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.suppliers }),
  });
  return (
    <section className="panel" aria-labelledby="supplier-state">
      <h2 id="supplier-state">{t('admin.state')}</h2>
      <p>
        <span className={supplier.enabled ? 'status status-delivered' : 'status status-cancelled'} data-testid="supplier-state">
          {supplier.enabled ? t('admin.enabled') : t('admin.disabled')}
        </span>{' '}
        <span className="help small">{supplier.enabled ? t('adminSupplier.enabledHelp') : t('adminSupplier.disabledHelp')}</span>
      </p>
      <button type="button" className={supplier.enabled ? 'danger' : undefined} disabled={toggle.isPending} onClick={() => toggle.mutate()}>
        {supplier.enabled ? t('admin.disable', { name: supplier.name }) : t('admin.enable', { name: supplier.name })}
      </button>
      {toggle.error && <ErrorBox error={toggle.error} />}
    </section>
  );
}

function Members({ supplierId }: { supplierId: number }) {
  const t = useT();
  const f = useFormat();
  const queryClient = useQueryClient();
  const members = useQuery({
    queryKey: keys.supplierMembers(supplierId),
    queryFn: () => client.get('/admin/suppliers/{supplierId}/members', { params: { path: { supplierId } } }),
  });
  return (
    <section aria-labelledby="supplier-members">
      <h2 id="supplier-members">{t('adminSupplier.members')}</h2>
      <MemberForm
        id="add-member"
        heading="h3"
        title={t('admin.addMember')}
        emailLabel={t('admin.email')}
        submit={t('admin.addMember')}
        done={(email) => t('admin.added', { email })}
        firstRole="owner"
        send={(body) => client.post('/admin/suppliers/{supplierId}/members', { params: { path: { supplierId } }, body })}
        added={() => void queryClient.invalidateQueries({ queryKey: keys.supplierMembers(supplierId) })}
      />
      <ListAll
        query={members}
        empty={t('admin.noMembers')}
        rowKey={(m) => m.id}
        rowAttrs={(m) => ({ 'data-member': m.email })}
        columns={[
          { header: t('admin.email'), cell: (m) => m.email },
          { header: t('role.label'), cell: (m) => t(`role.${m.role}`) },
          { header: t('members.since'), cell: (m) => f.dateTime(m.createdAt) },
        ]}
      />
    </section>
  );
}

function Credentials({ supplierId }: { supplierId: number }) {
  const t = useT();
  const f = useFormat();
  const credentials = useList({
    query: (_s: { page?: number }, page) => ({ page, take: 10 }),
    key: (query) => keys.supplierCredentials(supplierId, query),
    fetch: (query) => client.get('/admin/suppliers/{supplierId}/credentials', { params: { path: { supplierId }, query } }),
  });
  return (
    <section aria-labelledby="supplier-credentials">
      <h2 id="supplier-credentials">{t('adminSupplier.credentials')}</h2>
      <ListPage
        list={credentials}
        empty={t('adminSupplier.noCredentials')}
        rowKey={(c) => c.clientId}
        rowAttrs={(c) => ({ 'data-credential': c.clientId })}
        columns={credentialColumns(t, f, (count) => t('adminSupplier.scopeCount', { count }))}
      />
    </section>
  );
}

function WebhookHealth({ supplierId }: { supplierId: number }) {
  const t = useT();
  const f = useFormat();
  const settings = useQuery({
    queryKey: keys.supplierWebhook(supplierId),
    queryFn: () => client.get('/admin/suppliers/{supplierId}/webhook', { params: { path: { supplierId } } }),
  });
  // Counts are the `total` of one-row pages of the delivery log: failing ones, and the latest of all.
  const failingQuery = { failing: true, page: 1, take: 1 };
  const failing = useQuery({
    queryKey: keys.supplierDeliveries(supplierId, failingQuery),
    queryFn: () => client.get('/admin/suppliers/{supplierId}/webhook/deliveries', { params: { path: { supplierId }, query: failingQuery } }),
  });
  const latestQuery = { page: 1, take: 1 };
  const latest = useQuery({
    queryKey: keys.supplierDeliveries(supplierId, latestQuery),
    queryFn: () => client.get('/admin/suppliers/{supplierId}/webhook/deliveries', { params: { path: { supplierId }, query: latestQuery } }),
  });
  const all = [settings, failing, latest];
  const failed = all.find((q) => q.error);
  const last = latest.data?.data[0];
  const lastAnswer = last ? (last.lastStatusCode !== null ? `HTTP ${last.lastStatusCode}` : (last.lastError ?? '—')) : undefined;
  return (
    <section className="panel" aria-labelledby="supplier-webhook">
      <h2 id="supplier-webhook">{t('adminSupplier.webhook')}</h2>
      {failed ? (
        <ErrorBox error={failed.error} retry={() => all.forEach((q) => void q.refetch())} />
      ) : !settings.data || !failing.data || !latest.data ? (
        <Loading rows={2} />
      ) : (
        <dl className="facts" data-testid="webhook-health">
          <WebhookFacts settings={settings.data} />
          <dt>{t('adminSupplier.failing')}</dt>
          <dd>
            <span className={failing.data.total > 0 ? 'status delivery-failed' : 'status delivery-delivered'} data-testid="failing-deliveries">
              {f.number(failing.data.total)}
            </span>
          </dd>
          <dt>{t('adminSupplier.lastDelivery')}</dt>
          <dd data-testid="last-delivery">
            {last ? (
              <>
                <span className={`status delivery-${last.status}`}>{t(`delivery.${last.status}`)}</span> <code>{last.eventType}</code> · {f.dateTime(last.createdAt)} · {lastAnswer}
              </>
            ) : (
              t('adminSupplier.noDeliveries')
            )}
          </dd>
        </dl>
      )}
    </section>
  );
}

export default function AdminSupplier() {
  const t = useT();
  const supplierId = Number(useParams({ from: '/admin/suppliers/$id' }).id);
  const suppliers = useQuery({ queryKey: keys.suppliers, queryFn: () => client.get('/admin/suppliers') });
  const supplier = suppliers.data?.find((s) => s.id === supplierId);
  return (
    <section>
      <p>
        <Link to="/admin/suppliers">{t('admin.back')}</Link>
      </p>
      <h1>{supplier ? `${supplier.name} (${supplier.code})` : t('adminSupplier.title', { id: supplierId })}</h1>
      {suppliers.isPending ? (
        <Loading rows={1} />
      ) : suppliers.error ? (
        <ErrorBox error={suppliers.error} retry={() => void suppliers.refetch()} />
      ) : !supplier ? (
        <Empty>{t('adminSupplier.notFound')}</Empty>
      ) : (
        <>
          <State supplier={supplier} />
          <Members supplierId={supplierId} />
          <Credentials supplierId={supplierId} />
          <WebhookHealth supplierId={supplierId} />
        </>
      )}
    </section>
  );
}
