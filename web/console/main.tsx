// The supplier and operator console: pages over the supplier API, the admin API and
// /console, called with the console session's token (surtido/console-client).
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { createQueryClient, startApp } from '../kit/app.tsx';
import { DELIVERY_STATUSES, ORDER_STATUSES, TICKET_STATUSES } from './lib/api.ts';
import { PROMOTION_TYPES } from './lib/catalog.ts';
import { session } from './lib/session.ts';
import { Layout } from './components/Layout.tsx';
import { BATCH_STATES, isBatchEndpoint, ITEM_STATES } from './components/Batch.tsx';
import { enumOf, listSearch, matching, onlyTrue } from './components/list/search.ts';
import '../kit/kit.css';
import './console.css';

const queryClient = createQueryClient({ staleTime: 10_000 });

const signedIn = () => {
  if (!session.get().token) throw redirect({ to: '/sign-in' });
};

const root = createRootRoute({ component: Layout });
const page = <const P extends string>(path: P, load: () => Promise<{ default: () => React.ReactNode }>, guard?: () => void, validateSearch?: (s: Record<string, unknown>) => object) =>
  createRoute({ getParentRoute: () => root, path, component: lazyRouteComponent(load), beforeLoad: guard, ...(validateSearch ? { validateSearch } : {}) });

/** An import kind's name (GET /import/kinds answers which exist). */
const IMPORT_KIND = /^[a-z][a-z-]{1,40}$/;
const batchEndpoint = (v: unknown) => (isBatchEndpoint(v) ? v : undefined);

const routeTree = root.addChildren([
  page('/', () => import('./routes/home.tsx'), signedIn),
  page('/sign-in', () => import('./routes/sign-in.tsx')),
  page('/suppliers', () => import('./routes/suppliers.tsx'), signedIn),
  page('/overview', () => import('./routes/overview.tsx'), signedIn),
  page('/sandbox', () => import('./routes/sandbox.tsx'), signedIn),
  page('/orders', () => import('./routes/orders.tsx'), signedIn, listSearch({ status: enumOf(ORDER_STATUSES), store: 'text', from: 'day', to: 'day' })),
  page('/orders/$id', () => import('./routes/order.tsx'), signedIn),
  page('/webhooks', () => import('./routes/webhooks.tsx'), signedIn, listSearch({ status: enumOf(DELIVERY_STATUSES), failing: onlyTrue })),
  page('/tickets', () => import('./routes/tickets.tsx'), signedIn, listSearch({ status: enumOf(TICKET_STATUSES) })),
  page('/tickets/$id', () => import('./routes/ticket.tsx'), signedIn),
  page('/members', () => import('./routes/members.tsx'), signedIn),
  page('/credentials', () => import('./routes/credentials.tsx'), signedIn, listSearch({ revoked: 'flag' })),
  // Catalog, price lists, stores, groupers and stock, promotions.
  page('/products', () => import('./routes/products.tsx'), signedIn, listSearch({ search: 'text', enabled: 'flag' })),
  page('/pricelists', () => import('./routes/pricelists.tsx'), signedIn, listSearch({ search: 'text', enabled: 'flag' })),
  page('/pricelists/$code', () => import('./routes/pricelist.tsx'), signedIn, listSearch({ search: 'text', after: 'text' })),
  page('/stores', () => import('./routes/stores.tsx'), signedIn, listSearch({ search: 'text', enabled: 'flag' })),
  page('/stores/$code', () => import('./routes/store.tsx'), signedIn),
  // Receivables (issue #31): the aging of open invoices and a store's account.
  page('/accounts', () => import('./routes/accounts.tsx'), signedIn, listSearch({ store: 'text' })),
  page('/accounts/$code', () => import('./routes/store-account.tsx'), signedIn),
  // Sellers (issue #32): the supplier's sales reps and the stores they serve.
  page('/sellers', () => import('./routes/sellers.tsx'), signedIn, listSearch({ search: 'text' })),
  page('/groupers', () => import('./routes/groupers.tsx'), signedIn, listSearch({ kind: enumOf(['stock'] as const), search: 'text', enabled: 'flag' })),
  page('/groupers/stock/$code', () => import('./routes/stock.tsx'), signedIn, listSearch({ search: 'text', available: 'flag' })),
  page('/promotions', () => import('./routes/promotions.tsx'), signedIn, listSearch({ search: 'text', type: enumOf(PROMOTION_TYPES), enabled: 'flag', from: 'day', to: 'day' })),
  page('/promotions/$code', () => import('./routes/promotion.tsx'), signedIn),
  // Batches and the audit log.
  page('/batches', () => import('./routes/batches.tsx'), signedIn, listSearch({ status: enumOf(BATCH_STATES), endpoint: batchEndpoint })),
  page('/batches/$uuid', () => import('./routes/batch.tsx'), signedIn, listSearch({ status: enumOf(ITEM_STATES) })),
  page('/audit', () => import('./routes/audit.tsx'), signedIn, listSearch({ entity: 'text', entityId: 'text', actor: 'text', from: 'day', to: 'day' })),
  // Imports.
  page('/imports', () => import('./routes/imports.tsx'), signedIn, listSearch({ kind: matching(IMPORT_KIND) })),
  page('/imports/$id', () => import('./routes/import.tsx'), signedIn, listSearch({})),
  page('/admin/suppliers', () => import('./routes/admin-suppliers.tsx'), signedIn),
  page('/admin/suppliers/$id', () => import('./routes/admin-supplier.tsx'), signedIn, listSearch({})),
  page('/admin/store-users', () => import('./routes/admin-store-users.tsx'), signedIn, listSearch({ contact: 'text' })),
  page('/admin/system', () => import('./routes/admin-system.tsx'), signedIn),
]);

export const router = createRouter({ routeTree, basepath: '/console', defaultPreload: 'intent', context: {} });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

// Signing out anywhere (or a refused session) leaves for the sign-in page with nothing cached.
startApp({ router, queryClient, session });
