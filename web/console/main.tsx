// The supplier and operator console: pages over the supplier API, the admin API and
// /console, called with the console session's token (surtido/console-client).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, redirect, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SurtidoApiError } from 'surtido/console-client';
import { dayOf, pageOf, text } from './lib/api.ts';
import { session } from './lib/session.ts';
import { Layout } from './components/Layout.tsx';
import { isBatchEndpoint } from './components/Batch.tsx';
import './console.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      retry: (count, error) => count < 2 && !(error instanceof SurtidoApiError && error.status < 500),
    },
  },
});

const signedIn = () => {
  if (!session.get().token) throw redirect({ to: '/sign-in' });
};

const root = createRootRoute({ component: Layout });
const page = <const P extends string>(path: P, load: () => Promise<{ default: () => React.ReactNode }>, guard?: () => void, validateSearch?: (s: Record<string, unknown>) => object) =>
  createRoute({ getParentRoute: () => root, path, component: lazyRouteComponent(load), beforeLoad: guard, ...(validateSearch ? { validateSearch } : {}) });

const ORDER_STATUS = /^(PENDING|CONFIRMED|DELIVERED|RETURNED|CANCELLED)$/;
const DELIVERY_STATUS = /^(pending|delivered|failed)$/;
const TICKET_STATUS = /^(PENDING|IN_PROGRESS|ADDITIONAL_INFO_REQUESTED|SOLVED|CLOSED)$/;
/** An import kind's name (GET /import/kinds answers which exist). */
const IMPORT_KIND = /^[a-z][a-z-]{1,40}$/;
const BATCH_STATUS = /^(processing|processed|failed)$/;
const ITEM_STATUS = /^(processing|completed|failed)$/;
const PROMOTION_TYPE = /^(DISCOUNT_SIMPLE|DISCOUNT_MULTIPLE|BONUS_INDIVIDUAL|BONUS_CROSSED)$/;
/** A yes/no filter of the URL (true or false), else undefined. */
const flagOf = (v: unknown) => (v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined);

