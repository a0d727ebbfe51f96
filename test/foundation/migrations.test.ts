// Migrations that rewrite stored rows, run against rows written in the shape before them.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as batchItemRuns from '../../src/db/migrations/0010_batch_item_runs.ts';
import * as batchStaging from '../../src/db/migrations/0023_batch_staging.ts';
import * as batchChunks from '../../src/db/migrations/0026_batch_price_chunks.ts';
import * as productChunks from '../../src/db/migrations/0030_batch_product_chunks.ts';
import * as storeChunks from '../../src/db/migrations/0031_batch_store_chunks.ts';
import { productBatchKind } from '../../src/modules/catalog/catalog.batch.ts';
import { storeBatchKind } from '../../src/modules/stores/stores.batch.ts';
import { priceListBatchKind } from '../../src/modules/pricelists/pricelists.batch.ts';
import { loadItems } from '../../src/modules/batch/batch.repository.ts';
import { freshDatabase } from '../helpers/database.ts';

let database: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

describe('0010: batch items stored with their actions as runs', () => {
  it('rewrites batches of the old shape to the same items and actions, in order', async () => {
    const db = database.db;
    // Back to the shape before 0010: one {action, item} per item, no actions column.
    await sql`alter table batches drop column actions`.execute(db);
    const supplier = await sql<{ id: number }>`insert into suppliers (code, name) values ('MIG', 'Migration') returning id`.execute(db);
    const items = [
      { action: 'remove.products', item: { priceListInternalCode: 'L', productInternalCode: 'A' } },
      { action: 'upsert.products', item: { priceListInternalCode: 'L', productInternalCode: 'A', units: 1, price: 2.5 } },
      { action: 'upsert.products', item: { priceListInternalCode: 'L', productInternalCode: 'B', units: 6, price: 10 } },
      { action: 'upsert.stores', item: { priceListInternalCode: 'L', storeInternalCode: 'S' } },
      { action: 'upsert.products', item: { priceListInternalCode: 'L', productInternalCode: 'ñ "q"', units: 2, price: 0.0001 } },
    ];
    const ids = [randomUUID(), randomUUID()];
    const rows: [string, unknown[]][] = [[ids[0]!, items], [ids[1]!, []]];
    for (const [id, stored] of rows) {
      await sql`insert into batches (id, supplier_id, endpoint, items, total, chunk_size)
                values (${id}, ${supplier.rows[0]!.id}, '/batch/pricelist', ${JSON.stringify(stored)}, ${stored.length}, 2500)`.execute(db);
    }

    await batchItemRuns.up(db);

    const stored = await sql<{ id: string; items: unknown; actions: unknown }>`select id, items, actions from batches where id = any(${ids}::uuid[])`.execute(db);
    const byId = new Map(stored.rows.map((r) => [r.id, r]));
    expect(byId.get(ids[0]!)!.actions).toEqual([['remove.products', 1], ['upsert.products', 2], ['upsert.stores', 1], ['upsert.products', 1]]);
    expect(byId.get(ids[0]!)!.items).toEqual(items.map((i) => i.item));
    expect(byId.get(ids[1]!)).toMatchObject({ items: [], actions: [] });
    expect(await loadItems(db, ids[0]!)).toEqual(items);
  });
});

