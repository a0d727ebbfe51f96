import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { chooseLanguage, signOut, useMe, useUnreadCount } from '../../lib/api.ts';
import { LanguageSwitch as PickLanguage } from '../../kit/LanguageSwitch.tsx';
import { TopBar } from '../../kit/TopBar.tsx';
import { countPackages } from '../../lib/cart-state.ts';
import { session, useCart, useSession } from '../../lib/session.ts';
import { useT } from '../i18n.tsx';
import { OfflineBanner } from './states.tsx';
import { QueueRunner } from './OrderQueue.tsx';

export function LanguageSwitch() {
  const t = useT();
  const { language } = useSession();
  return <PickLanguage label={t('lang.label')} language={language} choose={chooseLanguage} />;
}

function CartCount({ storeId }: { storeId: number }) {
  const [items] = useCart(storeId);
  const n = countPackages(items);
  return n > 0 ? <span className="count" data-testid="cart-count">{n}</span> : null;
}

/**
 * Five tabs, the most a 360 px phone shows without scrolling sideways or wrapping a label
 * (web/e2e/usual.test.ts measures it). "Sugerido para ti" and "Promociones" are sections
 * reached from the top of "Lo de siempre" and the catalog, whose tab stays marked there;
 * "Ayuda" is in the header beside "Mi cuenta".
 */
const WITHIN: Record<string, string> = { '/suggested': '/usual', '/promotions': '/catalog' };

/** The tabs' icons: one path each on a 24-unit grid, drawn in the tab's colour. */
const ICONS: Record<string, string> = {
  '/usual': 'M4 6h16M4 12h16M4 18h10',
  '/catalog': 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
  '/cart': 'M3 4h2l2.4 11h11L21 7H6.2M9 20a1 1 0 1 0 0-.1M18 20a1 1 0 1 0 0-.1',
  '/orders': 'M6 3h12v18H6zM9 8h6M9 12h6M9 16h4',
  '/notifications': 'M6 17V11a6 6 0 0 1 12 0v6l2 2H4zM10 21h4',
};

function Icon({ to }: { to: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d={ICONS[to]} />
    </svg>
  );
}

function Nav({ storeId }: { storeId: number | undefined }) {
  const t = useT();
  const unread = useUnreadCount();
  const path = useRouterState({ select: (s) => s.location.pathname });
  const section = Object.entries(WITHIN).find(([page]) => path.endsWith(page))?.[1];
  const links = [
    ['/usual', t('nav.usual')],
    ['/catalog', t('nav.catalog')],
    ['/cart', t('nav.cart')],
    ['/orders', t('nav.orders')],
  ] as const;
  return (
    <nav aria-label={t('nav.main')} className="tabs">
      {storeId !== undefined &&
        links.map(([to, label]) => (
          <Link key={to} to={to} activeProps={{ 'aria-current': 'page' }} className={section === to ? 'within' : undefined}>
            <Icon to={to} />
            {label}
            {to === '/cart' && <CartCount storeId={storeId} />}
          </Link>
        ))}
      <Link to="/notifications" activeProps={{ 'aria-current': 'page' }}>
        <Icon to="/notifications" />
        {t('nav.notifications')}
        {unread.data ? (
          <span className="count" data-testid="unread-count">
            {unread.data}
            <span className="visually-hidden"> ({t('nav.unread', { count: unread.data })})</span>
          </span>
        ) : null}
      </Link>
    </nav>
  );
}

function StoreName({ storeId }: { storeId: number }) {
  const me = useMe();
  const t = useT();
  const store = me.data?.stores.find((s) => s.id === storeId);
  if (!store) return null;
  return (
    <Link to="/stores" className="store" title={t('stores.change')}>
      {store.name}
    </Link>
  );
}

/**
 * "Salir": signing out forgets the phone's carts (the phone may be shared), so with lines in
 * the store's cart it asks first, saying how many; an empty cart signs out at once.
 */
function SignOut({ storeId }: { storeId: number | undefined }) {
  const t = useT();
  // The lines counted when "Salir" is tapped, as kept on the phone then (another tab's too).
  const [asking, setAsking] = useState(0);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (asking > 0 && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [asking]);
  return (
    <>
      <button
        type="button"
        className="link"
        onClick={() => {
          const lines = storeId === undefined ? 0 : session.cart(storeId).length;
          if (lines > 0) setAsking(lines);
          else void signOut();
        }}
      >
        {t('signout')}
      </button>
      {asking > 0 && (
        <dialog ref={dialog} role="alertdialog" aria-labelledby="signout-title" aria-describedby="signout-text" className="ask" onClose={() => setAsking(0)}>
          <h2 id="signout-title">{t('signout.title')}</h2>
          <p id="signout-text">{t('signout.cart', { count: asking })}</p>
          <div className="actions">
            <button type="button" className="primary" autoFocus onClick={() => dialog.current?.close()}>
              {t('signout.stay')}
            </button>
            <button type="button" className="danger" onClick={() => void signOut()}>
              {t('signout.empty')}
            </button>
          </div>
        </dialog>
      )}
    </>
  );
}

/** Pages that need no chosen store; every other page waits for one. */
const STORELESS = ['/sign-in', '/stores', '/notifications'];

export function Layout() {
  const t = useT();
  const { token, storeId } = useSession();
  const path = useRouterState({ select: (s) => s.location.pathname });
  const bare = !token || path.endsWith('/sign-in');
  // Between the session's end and the sign-in page, no page renders: none asks the service
  // for a store that is no longer chosen (`/stores/{storeId}/…`, issue 34).
  const leaving = !token ? !path.endsWith('/sign-in') : storeId === undefined && !STORELESS.some((p) => path.endsWith(p));
  return (
    <>
      <TopBar name={t('app.name')} skip={t('app.skip')} loading={t('state.loading')}>
        {!bare && storeId !== undefined && <StoreName storeId={storeId} />}
        {/* "Ayuda" and "Mi cuenta" live in the header beside the store: the tab bar holds five tabs at most (Nav). */}
        {!bare && storeId !== undefined && (
          <Link to="/tickets" className="account-link" activeProps={{ 'aria-current': 'page' }}>
            {t('nav.tickets')}
          </Link>
        )}
        {!bare && storeId !== undefined && (
          <Link to="/account" className="account-link" activeProps={{ 'aria-current': 'page' }}>
            {t('account.nav')}
          </Link>
        )}
        <LanguageSwitch />
        {!bare && <SignOut storeId={storeId} />}
      </TopBar>
      <OfflineBanner />
      {!bare && <QueueRunner />}
      <main id="main" tabIndex={-1}>
        {!leaving && <Outlet />}
      </main>
      {!bare && <Nav storeId={storeId} />}
    </>
  );
}