const routeTree = root.addChildren([
  page('/', () => import('./routes/home.tsx'), signedIn),
  page('/sign-in', () => import('./routes/sign-in.tsx')),
  page('/suppliers', () => import('./routes/suppliers.tsx'), signedIn),
  page('/overview', () => import('./routes/overview.tsx'), signedIn),
  page('/sandbox', () => import('./routes/sandbox.tsx'), signedIn),
  page('/orders', () => import('./routes/orders.tsx'), signedIn, (s) => ({
    status: ORDER_STATUS.test(String(s.status)) ? (s.status as string) : undefined,
    store: text(s.store),
    from: dayOf(s.from),
    to: dayOf(s.to),
    page: s.page === undefined ? undefined : pageOf(s.page),
  })),
  page('/orders/$id', () => import('./routes/order.tsx'), signedIn),
  page('/webhooks', () => import('./routes/webhooks.tsx'), signedIn, (s) => ({
    status: DELIVERY_STATUS.test(String(s.status)) ? (s.status as string) : undefined,
    failing: s.failing === true || s.failing === 'true' ? true : undefined,
    page: s.page === undefined ? undefined : pageOf(s.page),
  })),
  page('/tickets', () => import('./routes/tickets.tsx'), signedIn, (s) => ({
    status: TICKET_STATUS.test(String(s.status)) ? (s.status as string) : undefined,
    page: s.page === undefined ? undefined : pageOf(s.page),
  })),
  page('/tickets/$id', () => import('./routes/ticket.tsx'), signedIn),
  page('/members', () => import('./routes/members.tsx'), signedIn),
  page('/credentials', () => import('./routes/credentials.tsx'), signedIn, (s) => ({
    revoked: s.revoked === true || s.revoked === 'true' ? true : s.revoked === false || s.revoked === 'false' ? false : undefined,
    page: s.page === undefined ? undefined : pageOf(s.page),
  })),
  // Catalog, price lists, stores, groupers and stock, promotions.
  page('/products', () => import('./routes/products.tsx'), signedIn, (s) => ({ search: text(s.search), enabled: flagOf(s.enabled), page: s.page === undefined ? undefined : pageOf(s.page) })),
  page('/pricelists', () => import('./routes/pricelists.tsx'), signedIn, (s) => ({ search: text(s.search), enabled: flagOf(s.enabled), page: s.page === undefined ? undefined : pageOf(s.page) })),
  page('/pricelists/$code', () => import('./routes/pricelist.tsx'), signedIn, (s) => ({ search: text(s.search), page: s.page === undefined ? undefined : pageOf(s.page), after: text(s.after) })),
  page('/stores', () => import('./routes/stores.tsx'), signedIn, (s) => ({ search: text(s.search), enabled: flagOf(s.enabled), page: s.page === undefined ? undefined : pageOf(s.page) })),
  // Receivables (issue #31): the aging of open invoices and a store's account.
  page('/accounts', () => import('./routes/accounts.tsx'), signedIn, (s) => ({ store: text(s.store), page: s.page === undefined ? undefined : pageOf(s.page) })),
  page('/accounts/$code', () => import('./routes/store-account.tsx'), signedIn),
  // Sellers (issue #32): the supplier's sales reps and the stores they serve.
  page('/sellers', () => import('./routes/sellers.tsx'), signedIn, (s) => ({ search: text(s.search), page: s.page === undefined ? undefined : pageOf(s.page) })),
  page('/groupers', () => import('./routes/groupers.tsx'), signedIn, (s) => ({
    kind: s.kind === 'stock' ? ('stock' as const) : undefined,
    search: text(s.search),
    enabled: flagOf(s.enabled),
    page: s.page === undefined ? undefined : pageOf(s.page),
  })),
  page('/groupers/stock/$code', () => import('./routes/stock.tsx'), signedIn, (s) => ({ search: text(s.search), available: flagOf(s.available), page: s.page === undefined ? undefined : pageOf(s.page) })),
  page('/promotions', () => import('./routes/promotions.tsx'), signedIn, (s) => ({
    search: text(s.search),
    type: PROMOTION_TYPE.test(String(s.type)) ? (s.type as string) : undefined,
    enabled: flagOf(s.enabled),
    from: dayOf(s.from),
    to: dayOf(s.to),
    page: s.page === undefined ? undefined : pageOf(s.page),
  })),
  page('/promotions/$code', () => import('./routes/promotion.tsx'), signedIn),
  // Batches and the audit log.
  page('/batches', () => import('./routes/batches.tsx'), signedIn, (s) => ({
    status: BATCH_STATUS.test(String(s.status)) ? (s.status as string) : undefined,
    endpoint: isBatchEndpoint(s.endpoint) ? s.endpoint : undefined,
    page: s.page === undefined ? undefined : pageOf(s.page),
  })),
  page('/batches/$uuid', () => import('./routes/batch.tsx'), signedIn, (s) => ({
    status: ITEM_STATUS.test(String(s.status)) ? (s.status as string) : undefined,
    page: s.page === undefined ? undefined : pageOf(s.page),
  })),
  page('/audit', () => import('./routes/audit.tsx'), signedIn, (s) => ({
    entity: text(s.entity),
    entityId: text(s.entityId),
    actor: text(s.actor),
    from: dayOf(s.from),
    to: dayOf(s.to),
    page: s.page === undefined ? undefined : pageOf(s.page),
  })),
  // Imports.
  page('/imports', () => import('./routes/imports.tsx'), signedIn, (s) => ({
    kind: IMPORT_KIND.test(String(s.kind)) ? (s.kind as string) : undefined,
    page: s.page === undefined ? undefined : pageOf(s.page),
  })),
  page('/imports/$id', () => import('./routes/import.tsx'), signedIn, (s) => ({ page: s.page === undefined ? undefined : pageOf(s.page) })),
  page('/admin/suppliers', () => import('./routes/admin-suppliers.tsx'), signedIn),
  page('/admin/suppliers/$id', () => import('./routes/admin-supplier.tsx'), signedIn, (s) => ({ page: s.page === undefined ? undefined : pageOf(s.page) })),
  page('/admin/store-users', () => import('./routes/admin-store-users.tsx'), signedIn, (s) => ({ contact: text(s.contact) })),
  page('/admin/system', () => import('./routes/admin-system.tsx'), signedIn),
]);

export const router = createRouter({ routeTree, basepath: '/console', defaultPreload: 'intent', context: {} });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

// Signing out anywhere (or a refused session) leaves for the sign-in page with nothing cached.
let hadToken = Boolean(session.get().token);
session.subscribe(() => {
  const has = Boolean(session.get().token);
  if (hadToken && !has) {
    queryClient.clear();
    void router.navigate({ to: '/sign-in' });
  }
  hadToken = has;
  document.documentElement.lang = session.get().language;
});
document.documentElement.lang = session.get().language;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
