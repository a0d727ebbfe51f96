// The console's data access: one client (surtido/console-client, typed by what a console
// session may call), query keys, the signed-in person and what their role allows.
import { useQuery } from '@tanstack/react-query';
import { createConsoleClient, type ConsoleResponse } from 'surtido/console-client';
import { ROLE_SCOPES, type SupplierScope } from 'surtido/console-client';
import { session } from './session.ts';
// From the catalog itself, not ../i18n.ts: that module's format hook reads the client here.

export const client = createConsoleClient({
  baseUrl: typeof location === 'undefined' ? 'http://localhost' : location.origin,
  token: () => session.get().token,
  onUnauthorized: () => session.signOut(),
});

export type Me = ConsoleResponse<'/console/me', 'get'>;
export type Role = Me['memberships'][number]['role'];
export type Order = ConsoleResponse<'/order/{id}', 'get'>;
export type OrderStatus = Order['status'];
export type Delivery = ConsoleResponse<'/webhook/deliveries', 'get'>['data'][number];
export type Member = ConsoleResponse<'/member', 'get'>[number];
export type Credential = ConsoleResponse<'/credential', 'get'>['data'][number];
export type Supplier = ConsoleResponse<'/admin/suppliers', 'get'>[number];
export type Ticket = ConsoleResponse<'/support/ticket/{id}', 'get'>;
export type TicketStatus = Ticket['status'];
export type Batch = ConsoleResponse<'/batch', 'get'>['data'][number];
// Batches, audit log, webhook settings, the operators' supplier page.
export type BatchItem = ConsoleResponse<'/batch/{uuid}/detail', 'get'>['detail'][number];
export type AuditEntry = ConsoleResponse<'/audit', 'get'>['data'][number];
export type WebhookSettings = ConsoleResponse<'/webhook', 'get'>;

// Imports.
export type Import = ConsoleResponse<'/import/{id}', 'get'>;
export type ImportKind = ConsoleResponse<'/import/kinds', 'get'>[number];
export type FailedRow = ConsoleResponse<'/import/{id}/failures', 'get'>['data'][number];

/**
 * Every value of a union the contract declares, in the order written: the object's keys
 * must be exactly the union's members (a value the generated API types add, or drop,
 * fails typecheck here), so a filter's choices and the URL's validator never drift from it.
 */
export const valuesOf = <U extends string>(all: Record<U, true>) => Object.keys(all) as U[];

export const ORDER_STATUSES = valuesOf<OrderStatus>({ PENDING: true, CONFIRMED: true, DELIVERED: true, RETURNED: true, CANCELLED: true });
export const TICKET_STATUSES = valuesOf<TicketStatus>({ PENDING: true, IN_PROGRESS: true, ADDITIONAL_INFO_REQUESTED: true, SOLVED: true, CLOSED: true });
export const DELIVERY_STATUSES = valuesOf<Delivery['status']>({ pending: true, delivered: true, failed: true });
export const ROLES: readonly Role[] = ['owner', 'manager', 'agent', 'viewer'];

export const keys = {
  me: ['me'] as const,
  orders: (q: object) => ['orders', q] as const,
  order: (id: number) => ['order', id] as const,
  cancelCodes: ['cancel-codes'] as const,
  tickets: (q: object) => ['tickets', q] as const,
  ticket: (id: number) => ['ticket', id] as const,
  batches: (q: object) => ['batches', q] as const,
  batch: (uuid: string) => ['batch', uuid] as const,
  batchDetail: (uuid: string, q: object) => ['batch-detail', uuid, q] as const,
  audit: (q: object) => ['audit', q] as const,
  supplierCredentials: (id: number, q: object) => ['admin-supplier-credentials', id, q] as const,
  supplierWebhook: (id: number) => ['admin-supplier-webhook', id] as const,
  supplierDeliveries: (id: number, q: object) => ['admin-supplier-deliveries', id, q] as const,
  imports: (q: object) => ['imports', q] as const,
  import: (id: string) => ['import', id] as const,
  importFailures: (id: string, q: object) => ['import-failures', id, q] as const,
  importKinds: ['import-kinds'] as const,
  webhook: ['webhook'] as const,
  deliveries: (q: object) => ['deliveries', q] as const,
  members: ['members'] as const,
  credentials: (q: object) => ['credentials', q] as const,
  suppliers: ['admin-suppliers'] as const,
  supplierMembers: (id: number) => ['admin-supplier-members', id] as const,
  storeUser: (q: object) => ['admin-store-user', q] as const,
  system: ['admin-system'] as const,
};

export const useMe = () => useQuery({ queryKey: keys.me, queryFn: () => client.get('/console/me'), enabled: Boolean(session.get().token), staleTime: 30_000 });

/** The role of the person in the supplier the session acts for (undefined: none chosen). */
export function roleOf(me: Me | undefined): Role | undefined {
  return me?.memberships.find((m) => m.supplier.id === me.supplierId)?.role;
}

/**
 * What the page may offer: the scopes of the role (the service's own ROLE_SCOPES, the map
 * its guard checks), so a button shows only when the call behind it would be allowed.
 */
export function useCan() {
  const me = useMe();
  const role = roleOf(me.data);
  const scopes: readonly SupplierScope[] = role ? ROLE_SCOPES[role] : [];
  return (scope: SupplierScope) => scopes.includes(scope);
}
