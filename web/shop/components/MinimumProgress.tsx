// The minimum order as the cart answers it (`minimumOrder`, null once it is met): "Faltan
// $12.500 para el pedido mínimo" over a progress bar. Its mode says what a shortfall means:
// hard (the default, and every minimum before delivery zones) holds the order back; soft
// only warns; fee shows the delivery fee an order placed now is charged.
import type { PricedCart } from '../../lib/api.ts';
import { useFormat, useT } from '../i18n.tsx';

type Minimum = NonNullable<PricedCart['minimumOrder']>;

/** Whether the minimum keeps the order from being placed (only a hard one). */
export const minimumBlocks = (minimum: PricedCart['minimumOrder'] | undefined) => Boolean(minimum) && (minimum!.mode ?? 'hard') === 'hard';

export function MinimumProgress({ minimum }: { minimum: Minimum | null | undefined }) {
  const t = useT();
  const f = useFormat();
  if (!minimum) return null;
  const mode = minimum.mode ?? 'hard';
  const reached = minimum.amount - minimum.missing;
  return (
    <div className={`minimum minimum-${mode}`} data-testid="minimum" data-mode={mode}>
      <label htmlFor="minimum-progress">{t('minimum.missing', { missing: f.money(minimum.missing) })}</label>
      <progress id="minimum-progress" max={minimum.amount} value={Math.max(reached, 0)} aria-valuetext={t('minimum.progress', { reached: f.money(Math.max(reached, 0)), amount: f.money(minimum.amount) })} />
      <p className="small muted">
        {t('minimum.of', { amount: f.money(minimum.amount) })}
        {minimum.alreadyOrdered ? ` · ${t('minimum.alreadyOrdered', { amount: f.money(minimum.alreadyOrdered) })}` : ''}
      </p>
      {mode === 'soft' && <p className="warn">{t('minimum.soft')}</p>}
      {mode === 'fee' && minimum.fee !== undefined && (
        <dl className="totals fee" data-testid="delivery-fee">
          <dt>{t('minimum.feeLine')}</dt>
          <dd>{f.money(minimum.fee)}</dd>
        </dl>
      )}
      {mode === 'fee' && <p className="small">{t('minimum.feeHelp')}</p>}
    </div>
  );
}
