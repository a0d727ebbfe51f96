// "Mi cuenta" (GET /app/stores/{id}/account): the store's credit (limit, used, available,
// overdue, and what its orders not yet invoiced hold), its open invoices with their due
// dates and PDFs as the ERP sent them, and its recent payments. Every amount is the
// service's; nothing is added up here. Reached from the header, beside the store's name,
// so the tab bar gets no new tab.
import { useAccount } from '../components/CreditChoice.tsx';
import { useSession } from '../../lib/session.ts';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.tsx';

export default function AccountPage() {
  const t = useT();
  const f = useFormat();
  const { storeId } = useSession();
  const account = useAccount(storeId!);

  if (account.isPending) {
    return (
      <section>
        <h1>{t('account.title')}</h1>
        <Loading rows={4} />
      </section>
    );
  }
  if (account.error && !account.data) {
    return (
      <section>
        <h1>{t('account.title')}</h1>
        <ErrorBox error={account.error} retry={() => void account.refetch()} />
      </section>
    );
  }
  const a = account.data!;
  const credit = a.paymentMethods.includes('CREDIT') || a.limit > 0;
  return (
    <section className="account">
      <h1>{t('account.title')}</h1>
      {credit ? (
        <>
          <dl className="totals account-figures" data-testid="account-figures">
            <dt>{t('account.limit')}</dt>
            <dd data-figure="limit">{f.money(a.limit)}</dd>
            <dt>{t('account.used')}</dt>
            <dd data-figure="used">{f.money(a.used)}</dd>
            {a.pending > 0 && (
              <>
                <dt>{t('account.pending')}</dt>
                <dd data-figure="pending">{f.money(a.pending)}</dd>
              </>
            )}
            <dt>{t('account.available')}</dt>
            <dd data-figure="available">
              <strong>{f.money(a.available)}</strong>
            </dd>
            <dt>{t('account.overdue')}</dt>
            <dd data-figure="overdue" className={a.overdue > 0 ? 'overdue' : undefined}>
              {f.money(a.overdue)}
            </dd>
          </dl>
          {a.termDays !== null && <p className="muted small">{t('account.terms', { count: a.termDays })}</p>}
        </>
      ) : (
        <p className="hint">{t('account.noCredit')}</p>
      )}

      <h2>{t('account.invoices')}</h2>
      {a.invoices.length === 0 ? (
        <Empty>{t('account.noInvoices')}</Empty>
      ) : (
        <>
          <p className="muted small">{t('account.invoicesCount', { count: a.invoices.length })}</p>
          <ul className="cards invoices">
            {a.invoices.map((i) => (
              <li key={i.internalCode} className="card invoice" data-invoice={i.internalCode}>
                <div className="grow">
                  <strong>{t('account.invoice', { code: i.internalCode })}</strong>
                  <p className="small">{t('account.balance', { balance: f.money(i.balance), amount: f.money(i.amount) })}</p>
                  <p className={i.daysOverdue > 0 ? 'small overdue' : 'small'}>
                    {i.daysOverdue > 0 ? t('account.overdueDays', { count: i.daysOverdue }) : t('account.due', { date: f.date(i.dueDate) })}
                  </p>
                  {i.orderIds.length > 0 && <p className="muted small">{t('account.forOrders', { ids: f.list(i.orderIds.map((id) => `#${id}`)) })}</p>}
                </div>
                {i.pdfUrl && (
                  <a className="button" href={i.pdfUrl} target="_blank" rel="noopener noreferrer" aria-label={t('account.pdfLabel', { code: i.internalCode })}>
                    {t('account.pdf')}
                  </a>
                )}
              </li>
            ))}
          </ul>
        </>
      )}

      <h2>{t('account.payments')}</h2>
      {a.payments.length === 0 ? (
        <Empty>{t('account.noPayments')}</Empty>
      ) : (
        <ul className="cards payments">
          {a.payments.map((p) => (
            <li key={p.internalCode} className="card" data-payment={p.internalCode}>
              <div className="grow">
                <strong>{f.money(p.amount)}</strong>
                <span className="small">
                  {' '}
                  · {(['CASH', 'TRANSFER', 'CARD'] as const).includes(p.method as 'CASH') ? t(`account.paymentMethod.${p.method as 'CASH'}`) : p.method}
                </span>
                <p className="muted small">
                  {f.dateTime(p.paidAt)}
                  {p.collectedBy ? ` · ${t('account.collectedBy', { name: p.collectedBy })}` : ''}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
