// Where a signed-in person starts: the overview of the supplier the session acts for when
// the role reads its orders (every role does today), else the supplier picker, as when
// none is chosen yet; the operator's pages for an operator. The picker comes back here.
import { Navigate } from '@tanstack/react-router';
import { ROLE_SCOPES } from 'surtido/console-client';
import { roleOf, useMe } from '../lib/api.ts';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
import { useT } from '../i18n.ts';

export default function Home() {
  const t = useT();
  const me = useMe();
  if (me.isPending) return <Loading />;
  if (me.error) return <ErrorBox error={me.error} retry={() => void me.refetch()} />;
  const role = me.data.supplierId !== null ? roleOf(me.data) : undefined;
  if (role && ROLE_SCOPES[role].includes('supplier/order.read')) return <Navigate to="/overview" replace />;
  if (me.data.memberships.length > 0) return <Navigate to="/suppliers" replace />;
  if (me.data.operator) return <Navigate to="/admin/suppliers" replace />;
  return <Empty>{t('suppliers.none')}</Empty>;
}
