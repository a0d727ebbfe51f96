// The top of both apps' pages: the skip link to the page's main content, then the bar with
// the app's name and what each app puts beside it (store, account links, language, sign-out).
import type { ReactNode } from 'react';

export function TopBar({ name, skip, children }: { name: string; skip: string; children: ReactNode }) {
  return (
    <>
      <a className="skip" href="#main">
        {skip}
      </a>
      <header className="top">
        <span className="brand">{name}</span>
        {children}
      </header>
    </>
  );
}