describe('0023 and 0026: price list batches staged, then staged by chunk', () => {
  it('moves the items of every price list batch, finished or not, into staged rows, then into chunk rows, that read back the same', async () => {
    const db = database.db;
    // Back to the shape before 0023: items as JSON in the batch row.
    await sql`drop table batch_price_chunks`.execute(db);
    const supplier = await sql<{ id: number }>`insert into suppliers (code, name) values ('MIG23', 'Migration 23') returning id`.execute(db);
    const items = [
      { action: 'remove.products', item: { priceListInternalCode: 'L', productInternalCode: 'A' } },
      { action: 'remove.products', item: { priceListInternalCode: 'L', productInternalCode: 'A', units: 3, price: 1 } },
      { action: 'remove.stores', item: { priceListInternalCode: 'L', storeInternalCode: 'S0' } },
      { action: 'upsert.products', item: { priceListInternalCode: 'L', productInternalCode: 'ñ "q"\ttab', units: 2, price: 0.0001 } },
      { action: 'upsert.products', item: { priceListInternalCode: 'L', productInternalCode: 'B', units: 6, price: 1234.5678 } },
      { action: 'upsert.stores', item: { priceListInternalCode: 'L', storeInternalCode: 'S' } },
    ];
    const runs = [['remove.products', 2], ['remove.stores', 1], ['upsert.products', 2], ['upsert.stores', 1]];
    const brand = [{ internalCode: 'B1', name: 'Brand' }];
    // The first batch in chunks of 4: two chunk rows, the second shorter.
    const batches = [
      { id: randomUUID(), endpoint: '/batch/pricelist', items: items.map((i) => i.item), actions: runs, finished: false, chunk: 4 },
      { id: randomUUID(), endpoint: '/batch/pricelist', items: items.slice(3).map((i) => i.item), actions: runs.slice(2), finished: true, chunk: 2500 },
      { id: randomUUID(), endpoint: '/batch/brand', items: brand, actions: [['upsert.brands', 1]], finished: false, chunk: 2500 },
    ];
    for (const b of batches) {
      await sql`insert into batches (id, supplier_id, endpoint, items, actions, total, chunk_size, finished_at)
                values (${b.id}, ${supplier.rows[0]!.id}, ${b.endpoint}, ${JSON.stringify(b.items)}, ${JSON.stringify(b.actions)}, ${b.items.length}, ${b.chunk}, ${b.finished ? sql`now()` : null})`.execute(db);
    }

    await batchStaging.up(db);
    await batchChunks.up(db);
    const chunks = await sql<{ id: string; chunk: number; n: number }>`
      select b.id, c.chunk, cardinality(c.units) as n from batch_price_chunks c join batches b on b.seq = c.batch_seq
      where b.id = any(${batches.map((b) => b.id)}::uuid[]) order by b.seq, c.chunk`.execute(db);
    expect(chunks.rows.map((r) => [r.id, r.chunk, r.n])).toEqual([
      [batches[0]!.id, 0, 4],
      [batches[0]!.id, 1, 2],
      [batches[1]!.id, 0, 3],
    ]);
    expect((await sql<{ n: number }>`select count(*)::int as n from pg_tables where tablename = 'batch_price_items'`.execute(db)).rows[0]!.n).toBe(0);

    const stored = await sql<{ id: string; seq: number; items: unknown; actions: [string, number][] }>`select id, seq, items, actions from batches where id = any(${batches.map((b) => b.id)}::uuid[])`.execute(db);
    const byId = new Map(stored.rows.map((r) => [r.id, r]));
    for (const [b, expected] of [[batches[0]!, items], [batches[1]!, items.slice(3)]] as const) {
      const row = byId.get(b.id)!;
      expect(row.items).toBeNull();
      expect(await priceListBatchKind.staging!.items(db, row.seq, row.actions)).toEqual(expected);
    }
    // Other kinds keep their JSON.
    expect(byId.get(batches[2]!.id)!.items).toEqual(brand);
  });
});

describe('0030: product batches staged by chunk', () => {
  it('moves the items of unfinished product batches into chunk rows that read back the same, and leaves finished ones their JSON', async () => {
    const db = database.db;
    // Back to the shape before 0030: product items as JSON in the batch row.
    await sql`drop table batch_product_chunks`.execute(db);
    const supplier = await sql<{ id: number }>`insert into suppliers (code, name) values ('MIG30', 'Migration 30') returning id`.execute(db);
    const items = [
      {
        internalCode: 'P-1',
        name: 'every field',
        description: 'd',
        brandInternalCode: 'B',
        categoryInternalCode: 'C',
        image: 'https://img.example.com/a.png',
        images: ['https://img.example.com/b.png'],
        enabled: false,
        ean: '77',
        displayProducts: [{ units: 12, name: 'Caja "x12"', default: true }],
      },
      { internalCode: 'P-2 ñ "q"\ttab', name: 'nothing sent', brandInternalCode: 'B', categoryInternalCode: 'C-2' },
      { internalCode: 'P-3', name: 'nulls sent', description: null, brandInternalCode: 'B2', categoryInternalCode: 'C', image: null, images: [], ean: null, displayProducts: [] },
    ].map((item) => ({ action: 'upsert', item }));
    // The unfinished batch in chunks of 2: two chunk rows, the second shorter.
    const batches = [
      { id: randomUUID(), finished: false, chunk: 2 },
      { id: randomUUID(), finished: true, chunk: 2500 },
    ];
    for (const b of batches) {
      await sql`insert into batches (id, supplier_id, endpoint, items, actions, total, chunk_size, finished_at)
                values (${b.id}, ${supplier.rows[0]!.id}, '/batch/product', ${JSON.stringify(items.map((i) => i.item))}, ${JSON.stringify([['upsert', 3]])}, 3, ${b.chunk},
                        ${b.finished ? sql`now()` : null})`.execute(db);
    }

    await productChunks.up(db);
    // What 0041 added to the table since (the case rules, null in the chunks 0030 moved), so the staging reads it as today.
    await sql`alter table batch_product_chunks add column min_units integer[], add column max_units integer[], add column multiples integer[]`.execute(db);

    const chunks = await sql<{ id: string; chunk: number; n: number }>`
      select b.id, c.chunk, cardinality(c.codes) as n from batch_product_chunks c join batches b on b.seq = c.batch_seq
      where b.id = any(${batches.map((b) => b.id)}::uuid[]) order by b.seq, c.chunk`.execute(db);
    expect(chunks.rows.map((r) => [r.id, r.chunk, r.n])).toEqual([
      [batches[0]!.id, 0, 2],
      [batches[0]!.id, 1, 1],
    ]);
    const stored = await sql<{ id: string; seq: number; items: unknown; actions: [string, number][] }>`select id, seq, items, actions from batches where id = any(${batches.map((b) => b.id)}::uuid[])`.execute(db);
    const byId = new Map(stored.rows.map((r) => [r.id, r]));
    const moved = byId.get(batches[0]!.id)!;
    expect(moved.items).toBeNull();
    expect(await productBatchKind.staging!.items(db, moved.seq, moved.actions)).toEqual(items);
    // A finished batch keeps its JSON, which the detail reads.
    expect(byId.get(batches[1]!.id)!.items).toEqual(items.map((i) => i.item));
  });
});

