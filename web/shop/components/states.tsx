// The states every page shows the same way: loading, empty and error are the kit's in the
// shop's words (web/kit/states.tsx); the offline banner, with how old the copies shown are,
// is the shop's own (its service worker keeps them).
import { useEffect, useState, useSyncExternalStore } from 'react';
import { problemMessage } from '../../lib/i18n.ts';
import { createStates, useOnline } from '../../kit/states.tsx';
import { useT } from '../i18n.tsx';

export const { Loading, Empty, ErrorBox } = createStates(useT, problemMessage);
export { useOnline };

// The oldest kept answer the service worker showed since the network went (sw.js tells the
// page each time it answers from what it kept): what "actualizado hace 12 min" counts from.
let savedAt: number | undefined;
const savedListeners = new Set<() => void>();
if (typeof navigator !== 'undefined' && 'serviceWorker' in navigator) {
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string; savedAt?: string | null }>) => {
    if (event.data?.type !== 'surtido-offline' || !event.data.savedAt) return;
    const at = Date.parse(event.data.savedAt);
    if (Number.isNaN(at) || (savedAt !== undefined && savedAt <= at)) return;
    savedAt = at;
    savedListeners.forEach((l) => l());
  });
  // Messages wait in the client's queue until it is started.
  navigator.serviceWorker.startMessages();
  addEventListener('online', () => {
    savedAt = undefined;
    savedListeners.forEach((l) => l());
  });
}
const useSavedAt = () =>
  useSyncExternalStore(
    (cb) => {
      savedListeners.add(cb);
      return () => savedListeners.delete(cb);
    },
    () => savedAt,
    () => undefined,
  );

export function OfflineBanner() {
  const t = useT();
  const online = useOnline();
  const saved = useSavedAt();
  const [shown, setShown] = useState(!online);
  const [, tick] = useState(0);
  useEffect(() => setShown(!online), [online]);
  useEffect(() => {
    if (online) return;
    const timer = setInterval(() => tick((n) => n + 1), 60_000);
    return () => clearInterval(timer);
  }, [online]);
  if (!shown) return null;
  const minutes = saved === undefined ? undefined : Math.max(0, Math.round((Date.now() - saved) / 60_000));
  return (
    <p role="status" className="offline">
      {t('state.offline')}
      {minutes !== undefined && <span data-testid="saved-ago"> {t('state.savedAgo', { minutes })}</span>}
    </p>
  );
}
