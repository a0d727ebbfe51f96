import type { MemberRole } from '../../db/types.ts';

// Every scope a supplier credential can hold (docs/conventions.md). A credential issued
// without a list gets all of them but OWNER_ONLY_SCOPES; a scope added later reaches only credentials issued
// after it (the list is stored with each credential: supplier/audit.read came this way).
export const SUPPLIER_SCOPES = [
  'supplier/pricelist.read',
  'supplier/pricelist.write',
  'supplier/pricelist.bulkwrite',
  'supplier/grouper.read',
  'supplier/grouper.write',
  'supplier/grouper.bulkwrite',
  'supplier/promotion.read',
  'supplier/promotion.write',
  'supplier/promotion.bulkwrite',
  'supplier/support.read',
  'supplier/support.write',
  'supplier/catalog.read',
  'supplier/catalog.write',
  'supplier/catalog.bulkwrite',
  'supplier/stock.bulkwrite',
  'supplier/store.read',
  'supplier/store.write',
  'supplier/store.bulkwrite',
  'supplier/order.read',
  'supplier/order.write',
  'supplier/order.bulkwrite',
  'supplier/batch.read',
  'supplier/webhook.read',
  'supplier/webhook.write',
  'supplier/audit.read',
  // The supplier's own API credentials (ids, scopes, dates; never a secret): an owner's
  // read in the console, kept apart from the other reads so a role can go without it.
  'supplier/credential.read',
  // The supplier's people (src/modules/members): listing them, and inviting, changing and
  // removing them. Writing members and credentials is an owner's power: it is never in a
  // credential's default set, so a machine creates owners only when an operator grants it.
  'supplier/member.read',
  'supplier/member.write',
  'supplier/credential.write',
] as const;

export type SupplierScope = (typeof SUPPLIER_SCOPES)[number];

/** Scopes only an operator grants a credential by naming them (never a default). */
export const OWNER_ONLY_SCOPES: readonly SupplierScope[] = ['supplier/member.write', 'supplier/credential.write'];

/** What a credential issued without a list of scopes holds. */
export const DEFAULT_SCOPES: readonly SupplierScope[] = SUPPLIER_SCOPES.filter((s) => !OWNER_ONLY_SCOPES.includes(s));

/** Every role, in order of power; the column's type (src/db/types.ts) is the same list. */
export const MEMBER_ROLES = ['owner', 'manager', 'agent', 'viewer'] as const satisfies readonly MemberRole[];

/**
 * The scopes of a supplier member's role: a member's request is checked by the same scope
 * rules as a credential's (src/modules/console/README.md).
 * - owner: everything, members and credentials included;
 * - manager: every read and write of the supplier API, no members or credentials;
 * - agent: orders and tickets only;
 * - viewer: every read but the credentials and the members.
 */
const PEOPLE_SCOPES: readonly SupplierScope[] = ['supplier/member.read', 'supplier/credential.read', ...OWNER_ONLY_SCOPES];
export const ROLE_SCOPES: Record<MemberRole, readonly SupplierScope[]> = {
  owner: SUPPLIER_SCOPES,
  manager: SUPPLIER_SCOPES.filter((s) => !PEOPLE_SCOPES.includes(s)),
  agent: ['supplier/order.read', 'supplier/order.write', 'supplier/support.read', 'supplier/support.write'],
  viewer: SUPPLIER_SCOPES.filter((s) => s.endsWith('.read') && !PEOPLE_SCOPES.includes(s)),
};

export const isSupplierScope = (value: string): value is SupplierScope =>
  (SUPPLIER_SCOPES as readonly string[]).includes(value);

/** A supplier route's `scope` when any authenticated caller may call it (GET /supplier: who am I). */
export const ANY_SCOPE = 'any';
