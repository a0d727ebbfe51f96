// A price list and a grouper are both a supplier's named set of stores: their list pages
// answer each one the same way, without its stores, with how many there are.

export interface StoreSetRow {
  internal_code: string;
  name: string | null;
  enabled: boolean;
  store_count: number | null;
  created_at: Date;
  updated_at: Date;
}

/** A set of stores as a list page answers it (GET /pricelist, GET /grouper/stock and /grouper/promotion). */
export const storeSetSummary = <Row extends StoreSetRow>(row: Row) => ({
  internalCode: row.internal_code,
  name: row.name as Row['name'], // a grouper's name stays non-null in its answer's type
  enabled: row.enabled,
  storeCount: row.store_count ?? 0,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});
