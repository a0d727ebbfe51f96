// The top of both apps' pages: the skip link to the page's main content, then the bar with
// the app's name and what each app puts beside it (store, account links, language, sign-out).
import type { ReactNode } from 'react';
import { useRouterState } from '@tanstack/react-router';

export function TopBar({ name, skip, loading, children }: { name: string; skip: string; loading: string; children: ReactNode }) {
  return (
    <>
      <a className="skip" href="#main">
        {skip}
      </a>
      <header className="top">
        <span className="brand">{name}</span>
        {children}
        <NextPageLoading label={loading} />
      </header>
    </>
  );
}

/**
 * A thin bar along the top bar's foot while the router gets the next page ready (its code,
 * and in the shop the data it shows first): until then the page shown stays on screen under
 * the new address, so without it a tap on a slow network seemed not taken. It grows in
 * after 150 ms (kit.css), so a quick switch does not flash it. Not while the app opens
 * (no page resolved yet): the boot has its own text, and the first load draws nothing it
 * can do without (docs/decisions.md, "The next page on its way").
 */
function NextPageLoading({ label }: { label: string }) {
  const pending = useRouterState({ select: (s) => s.status === 'pending' && s.resolvedLocation !== undefined });
  return pending ? <div className="next-page" role="progressbar" aria-label={label} /> : null;
}
