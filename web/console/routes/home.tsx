// Where a signed-in person starts: the orders of the supplier the session acts for, the
// supplier picker when none is chosen yet, the operator's pages for an operator.
import { Navigate } from '@tanstack/react-router';
import { roleOf, useMe } from '../lib/api.ts';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
import { useT } from '../i18n.ts';

export default function Home() {
  const t = useT();
  const me = useMe();
  if (me.isPending) return <Loading />;
  if (me.error) return <ErrorBox error={me.error} retry={() => void me.refetch()} />;
  if (me.data.supplierId !== null && roleOf(me.data)) return <Navigate to="/orders" replace />;
  if (me.data.memberships.length > 0) return <Navigate to="/suppliers" replace />;
  if (me.data.operator) return <Navigate to="/admin/suppliers" replace />;
  return <Empty>{t('suppliers.none')}</Empty>;
}
