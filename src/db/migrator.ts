import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m0001 from './migrations/0001_foundation.ts';
import * as m0002 from './migrations/0002_groupers_stores_stock.ts';
import * as m0003 from './migrations/0003_images.ts';
import * as m0004 from './migrations/0004_promotions.ts';
import * as m0005 from './migrations/0005_store_sign_in.ts';
import * as m0006 from './migrations/0006_webhooks_tickets.ts';
import * as m0007 from './migrations/0007_orders.ts';
import * as m0008 from './migrations/0008_batch_key_ranges.ts';
import * as m0009 from './migrations/0009_webhook_in_flight.ts';
import * as m0010 from './migrations/0010_batch_item_runs.ts';
import * as m0011 from './migrations/0011_store_identity.ts';
import * as m0012 from './migrations/0012_messages.ts';
import * as m0013 from './migrations/0013_audit_entries.ts';
import * as m0014 from './migrations/0014_retention.ts';
import * as m0016 from './migrations/0016_store_data_changed.ts';
import * as m0019 from './migrations/0019_traceparent.ts';
import * as m0020 from './migrations/0020_console_reads.ts';
import * as m0021 from './migrations/0021_members_and_sessions.ts';
import * as m0022 from './migrations/0022_imports.ts';
import * as m0023 from './migrations/0023_batch_staging.ts';
import * as m0024 from './migrations/0024_webhook_due_by_supplier.ts';
import * as m0025 from './migrations/0025_codes_collate_c.ts';
import * as m0026 from './migrations/0026_batch_price_chunks.ts';
import * as m0027 from './migrations/0027_batches_pending_seq.ts';
import * as m0028 from './migrations/0028_order_storage.ts';
import * as m0029 from './migrations/0029_product_keys_by_supplier.ts';
import * as m0030 from './migrations/0030_batch_product_chunks.ts';
import * as m0031 from './migrations/0031_batch_store_chunks.ts';
import * as m0032 from './migrations/0032_order_store_by_supplier.ts';
import * as m0033 from './migrations/0033_hashed_sessions.ts';
import * as m0034 from './migrations/0034_delivery_zones.ts';
import * as m0036 from './migrations/0036_sign_in_guesses.ts';
import * as m0037 from './migrations/0037_sandbox.ts';
import * as m0040 from './migrations/0040_order_guide_recommendations.ts';
import * as m0041 from './migrations/0041_case_rules_minimums.ts';
import * as m0042 from './migrations/0042_credit.ts';
import * as m0043 from './migrations/0043_sellers.ts';

// Listed explicitly (no directory scan): the set of migrations is part of the code.
const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_groupers_stores_stock': m0002,
  '0003_images': m0003,
  '0004_promotions': m0004,
  '0005_store_sign_in': m0005,
  '0006_webhooks_tickets': m0006,
  '0007_orders': m0007,
  '0008_batch_key_ranges': m0008,
  '0009_webhook_in_flight': m0009,
  '0010_batch_item_runs': m0010,
  '0011_store_identity': m0011,
  '0012_messages': m0012,
  '0013_audit_entries': m0013,
  '0014_retention': m0014,
  '0016_store_data_changed': m0016,
  '0019_traceparent': m0019,
  '0020_console_reads': m0020,
  '0021_members_and_sessions': m0021,
  '0022_imports': m0022,
  '0023_batch_staging': m0023,
  '0024_webhook_due_by_supplier': m0024,
  '0025_codes_collate_c': m0025,
  '0026_batch_price_chunks': m0026,
  '0027_batches_pending_seq': m0027,
  '0028_order_storage': m0028,
  '0029_product_keys_by_supplier': m0029,
  '0030_batch_product_chunks': m0030,
  '0031_batch_store_chunks': m0031,
  '0032_order_store_by_supplier': m0032,
  '0033_hashed_sessions': m0033,
  '0034_delivery_zones': m0034,
  '0036_sign_in_guesses': m0036,
  '0037_sandbox': m0037,
  '0040_order_guide_recommendations': m0040,
  '0041_case_rules_minimums': m0041,
  '0042_credit': m0042,
  '0043_sellers': m0043,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every migration the code knows has been applied. */
export async function isMigrated(db: Kysely<any>): Promise<boolean> {
  const migrator = new Migrator({ db, provider });
  const all = await migrator.getMigrations();
  return all.every((m) => m.executedAt !== undefined);
}
