// A store's account (GET /store/{code}/account, and its terms, GET /store/{code}/credit):
// limit, used, pending, available and overdue as the service counts them, the open
// invoices oldest due first with their days past due and PDFs, and the recent payments
// with what each was applied to. Nothing is computed here.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { client } from '../lib/api.ts';
import { ListTable } from '../components/list/ListPage.tsx';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

export default function StoreAccount() {
  const t = useT();
  const f = useFormat();
  const { code } = useParams({ from: '/accounts/$code' });
  const store = useQuery({ queryKey: ['store', code], queryFn: () => client.get('/store/{code}', { params: { path: { code } } }) });
  const account = useQuery({ queryKey: ['store-account', code], queryFn: () => client.get('/store/{code}/account', { params: { path: { code } } }) });
  const credit = useQuery({ queryKey: ['store-credit', code], queryFn: () => client.get('/store/{code}/credit', { params: { path: { code } } }) });
  const name = store.data?.name ?? code;
  return (
    <section>
      <p>
        <Link to="/accounts" search={{}}>
          {t('account.back')}
        </Link>
      </p>
      <h1>{t('account.title', { name })}</h1>
      {account.isPending ? (
        <Loading />
      ) : account.error ? (
        <ErrorBox error={account.error} retry={() => void account.refetch()} />
      ) : (
        <>
          <ul className="figures" data-testid="account-figures">
            {(['limit', 'used', 'pending', 'available', 'overdue'] as const).map((k) => (
              <li key={k} className="figure-box" data-figure={k}>
                <span className="figure">{f.money(account.data[k])}</span> {t(`account.${k}`)}
              </li>
            ))}
          </ul>
          <h2>{t('account.terms')}</h2>
          {credit.isPending ? (
            <Loading rows={1} />
          ) : credit.error ? (
            <ErrorBox error={credit.error} retry={() => void credit.refetch()} />
          ) : credit.data.updatedAt === null ? (
            <Empty>{t('account.noTerms')}</Empty>
          ) : (
            <dl className="facts">
              <dt>{t('account.methods')}</dt>
              <dd>{credit.data.paymentMethods.map((m) => t(`method.${m}`)).join(', ')}</dd>
              <dt>{t('account.termDays')}</dt>
              <dd>{credit.data.termDays === null ? '—' : t('account.days', { days: credit.data.termDays })}</dd>
              <dt>{t('account.holdWhenOverdue')}</dt>
              <dd>{credit.data.holdWhenOverdueDays === null ? '—' : t('account.days', { days: credit.data.holdWhenOverdueDays })}</dd>
              <dt>{t('account.overLimit')}</dt>
              <dd>{credit.data.allowOverLimitWithApproval ? t('account.overLimitApproval') : t('account.overLimitRefused')}</dd>
            </dl>
          )}

          <h2>{t('account.invoices')}</h2>
          {account.data.invoices.length === 0 ? (
            <Empty>{t('account.noInvoices')}</Empty>
          ) : (
            <ListTable
              label={t('account.invoices')}
              rows={account.data.invoices}
              rowKey={(i) => i.internalCode}
              rowAttrs={(i) => ({ 'data-invoice': i.internalCode })}
              columns={[
                { header: t('account.invoice'), rowHeader: true, cell: (i) => <code>{i.internalCode}</code> },
                { header: t('account.issued'), cell: (i) => f.dateTime(i.issuedAt) },
                { header: t('account.due'), cell: (i) => f.date(i.dueDate) },
                { header: t('account.daysOverdue'), align: 'num', className: (i) => (i.daysOverdue > 0 ? 'overdue' : undefined), cell: (i) => f.number(i.daysOverdue) },
                { header: t('account.amount'), align: 'num', cell: (i) => f.money(i.amount) },
                { header: t('account.paid'), align: 'num', cell: (i) => f.money(i.paid) },
                { header: t('account.balance'), align: 'num', cell: (i) => f.money(i.balance) },
                {
                  header: t('account.orders'),
                  cell: (i) =>
                    i.orderIds.length === 0
                      ? '—'
                      : i.orderIds.map((id, n) => (
                          <span key={id}>
                            {n > 0 ? ', ' : ''}
                            <Link to="/orders/$id" params={{ id: String(id) }}>
                              {id}
                            </Link>
                          </span>
                        )),
                },
                {
                  header: t('account.pdf'),
                  cell: (i) =>
                    i.pdfUrl ? (
                      <a href={i.pdfUrl} target="_blank" rel="noopener noreferrer" aria-label={t('account.pdfLabel', { code: i.internalCode })}>
                        {t('account.pdf')}
                      </a>
                    ) : (
                      '—'
                    ),
                },
              ]}
            />
          )}

          <h2>{t('account.payments')}</h2>
          {account.data.payments.length === 0 ? (
            <Empty>{t('account.noPayments')}</Empty>
          ) : (
            <ListTable
              label={t('account.payments')}
              rows={account.data.payments}
              rowKey={(p) => p.internalCode}
              rowAttrs={(p) => ({ 'data-payment': p.internalCode })}
              columns={[
                { header: t('account.payment'), rowHeader: true, cell: (p) => <code>{p.internalCode}</code> },
                { header: t('account.paidAt'), cell: (p) => f.dateTime(p.paidAt) },
                { header: t('account.method'), cell: (p) => (p.method === 'CASH' || p.method === 'TRANSFER' || p.method === 'CARD' ? t(`paymentMethod.${p.method}`) : p.method) },
                { header: t('account.collectedBy'), cell: (p) => p.collectedBy ?? '—' },
                { header: t('account.amount'), align: 'num', cell: (p) => f.money(p.amount) },
                { header: t('account.allocations'), cell: (p) => (p.allocations.length === 0 ? '—' : p.allocations.map((a) => `${a.invoiceInternalCode}: ${f.money(a.amount)}`).join(', ')) },
                { header: t('account.unallocated'), align: 'num', cell: (p) => f.money(p.unallocated) },
              ]}
            />
          )}
        </>
      )}
    </section>
  );
}
