// Every scope a supplier credential can hold (docs/conventions.md). A credential issued
// without a list gets all of them; a scope added later reaches only credentials issued
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
] as const;

export type SupplierScope = (typeof SUPPLIER_SCOPES)[number];

export const isSupplierScope = (value: string): value is SupplierScope =>
  (SUPPLIER_SCOPES as readonly string[]).includes(value);
