// How the store pays an order, where its supplier set payment methods (GET
// /app/stores/{id}/account; none: the cart asks nothing, as before). On credit, an order
// over the available credit is said before placing and after a CREDIT_LIMIT_EXCEEDED
// refusal, with the ways out: pay cash on delivery, reduce the cart, or, where the
// supplier allows it, send it for approval. The service checks the credit anyway, under a
// lock, when the order is placed: what this shows is advice from the last account read.
import { useQuery } from '@tanstack/react-query';
import { SurtidoApiError } from 'surtido/client';
import { accountQuery } from '../../lib/api.ts';
import { useFormat, useT } from '../i18n.tsx';

export type PaymentMethod = 'CASH_ON_DELIVERY' | 'TRANSFER' | 'CREDIT';
export function useAccount(storeId: number) {
  return useQuery(accountQuery(storeId));
}

export const isCreditRefusal = (error: unknown) => error instanceof SurtidoApiError && (error.code === 'CREDIT_LIMIT_EXCEEDED' || error.code === 'OVERDUE_INVOICES');

export function CreditChoice({
  storeId,
  total,
  method,
  onMethod,
  placeError,
  busy,
  onApproval,
}: {
  storeId: number;
  /** what the order comes to (the cart's total, a minimum's fee included) */
  total: number | undefined;
  method: PaymentMethod | undefined;
  onMethod: (method: PaymentMethod) => void;
  placeError: unknown;
  busy: boolean;
  onApproval: () => void;
}) {
  const t = useT();
  const f = useFormat();
  const account = useAccount(storeId);
  // An account that cannot be read leaves the choice to the service (the store's first method).
  if (!account.data || account.data.paymentMethods.length === 0) return null;
  const a = account.data;
  const current = method ?? a.paymentMethods[0]!;
  const shortfall = total === undefined ? 0 : total - a.available;
  const refused = isCreditRefusal(placeError);
  const over = current === 'CREDIT' && (refused || shortfall > 0);
  return (
    <fieldset className="payment" data-testid="payment">
      <legend>{t('payment.title')}</legend>
      {a.paymentMethods.map((m) => (
        <label key={m} className="choice">
          <input type="radio" name="payment" value={m} checked={current === m} onChange={() => onMethod(m)} />
          <span>
            {t(`payment.${m}`)}
            {m === 'CREDIT' && <span className="muted small"> · {t('payment.available', { amount: f.money(a.available) })}</span>}
          </span>
        </label>
      ))}
      {over && (
        <div role="alert" className="credit-over" data-testid="credit-over">
          <p>
            {refused && placeError instanceof SurtidoApiError && placeError.code === 'OVERDUE_INVOICES'
              ? t('payment.overdue')
              : shortfall > 0
                ? t('payment.over', { available: f.money(a.available), shortfall: f.money(shortfall) })
                : t('payment.overUnknown')}
          </p>
          <div className="actions">
            {a.paymentMethods.includes('CASH_ON_DELIVERY') && (
              <button type="button" onClick={() => onMethod('CASH_ON_DELIVERY')}>
                {t('payment.payCash')}
              </button>
            )}
            <a href="#cart-lines" className="button">
              {t('payment.reduce')}
            </a>
            {a.allowOverLimitWithApproval && (
              <button type="button" disabled={busy} onClick={onApproval}>
                {t('payment.approval')}
              </button>
            )}
          </div>
        </div>
      )}
    </fieldset>
  );
}
