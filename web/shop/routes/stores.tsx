// The store picker, for a person who buys for several stores.
import { useNavigate } from '@tanstack/react-router';
import { useMe } from '../../lib/api.ts';
import { session, useSession } from '../../lib/session.ts';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
import { useT } from '../i18n.tsx';

export default function Stores() {
  const t = useT();
  const me = useMe();
  const { storeId } = useSession();
  const navigate = useNavigate();
  return (
    <section>
      <h1>{t('stores.title')}</h1>
      {me.isPending ? (
        <Loading />
      ) : me.error ? (
        <ErrorBox error={me.error} retry={() => void me.refetch()} />
      ) : me.data.stores.length === 0 ? (
        <Empty>{t('stores.none')}</Empty>
      ) : (
        <ul className="list">
          {me.data.stores.map((s) => (
            <li key={s.id}>
              <button
                type="button"
                className="row"
                aria-pressed={s.id === storeId}
                onClick={() => {
                  session.chooseStore(s.id);
                  void navigate({ to: '/catalog' });
                }}
              >
                <strong>{s.name}</strong>
                <span className="muted">
                  {s.supplier.name}
                  {!s.enabled && ` · ${t('stores.disabled')}`}
                  {s.access === 'SELLER' && ` · ${t('stores.asSeller')}`}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
