// The cart's delivery date: "Entrega: jueves 14 · pide antes de miércoles 18:00 (5 h 12 min)",
// a picker of the valid dates only (GET /app/stores/{id}/delivery-options), and, when the
// chosen date's cut-off passes while the cart is open, the next date chosen and said so.
// A store without a delivery zone gets no options and sees nothing here (today's cart).
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { deliveryOptionsQuery } from '../../lib/api.ts';
import { cutoffLabel, dayLabel, keepDate, openOptions, timeLeft, type DeliveryOption } from '../../lib/delivery.ts';
import { useSession } from '../../lib/session.ts';
import { useFormat, useT } from '../i18n.tsx';
import { ErrorBox, Loading } from './states.tsx';

export function useDeliveryOptions(storeId: number) {
  return useQuery({ ...deliveryOptionsQuery(storeId), refetchInterval: 5 * 60_000 });
}

/** The phone's clock, read again every 15 seconds (the countdown shows minutes). */
function useNow() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(id);
  }, []);
  const tick = useCallback(() => setNow(Date.now()), []);
  return [now, tick] as const;
}

export function DeliveryBar({ storeId, value, onChange }: { storeId: number; value: string | undefined; onChange: (date: string | undefined) => void }) {
  const t = useT();
  const f = useFormat();
  const { language } = useSession();
  const options = useDeliveryOptions(storeId);
  const [now, tick] = useNow();
  const [moved, setMoved] = useState<{ from: string; to: string | undefined }>();
  const open = useMemo(() => openOptions(options.data ?? [], now), [options.data, now]);
  const chosen = open.find((o) => o.date === value);
  const refetch = options.refetch;

  // Keep a valid date: the first at the start; the next when the chosen one's cut-off passed.
  useEffect(() => {
    if (!options.data) return;
    const kept = keepDate(value, open);
    if (kept.date === value) return;
    if (kept.moved) setMoved({ from: kept.moved, to: kept.date });
    onChange(kept.date);
  }, [options.data, open, value, onChange]);

  // Wake up at the chosen date's cut-off (not 15 s later), and ask the service again.
  useEffect(() => {
    if (!chosen || chosen.afterCutoff) return;
    const wait = Date.parse(chosen.cutoffAt) - Date.now();
    if (wait > 2 ** 31 - 1) return;
    const id = setTimeout(() => {
      tick();
      void refetch();
    }, Math.max(wait, 0) + 500);
    return () => clearTimeout(id);
  }, [chosen, refetch, tick]);

  if (options.isPending) return <Loading rows={1} />;
  if (options.error && !options.data) return <ErrorBox error={options.error} retry={() => void options.refetch()} />;
  if ((options.data ?? []).length === 0) return null;

  const left = chosen && !chosen.afterCutoff ? timeLeft(chosen.cutoffAt, now, t, language) : null;
  return (
    <div className="delivery" data-testid="delivery">
      {moved && (
        <p role="status" className="warn" data-testid="delivery-moved">
          {moved.to ? t('delivery.moved', { old: dayLabel(moved.from, f.locale), date: dayLabel(moved.to, f.locale) }) : t('delivery.gone', { old: dayLabel(moved.from, f.locale) })}
        </p>
      )}
      {chosen ? (
        <p className="delivery-summary" data-testid="delivery-summary">
          {left
            ? t('delivery.summary', { date: dayLabel(chosen.date, f.locale), cutoff: cutoffLabel(chosen.cutoffLocal, f.locale, language), left })
            : t('delivery.summaryLate', { date: dayLabel(chosen.date, f.locale) })}
        </p>
      ) : (
        <p className="warn">{t('delivery.none')}</p>
      )}
      {open.length > 0 && (
        <>
          <label htmlFor="delivery-date">{t('delivery.pick')}</label>
          <select
            id="delivery-date"
            value={value ?? ''}
            onChange={(e) => {
              setMoved(undefined);
              onChange(e.target.value);
            }}
          >
            {open.map((o) => (
              <option key={o.date} value={o.date}>
                {o.afterCutoff
                  ? t('delivery.optionLate', { date: dayLabel(o.date, f.locale) })
                  : t('delivery.option', { date: dayLabel(o.date, f.locale), cutoff: cutoffLabel(o.cutoffLocal, f.locale, language) })}
              </option>
            ))}
          </select>
        </>
      )}
    </div>
  );
}
