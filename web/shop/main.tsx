import { createRootRoute, createRoute, createRouter, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { createQueryClient, renderedInTransition, startApp } from '../kit/app.tsx';
import { session } from '../lib/session.ts';
import { Layout } from './components/Layout.tsx';
import { catalogSearch, firstData } from './first-data.ts';
import '../kit/kit.css';
import './shop.css';

// Asked even offline: the service worker answers with the last copy it kept.
const queryClient = createQueryClient({ staleTime: 15_000, offlineFirst: true });

const signedIn = () => {
  if (!session.get().token) throw redirect({ to: '/sign-in' });
};
const withStore = () => {
  signedIn();
  if (!session.get().storeId) throw redirect({ to: '/stores' });
};

const root = createRootRoute({ component: Layout });
/** Each page's chunk by its path, asked as the app boots when it opens on that page (below). */
const chunks = new Map<string, () => Promise<unknown>>();
// A page renders once what it shows first has arrived (first-data.ts), in a transition (kit/app.tsx).
const page = (path: string, load: () => Promise<{ default: () => React.ReactNode }>, guard?: () => void, validateSearch?: (s: Record<string, unknown>) => object) => {
  chunks.set(path, load);
  return createRoute({
    getParentRoute: () => root,
    path,
    component: renderedInTransition(lazyRouteComponent(load)),
    beforeLoad: guard,
    loader: ({ location }) => firstData(queryClient, location.pathname, location.search),
    ...(validateSearch ? { validateSearch } : {}),
  });
};

const routeTree = root.addChildren([
  createRoute({
    getParentRoute: () => root,
    path: '/',
    beforeLoad: () => {
      withStore();
      // The app opens on "Lo de siempre"; a store without history goes on to the catalog.
      throw redirect({ to: '/usual', search: { start: true } });
    },
  }),
  page('/sign-in', () => import('./routes/sign-in.tsx')),
  page('/stores', () => import('./routes/stores.tsx'), signedIn),
  page('/catalog', () => import('./routes/catalog.tsx'), withStore, catalogSearch),
  page('/products/$code', () => import('./routes/product.tsx'), withStore),
  page('/usual', () => import('./routes/usual.tsx'), withStore, (s) => ({ start: s.start === true || s.start === 'true' ? true : undefined })),
  page('/suggested', () => import('./routes/suggested.tsx'), withStore),
  page('/promotions', () => import('./routes/promotions.tsx'), withStore),
  page('/cart', () => import('./routes/cart.tsx'), withStore),
  page('/orders', () => import('./routes/orders.tsx'), withStore),
  page('/orders/$id', () => import('./routes/order.tsx'), withStore, (s) => ({ placed: s.placed === 1 || s.placed === '1' || s.placed === true ? true : undefined })),
  page('/tickets', () => import('./routes/tickets.tsx'), withStore, (s) => ({ order: Number(s.order) || undefined })),
  page('/tickets/$id', () => import('./routes/ticket.tsx'), withStore),
  page('/notifications', () => import('./routes/notifications.tsx'), signedIn),
  page('/account', () => import('./routes/account.tsx'), withStore),
]);

export const router = createRouter({ routeTree, basepath: '/shop', defaultPreload: 'intent', context: {} });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

// The page the app opens on: its chunk and its first data are asked now, while React starts,
// not once the router has rendered (issue 34; its route's loader then finds them asked).
const opening = router.latestLocation;
void chunks.get(opening.pathname)?.();
void firstData(queryClient, opening.pathname, opening.search);

// Signing out anywhere (or a refused token) leaves for the sign-in page with nothing cached.
startApp({ router, queryClient, session });

if ('serviceWorker' in navigator && location.protocol !== 'file:' && !import.meta.env.DEV) {
  addEventListener('load', () => void navigator.serviceWorker.register('/shop/sw.js', { scope: '/shop/' }));
}
