// A store's account (GET /store/{code}/account, and its terms, GET /store/{code}/credit):
// limit, used, pending, available and overdue as the service counts them, the open
// invoices oldest due first with their days past due and PDFs, and the recent payments
// with what each was applied to. Nothing is computed here.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { client } from '../lib/api.ts';
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
            <div className="table-wrap" tabIndex={0} role="region" aria-label={t('account.invoices')}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('account.invoice')}</th>
                    <th scope="col">{t('account.issued')}</th>
                    <th scope="col">{t('account.due')}</th>
                    <th scope="col" className="num">
                      {t('account.daysOverdue')}
                    </th>
                    <th scope="col" className="num">
                      {t('account.amount')}
                    </th>
                    <th scope="col" className="num">
                      {t('account.paid')}
                    </th>
                    <th scope="col" className="num">
                      {t('account.balance')}
                    </th>
                    <th scope="col">{t('account.orders')}</th>
                    <th scope="col">{t('account.pdf')}</th>
                  </tr>
                </thead>
                <tbody>
                  {account.data.invoices.map((i) => (
                    <tr key={i.internalCode} data-invoice={i.internalCode}>
                      <th scope="row">
                        <code>{i.internalCode}</code>
                      </th>
                      <td>{f.dateTime(i.issuedAt)}</td>
                      <td>{f.date(i.dueDate)}</td>
                      <td className={i.daysOverdue > 0 ? 'num overdue' : 'num'}>{f.number(i.daysOverdue)}</td>
                      <td className="num">{f.money(i.amount)}</td>
                      <td className="num">{f.money(i.paid)}</td>
                      <td className="num">{f.money(i.balance)}</td>
                      <td>
                        {i.orderIds.length === 0
                          ? '—'
                          : i.orderIds.map((id, n) => (
                              <span key={id}>
                                {n > 0 ? ', ' : ''}
                                <Link to="/orders/$id" params={{ id: String(id) }}>
                                  {id}
                                </Link>
                              </span>
                            ))}
                      </td>
                      <td>
                        {i.pdfUrl ? (
                          <a href={i.pdfUrl} target="_blank" rel="noopener noreferrer" aria-label={t('account.pdfLabel', { code: i.internalCode })}>
                            {t('account.pdf')}
                          </a>
                        ) : (
                          '—'
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}

          <h2>{t('account.payments')}</h2>
          {account.data.payments.length === 0 ? (
            <Empty>{t('account.noPayments')}</Empty>
          ) : (
            <div className="table-wrap" tabIndex={0} role="region" aria-label={t('account.payments')}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('account.payment')}</th>
                    <th scope="col">{t('account.paidAt')}</th>
                    <th scope="col">{t('account.method')}</th>
                    <th scope="col">{t('account.collectedBy')}</th>
                    <th scope="col" className="num">
                      {t('account.amount')}
                    </th>
                    <th scope="col">{t('account.allocations')}</th>
                    <th scope="col" className="num">
                      {t('account.unallocated')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {account.data.payments.map((p) => (
                    <tr key={p.internalCode} data-payment={p.internalCode}>
                      <th scope="row">
                        <code>{p.internalCode}</code>
                      </th>
                      <td>{f.dateTime(p.paidAt)}</td>
                      <td>{p.method === 'CASH' || p.method === 'TRANSFER' || p.method === 'CARD' ? t(`paymentMethod.${p.method}`) : p.method}</td>
                      <td>{p.collectedBy ?? '—'}</td>
                      <td className="num">{f.money(p.amount)}</td>
                      <td>{p.allocations.length === 0 ? '—' : p.allocations.map((a) => `${a.invoiceInternalCode}: ${f.money(a.amount)}`).join(', ')}</td>
                      <td className="num">{f.money(p.unallocated)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
