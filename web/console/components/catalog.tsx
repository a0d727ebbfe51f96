// The catalog pages' shared pieces: an entity's enabled state in words and, for a role that
// may write it, the switch (one click asks, a second confirms: PUT .../status of the
// service; the page decides nothing); a picture's state in words; a list's search box and
// enabled filter.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { setEnabled, type Product, type Switchable } from '../lib/catalog.ts';
import { ErrorBox } from './states.tsx';
import { useT, type Translate } from '../i18n.ts';
import type { Filter } from './list/ListPage.tsx';

export function EnabledBadge({ enabled }: { enabled: boolean }) {
  const t = useT();
  return <span className={enabled ? 'status status-on' : 'status status-off'}>{enabled ? t('catalog.enabled') : t('catalog.disabled')}</span>;
}

/**
 * The switch for `kind` `code` (named `name` to the person). `invalidate` lists the query
 * keys' first parts to refresh once the service answered.
 */
export function EnabledSwitch({ kind, code, name, enabled, invalidate }: { kind: Switchable; code: string; name: string; enabled: boolean; invalidate: string[] }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const change = useMutation({
    mutationFn: () => setEnabled(kind, code, !enabled),
    onSuccess: async () => {
      setAsking(false);
      await Promise.all(invalidate.map((k) => queryClient.invalidateQueries({ queryKey: [k] })));
    },
  });
  const verb = enabled ? 'disable' : 'enable';
  return (
    <div className="switch" data-switch={code}>
      {asking ? (
        <div role="group" aria-label={t(`catalog.${verb}Named`, { name })} className="actions">
          <span>{t(`catalog.${verb}Ask`, { name })}</span>
          <button type="button" className={enabled ? 'danger' : 'primary'} disabled={change.isPending} onClick={() => change.mutate()}>
            {t(`catalog.${verb}Yes`)}
          </button>
          <button type="button" disabled={change.isPending} onClick={() => setAsking(false)}>
            {t('catalog.keep')}
          </button>
        </div>
      ) : (
        <button type="button" className={enabled ? 'danger' : undefined} aria-label={t(`catalog.${verb}Named`, { name })} onClick={() => setAsking(true)}>
          {t(`catalog.${verb}`)}
        </button>
      )}
      {change.error && <ErrorBox error={change.error} />}
    </div>
  );
}

export function ImageState({ p }: { p: Pick<Product, 'image' | 'imageUrls' | 'imageStatus' | 'imageError'> }) {
  const t = useT();
  if (!p.image || !p.imageStatus) return <span className="muted">{t('products.imageNone')}</span>;
  if (p.imageStatus === 'ready')
    return (
      <span className="image-state">
        {p.imageUrls && <img className="thumb" src={p.imageUrls['160']} alt="" width={40} height={40} loading="lazy" />}
        <span className="status status-on">{t('products.imageReady')}</span>
      </span>
    );
  if (p.imageStatus === 'failed')
    return (
      <span>
        <span className="status status-off">{t('products.imageFailed')}</span>
        {p.imageError && <span className="small muted"> {p.imageError}</span>}
      </span>
    );
  return (
    <span>
      <span className="status status-pending">{t('products.imagePending')}</span>
      {p.imageError && <span className="small muted"> {t('products.imageRetrying', { error: p.imageError })}</span>}
    </span>
  );
}

/** A list's search box (code or name, as each route searches), applied on submit. */
export const searchFilter = (id: string, label: string) => ({ kind: 'text', searchbox: true, key: 'search', id, label }) as const satisfies Filter<{ search?: string }>;

/** The enabled filter of a list: all, enabled only, disabled only. */
export const enabledFilter = (t: Translate, id: string): Filter<{ enabled?: boolean }> => ({
  kind: 'flag',
  key: 'enabled',
  id,
  label: t('catalog.state'),
  all: t('catalog.all'),
  options: [
    [true, t('catalog.onlyEnabled')],
    [false, t('catalog.onlyDisabled')],
  ],
});
