import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { chooseLanguage, signOut, useMe, useUnreadCount } from '../../lib/api.ts';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../lib/i18n.ts';
import { countPackages } from '../../lib/cart-state.ts';
import { useCart, useSession } from '../../lib/session.ts';
import { useT } from '../i18n.tsx';
import { OfflineBanner } from './states.tsx';
import { QueueRunner } from './OrderQueue.tsx';

export function LanguageSwitch() {
  const t = useT();
  const { language } = useSession();
  return (
    <label className="lang">
      <span className="visually-hidden">{t('lang.label')}</span>
      <select value={language} onChange={(e) => chooseLanguage(e.target.value as Language)}>
        {(Object.keys(LANGUAGES) as Language[]).map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
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
            {label}
            {to === '/cart' && <CartCount storeId={storeId} />}
          </Link>
        ))}
      <Link to="/notifications" activeProps={{ 'aria-current': 'page' }}>
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

export function Layout() {
  const t = useT();
  const { token, storeId } = useSession();
  const path = useRouterState({ select: (s) => s.location.pathname });
  const bare = !token || path.endsWith('/sign-in');
  return (
    <>
      <a className="skip" href="#main">
        {t('app.skip')}
      </a>
      <header className="top">
        <span className="brand">{t('app.name')}</span>
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
        {!bare && (
          <button type="button" className="link" onClick={() => void signOut()}>
            {t('signout')}
          </button>
        )}
      </header>
      <OfflineBanner />
      {!bare && <QueueRunner />}
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      {!bare && <Nav storeId={storeId} />}
    </>
  );
}
