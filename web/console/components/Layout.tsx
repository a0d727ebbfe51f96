import { useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useRouterState, type LinkProps } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { LanguageSwitch as PickLanguage } from '../../kit/LanguageSwitch.tsx';
import { TopBar } from '../../kit/TopBar.tsx';
import { client, roleOf, useCan, useMe } from '../lib/api.ts';
import { session, useSession } from '../lib/session.ts';
import { useT } from '../i18n.ts';

function LanguageSwitch() {
  const t = useT();
  const { language } = useSession();
  return <PickLanguage label={t('lang.label')} language={language} choose={(l) => session.setLanguage(l)} />;
}

/** A list of the console's pages, the current one marked. */
function Links({ links }: { links: readonly (readonly [LinkProps['to'], string, ...unknown[]])[] }) {
  return (
    <ul>
      {links.map(([to, label]) => (
        <li key={to}>
          <Link to={to} activeProps={{ 'aria-current': 'page' }}>
            {label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The navigation's id, named by the phone's menu button (`aria-controls`). */
const NAV_ID = 'console-nav';

/**
 * The navigation. On a phone (below 640 px, console.css) it is shown only while `open`: the
 * menu button opens it; Escape, or following a link, closes it. On a desktop it is always there.
 */
function Nav({ open, close }: { open: boolean; close: () => void }) {
  const t = useT();
  const me = useMe();
  const can = useCan();
  const acting = me.data?.supplierId != null && roleOf(me.data) !== undefined;
  const test = me.data?.mode === 'test';
  const supplierLinks = acting
    ? ([
        // The sandbox's own page, in test mode only; members are the live supplier's people.
        ['/sandbox', t('nav.sandbox'), test],
        ['/overview', t('nav.overview'), can('supplier/order.read')],
        ['/orders', t('nav.orders'), can('supplier/order.read')],
        ['/tickets', t('nav.tickets'), can('supplier/support.read')],
        ['/products', t('nav.products'), can('supplier/catalog.read')],
        ['/pricelists', t('nav.pricelists'), can('supplier/pricelist.read')],
        ['/stores', t('nav.stores'), can('supplier/store.read')],
        ['/accounts', t('nav.accounts'), can('supplier/store.read')],
        ['/sellers', t('nav.sellers'), can('supplier/store.read')],
        ['/groupers', t('nav.groupers'), can('supplier/grouper.read')],
        ['/promotions', t('nav.promotions'), can('supplier/promotion.read')],
        ['/imports', t('nav.imports'), can('supplier/batch.read')],
        ['/batches', t('nav.batches'), can('supplier/batch.read')],
        ['/webhooks', t('nav.webhooks'), can('supplier/webhook.read')],
        ['/audit', t('nav.audit'), can('supplier/audit.read')],
        ['/members', t('nav.members'), can('supplier/member.read') && !test],
        ['/credentials', t('nav.credentials'), can('supplier/credential.read')],
      ] as const)
    : [];
  const operatorLinks = me.data?.operator
    ? ([
        ['/admin/suppliers', t('nav.suppliers')],
        ['/admin/store-users', t('nav.storeUsers')],
        ['/admin/system', t('nav.system')],
      ] as const)
    : [];
  return (
    <nav
      id={NAV_ID}
      aria-label={t('nav.main')}
      className={open ? 'side open' : 'side'}
      onClick={(e) => {
        if ((e.target as Element).closest('a')) close();
      }}
    >
      <Links links={supplierLinks.filter(([, , allowed]) => allowed)} />
      {operatorLinks.length > 0 && (
        <>
          <p className="group">{t('nav.operator')}</p>
          <Links links={operatorLinks} />
        </>
      )}
    </nav>
  );
}

function Acting() {
  const t = useT();
  const me = useMe();
  const membership = me.data?.memberships.find((m) => m.supplier.id === me.data?.supplierId);
  if (!me.data || me.data.memberships.length === 0) return null;
  return (
    <Link to="/suppliers" className="acting" title={t('suppliers.change')} data-testid="acting">
      {membership ? t('suppliers.as', { supplier: membership.supplier.name, role: t(`role.${membership.role}`) }) : t('suppliers.change')}
    </Link>
  );
}

/**
 * The test-mode switch (PUT /console/me/mode): every page then works on the supplier's
 * test twin. Everything cached is dropped, since it was the other mode's data.
 */
function TestModeSwitch() {
  const t = useT();
  const me = useMe();
  const queries = useQueryClient();
  // The mode asked for while the service switches: the switch shows it at once (and stays
  // disabled), instead of snapping back until the answer comes.
  const [asked, setAsked] = useState<boolean | null>(null);
  if (!me.data || me.data.supplierId === null || roleOf(me.data) === undefined) return null;
  const on = me.data.mode === 'test';
  const busy = asked !== null;
  const flip = async () => {
    setAsked(!on);
    try {
      await client.put('/console/me/mode', { body: { mode: on ? 'live' : 'test' } });
      await queries.resetQueries();
    } finally {
      setAsked(null);
    }
  };
  return (
    <label className="test-switch">
      <input type="checkbox" role="switch" checked={asked ?? on} disabled={busy} onChange={() => void flip()} data-testid="test-mode-switch" />
      {t('testMode.switch')}
    </label>
  );
}

/** Shown on every page while test mode is on, as a payment dashboard does. */
function TestModeBanner() {
  const t = useT();
  const me = useMe();
  if (me.data?.mode !== 'test') return null;
  return (
    <p className="test-banner" role="status" data-testid="test-mode">
      {t('testMode.banner')} <Link to="/sandbox">{t('testMode.open')}</Link>
    </p>
  );
}

/** The phone's menu button: opens and closes the navigation (hidden on a desktop, where the navigation always shows). */
function MenuButton({ open, toggle, button }: { open: boolean; toggle: () => void; button: React.RefObject<HTMLButtonElement | null> }) {
  const t = useT();
  return (
    <button ref={button} type="button" className="menu-button" aria-expanded={open} aria-controls={NAV_ID} onClick={toggle} data-testid="menu-button">
      <span aria-hidden="true">☰</span> {t('nav.menu')}
    </button>
  );
}

export function Layout() {
  const t = useT();
  const { token } = useSession();
  const path = useRouterState({ select: (s) => s.location.pathname });
  const bare = !token || path.endsWith('/sign-in');
  const [menu, setMenu] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  // Another page (a link followed, back, a redirect) closes the menu.
  useEffect(() => setMenu(false), [path]);
  // Escape closes it wherever the focus is (the button's too), and gives the focus back to the button.
  useEffect(() => {
    if (!menu) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMenu(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menu]);
  const signOut = async () => {
    // The session ends on the service too; the browser forgets it whatever the answer.
    await client.delete('/console/session').catch(() => undefined);
    session.signOut();
  };
  return (
    <>
      <TopBar name={t('app.name')} skip={t('app.skip')} loading={t('state.loading')}>
        {!bare && <MenuButton open={menu} toggle={() => setMenu(!menu)} button={menuButton} />}
        {!bare && <Acting />}
        {!bare && <TestModeSwitch />}
        <LanguageSwitch />
        {!bare && (
          <button type="button" className="link" onClick={() => void signOut()}>
            {t('signout')}
          </button>
        )}
      </TopBar>
      {!bare && <TestModeBanner />}
      <div className={bare ? 'shell bare' : 'shell'}>
        {!bare && <Nav open={menu} close={() => setMenu(false)} />}
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </>
  );
}
