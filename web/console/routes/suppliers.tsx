// The supplier picker: a person may be a member of several suppliers and acts for one at a time.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { client, keys, useMe } from '../lib/api.ts';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
import { useT } from '../i18n.ts';

export default function Suppliers() {
  const t = useT();
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const choose = useMutation({
    mutationFn: (supplierId: number) => client.put('/console/me/supplier', { body: { supplierId } }),
    onSuccess: async (answer) => {
      // Everything read so far was another supplier's.
      queryClient.clear();
      queryClient.setQueryData(keys.me, answer);
      // The start page (routes/home.tsx) decides where this role begins.
      await navigate({ to: '/' });
    },
  });
  if (me.isPending) return <Loading />;
  if (me.error) return <ErrorBox error={me.error} retry={() => void me.refetch()} />;
  return (
    <section className="narrow">
      <h1>{t('suppliers.title')}</h1>
      {me.data.memberships.length === 0 && <Empty>{t('suppliers.none')}</Empty>}
      {choose.error && <ErrorBox error={choose.error} />}
      <ul className="list">
        {me.data.memberships.map((m) => (
          <li key={m.supplier.id}>
            <button
              type="button"
              className="row"
              aria-pressed={m.supplier.id === me.data.supplierId}
              disabled={choose.isPending}
              onClick={() => choose.mutate(m.supplier.id)}
            >
              <strong>{m.supplier.name}</strong>
              <span>{t(`role.${m.role}`)}</span>
              <span className="muted small">
                {m.supplier.code}
                {!m.supplier.enabled && ` · ${t('suppliers.disabled')}`}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
