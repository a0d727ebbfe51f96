// An API credential's columns, the same for the supplier's own list and the operators' view
// of a supplier: its client id, its scopes (folded, `count` words how many), when it was
// issued and whether it still works. Never a secret: the lists carry none.
import type { Credential } from '../lib/api.ts';
import type { Column } from './list/ListPage.tsx';
import type { Translate, useFormat } from '../i18n.ts';

export function credentialColumns(t: Translate, f: ReturnType<typeof useFormat>, count: (n: number) => React.ReactNode): Column<Credential>[] {
  return [
    { header: t('credentials.clientId'), cell: (c) => <code>{c.clientId}</code> },
    {
      header: t('credentials.scopes'),
      cell: (c) => (
        <details>
          <summary>{count(c.scopes.length)}</summary>
          <ul className="scopes">
            {c.scopes.map((s) => (
              <li key={s}>
                <code>{s}</code>
              </li>
            ))}
          </ul>
        </details>
      ),
    },
    { header: t('credentials.created'), cell: (c) => f.dateTime(c.createdAt) },
    { header: t('credentials.state'), cell: (c) => (c.revokedAt ? t('credentials.revokedAt', { at: f.dateTime(c.revokedAt) }) : t('credentials.live')) },
  ];
}
