// An app's setup, the same in both: the query client and its retry policy, and the root
// render with the session's effects (the page's language, and leaving for the sign-in page
// with nothing cached when the session ends: signing out anywhere, or a refused token).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, type AnyRouter } from '@tanstack/react-router';
import { startTransition, StrictMode, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { SurtidoApiError } from 'surtido/client';
import type { SessionBase } from './session.ts';

/**
 * A refused call (4xx) is final and never retried; a server error or a lost connection is
 * tried twice more. `offlineFirst`: queries are asked even offline (the shop's service
 * worker answers with the last copy it kept).
 */
export function createQueryClient({ staleTime, offlineFirst = false }: { staleTime: number; offlineFirst?: boolean }): QueryClient {
  const networkMode = offlineFirst ? ({ networkMode: 'offlineFirst' } as const) : {};
  return new QueryClient({
    defaultOptions: {
      queries: {
        ...networkMode,
        staleTime,
        retry: (count, error) => count < 2 && !(error instanceof SurtidoApiError && error.status < 500),
      },
      ...(offlineFirst ? { mutations: networkMode } : {}),
    },
  });
}

export interface StartOptions {
  router: AnyRouter;
  queryClient: QueryClient;
  session: { get: () => SessionBase; subscribe: (listener: () => void) => unknown };
  /** Where an ended session leaves for. */
  signInPath?: string;
}

/** Renders the app into `#root` and keeps `<html lang>` and the session's end in step. */
export function startApp({ router, queryClient, session, signInPath = '/sign-in' }: StartOptions) {
  let hadToken = Boolean(session.get().token);
  session.subscribe(() => {
    const has = Boolean(session.get().token);
    if (hadToken && !has) {
      queryClient.clear();
      void router.navigate({ to: signInPath });
    }
    hadToken = has;
    document.documentElement.lang = session.get().language;
  });
  document.documentElement.lang = session.get().language;

  // The first render too is a transition, rendered in slices (renderedInTransition below):
  // as a blocking update the app's frame and the router were one task before the page's.
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
}

/**
 * A page whose first render is a transition, which React renders in slices of a few
 * milliseconds and yields to the phone between them. A route's change reaches React as a
 * blocking update (the router's state is read through useSyncExternalStore), so a page of
 * two dozen product rows was one long task on a cheap phone, and Lighthouse counted all of
 * it as blocking time (issue 34). The page's place stays empty until its first slice is
 * committed. What the router needs from the page's component (`preload`, which loads a
 * lazy page's chunk before it renders) is kept.
 */
export function renderedInTransition<C extends (props: never) => ReactNode>(Page: C & { preload?: () => unknown }): C {
  const Shown = Page as unknown as ComponentType;
  function InTransition(props: object) {
    const [shown, setShown] = useState(false);
    useEffect(() => startTransition(() => setShown(true)), []);
    return shown ? <Shown {...props} /> : null;
  }
  return Object.assign(InTransition, { preload: Page.preload }) as unknown as C;
}