describe('0031: store batches staged by chunk', () => {
  it('moves the items of unfinished store batches into chunk rows that read back the same, and leaves finished ones their JSON', async () => {
    const db = database.db;
    // Back to the shape before 0031: store items as JSON in the batch row.
    await sql`drop table batch_store_chunks`.execute(db);
    const supplier = await sql<{ id: number }>`insert into suppliers (code, name) values ('MIG31', 'Migration 31') returning id`.execute(db);
    const items = [
      {
        internalCode: 'S-1',
        name: 'every field',
        legalName: 'L',
        legalId: 'I',
        ownerName: 'O',
        phone: '+573001234567',
        email: 'a@example.com',
        enabled: false,
        addresses: [{ street: 'Calle "1"', city: 'Cali', latitude: 3.45, default: true }],
        priceListCode: 'PL',
        stockGrouperCode: 'G',
        promotionGrouperCodes: ['P1', 'P2'],
        settings: { dropSize: 1500.25 },
      },
      { internalCode: 'S-2 ñ "q"\ttab', name: 'nothing sent' },
      { internalCode: 'S-3', name: 'nulls sent', legalName: null, phone: null, priceListCode: null, stockGrouperCode: null, promotionGrouperCodes: [], settings: { dropSize: null } },
      { internalCode: 'S-4', name: 'empty settings', addresses: [], settings: {} },
    ].map((item) => ({ action: 'upsert', item }));
    // The unfinished batch in chunks of 3: two chunk rows, the second shorter.
    const batches = [
      { id: randomUUID(), finished: false, chunk: 3 },
      { id: randomUUID(), finished: true, chunk: 2500 },
    ];
    for (const b of batches) {
      await sql`insert into batches (id, supplier_id, endpoint, items, actions, total, chunk_size, finished_at)
                values (${b.id}, ${supplier.rows[0]!.id}, '/batch/store', ${JSON.stringify(items.map((i) => i.item))}, ${JSON.stringify([['upsert', 4]])}, 4, ${b.chunk},
                        ${b.finished ? sql`now()` : null})`.execute(db);
    }

    await storeChunks.up(db);
    // What 0034 added to the table since (deliveryZoneCode, null in the chunks 0031 moved), so the staging reads it as today.
    await sql`alter table batch_store_chunks add column delivery_zones text[], add column delivery_zone_ix int[]`.execute(db);
    // And what 0042 added (credit, null in those chunks).
    await sql`alter table batch_store_chunks add column credits json`.execute(db);

    const chunks = await sql<{ id: string; chunk: number; n: number }>`
      select b.id, c.chunk, cardinality(c.codes) as n from batch_store_chunks c join batches b on b.seq = c.batch_seq
      where b.id = any(${batches.map((b) => b.id)}::uuid[]) order by b.seq, c.chunk`.execute(db);
    expect(chunks.rows.map((r) => [r.id, r.chunk, r.n])).toEqual([
      [batches[0]!.id, 0, 3],
      [batches[0]!.id, 1, 1],
    ]);
    const stored = await sql<{ id: string; seq: number; items: unknown; actions: [string, number][] }>`select id, seq, items, actions from batches where id = any(${batches.map((b) => b.id)}::uuid[])`.execute(db);
    const byId = new Map(stored.rows.map((r) => [r.id, r]));
    const moved = byId.get(batches[0]!.id)!;
    expect(moved.items).toBeNull();
    expect(await storeBatchKind.staging!.items(db, moved.seq, moved.actions)).toEqual(items);
    expect(byId.get(batches[1]!.id)!.items).toEqual(items.map((i) => i.item));
  });
});
