// The retention job on a database seeded with old and new rows of every kind: one sweep
// (in chunks of one or two rows, so the chunking is exercised) deletes exactly the old.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { LocalImageStorage } from '../../src/modules/images/images.storage.ts';
import { retentionKinds, sweep } from '../../src/modules/retention/retention.job.ts';
import { STAGING_TABLES } from '../../src/modules/retention/retention.repository.ts';
import { createTestApp, ADMIN_TOKEN, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let supplierId: number;
let storage: LocalImageStorage;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-retention-'));

const ago = (interval: string) => sql`now() - ${interval}::interval`;
const q = (text: ReturnType<typeof sql>) => text.execute(t.deps.db);

const batch = async (finished: string | null, created = '0 days', results = 1) => {
  const id = randomUUID();
  await q(sql`insert into batches (id, supplier_id, endpoint, items, actions, total, chunk_size, status, created_at, finished_at)
              values (${id}, ${supplierId}, '/batch/brand', '[]', '[]', ${results}, 1, ${finished ? 'processed' : 'processing'}, ${ago(created)}, ${finished ? ago(finished) : null})`);
  await q(sql`insert into batch_item_results (supplier_id, batch_id, idx, status, error_code)
              select ${supplierId}, ${id}, i, 'failed', 'X' from generate_series(0, ${results - 1}) as i`);
  return id;
};
/** A batch of a staged kind (POST /batch/pricelist): its items are rows of batch_price_chunks (a chunk per item here), not JSON. */
const stagedBatch = async (finished: string | null, created: string, items: number) => {
  const id = randomUUID();
  const row = await sql<{ seq: number }>`insert into batches (id, supplier_id, endpoint, items, actions, total, chunk_size, status, created_at, finished_at)
              values (${id}, ${supplierId}, '/batch/pricelist', null, ${JSON.stringify([['upsert.products', items]])}, ${items}, 1, ${finished ? 'processed' : 'processing'}, ${ago(created)}, ${finished ? ago(finished) : null})
              returning seq`.execute(t.deps.db);
  await q(sql`insert into batch_price_chunks (batch_seq, chunk, lists, list_ix, codes, code_ix, units, prices)
              select ${row.rows[0]!.seq}, i, '{L}', '{1}', array['P' || i], '{1}', '{1}', '{1}' from generate_series(0, ${items - 1}) as i`);
  return id;
};
/** A batch of POST /batch/product, also staged: its items are rows of batch_product_chunks (a chunk per item here). */
const stagedProductBatch = async (finished: string | null, created: string, items: number) => {
  const id = randomUUID();
  const row = await sql<{ seq: number }>`insert into batches (id, supplier_id, endpoint, items, actions, total, chunk_size, status, created_at, finished_at)
              values (${id}, ${supplierId}, '/batch/product', null, ${JSON.stringify([['upsert', items]])}, ${items}, 1, ${finished ? 'processed' : 'processing'}, ${ago(created)}, ${finished ? ago(finished) : null})
              returning seq`.execute(t.deps.db);
  await q(sql`insert into batch_product_chunks (batch_seq, chunk, codes, names, descriptions, brands, brand_ix, categories, category_ix, image_urls, images, eans, enabled, display_products, sent)
              select ${row.rows[0]!.seq}, i, array['P' || i], '{n}', '{NULL}', '{B}', '{1}', '{C}', '{1}', '{NULL}', '[null]', '{NULL}', '{NULL}', '[null]', '{0}'
              from generate_series(0, ${items - 1}) as i`);
  return id;
};
/** A file import (src/modules/imports) whose one part is a batch's items, or rows refused before sending (batchId null). */
const fileImport = async (created: string, batchId: string | null) => {
  const id = randomUUID();
  await q(sql`insert into imports (id, supplier_id, kind, format, file_name, uploaded_by_kind, uploaded_by, rows_read, refused, sent, created_at)
              values (${id}, ${supplierId}, 'brands', 'csv', 'brands.csv', 'credential', 'cli', 1, ${batchId ? 0 : 1}, ${batchId ? 1 : 0}, ${ago(created)})`);
  await q(sql`insert into import_parts (import_id, part, batch_id, first_idx, lines, originals) values (${id}, 0, ${batchId}, 0, '{2}', '[["B"]]')`);
  return id;
};
const event = async (created: string) => {
  const row = await sql<{ id: number }>`insert into webhook_events (supplier_id, message_id, type, path, body, created_at)
    values (${supplierId}, ${randomUUID()}, 'order.created', '/webhooks/order', '{}', ${ago(created)}) returning id`.execute(t.deps.db);
  return row.rows[0]!.id;
};
const delivery = async (eventId: number, finished: string | null, created = '40 days') => {
  const row = await sql<{ id: number }>`insert into webhook_deliveries (supplier_id, event_id, event_type, status, created_at, finished_at)
    values (${supplierId}, ${eventId}, 'order.created', ${finished ? 'delivered' : 'pending'}, ${ago(created)}, ${finished ? ago(finished) : null}) returning id`.execute(t.deps.db);
  const id = row.rows[0]!.id;
  await q(sql`insert into webhook_attempts (supplier_id, delivery_id, at, status_code, latency_ms) values (${supplierId}, ${id}, ${ago(created)}, 200, 5)`);
  return id;
};
const variants = (hash: string) => ({
  original: { file: 'original.jpg', contentType: 'image/jpeg', width: 1, height: 1, bytes: 1 },
  '160': { file: '160.webp', contentType: 'image/webp', width: 1, height: 1, bytes: 1 },
  '480': { file: '480.webp', contentType: 'image/webp', width: 1, height: 1, bytes: 1 },
  '1024': { file: '1024.webp', contentType: 'image/webp', width: 1, height: 1, bytes: 1 },
  hash,
});
const image = async (url: string, hash: string | null, updated: string) => {
  const v = hash ? variants(hash) : null;
  if (v) delete (v as { hash?: string }).hash;
  await q(sql`insert into images (supplier_id, url, status, content_hash, variants, updated_at)
              values (${supplierId}, ${url}, ${hash ? 'ready' : 'pending'}, ${hash}, ${v ? JSON.stringify(v) : null}, ${ago(updated)})`);
  if (hash) for (const file of ['original.jpg', '160.webp', '480.webp', '1024.webp']) await storage.put(`${hash}/${file}`, Buffer.from(file));
};
// LocalImageStorage keeps `<hash>/<file>` under a two-letter folder (images.storage.ts).
const fileExists = async (key: string) => fs.existsSync(path.join(root, 'images', key.slice(0, 2), key));

const seeded: Record<string, unknown> = {};

beforeAll(async () => {
  t = await createTestApp({ worker: false });
  storage = new LocalImageStorage(path.join(root, 'images'));
  const created = await t.admin('POST', '/admin/suppliers', { code: 'RET', name: 'Retention' });
  supplierId = created.json().id;

  seeded.oldBatches = [await batch('40 days', '41 days'), await batch('31 days', '41 days'), await batch('35 days', '36 days')];
  seeded.newBatch = await batch('1 day', '2 days');
  seeded.unfinishedBatch = await batch(null, '60 days');
  seeded.oldStaged = await stagedBatch('40 days', '41 days', 3);
  seeded.newStaged = await stagedBatch('1 day', '2 days', 2);
  seeded.unfinishedStaged = await stagedBatch(null, '60 days', 1);
  seeded.oldStagedProducts = await stagedProductBatch('40 days', '41 days', 2);
  seeded.newStagedProducts = await stagedProductBatch('1 day', '2 days', 1);
  // Imports go once every batch of theirs finished before the cutoff (or they sent none).
  seeded.oldImports = [await fileImport('41 days', (seeded.oldBatches as string[])[0]!), await fileImport('40 days', null)];
  seeded.newImport = await fileImport('2 days', seeded.newBatch as string);
  seeded.unfinishedImport = await fileImport('60 days', seeded.unfinishedBatch as string);

  const onlyOld = await event('40 days');
  const stillPending = await event('40 days');
  const recent = await event('1 day');
  seeded.events = { onlyOld, stillPending, recent };
  seeded.oldDeliveries = [await delivery(onlyOld, '40 days'), await delivery(onlyOld, '39 days')];
  seeded.pendingDelivery = await delivery(stillPending, null);
  seeded.newDelivery = await delivery(recent, '1 day', '1 day');

  await q(sql`insert into idempotency_keys (owner, key, request_hash, state, created_at) values
              ('admin', 'old-1', 'h', 'done', ${ago('3 days')}), ('admin', 'old-2', 'h', 'done', ${ago('5 days')}), ('admin', 'new', 'h', 'done', ${ago('1 day')})`);
  await q(sql`insert into sign_in_codes (identifier, code_hash, expires_at, consumed_at, created_at) values
              ('old-used', 'h', ${ago('9 days')}, ${ago('10 days')}, ${ago('10 days')}),
              ('old-expired', 'h', ${ago('8 days')}, null, ${ago('8 days')}),
              ('recent', 'h', ${ago('1 hour')}, null, ${ago('2 hours')}),
              ('live', 'h', now() + interval '5 minutes', null, now())`);

  await q(sql`insert into brands (supplier_id, internal_code, name, image) values (${supplierId}, 'B1', 'Brand', 'https://img.test/kept.jpg')`);
  await q(sql`insert into categories (supplier_id, internal_code, name) values (${supplierId}, 'C1', 'Cat')`);
  await q(sql`insert into products (supplier_id, internal_code, name, brand_id, category_id, images, display_products)
              select ${supplierId}, 'P1', 'Product', b.id, c.id, array['https://img.test/gallery.jpg'], '[]'
                from brands b, categories c where b.internal_code = 'B1' and c.internal_code = 'C1'`);
  await image('https://img.test/kept.jpg', 'sharedhash', '40 days'); // referenced by the brand
  await image('https://img.test/gallery.jpg', 'galleryhash', '40 days'); // referenced by a product's images
  await image('https://img.test/gone.jpg', 'gonehash', '40 days'); // nobody: row and files go
  await image('https://img.test/gone-shared.jpg', 'sharedhash', '40 days'); // nobody, but its bytes are the brand's
  await image('https://img.test/gone-pending.jpg', null, '40 days'); // nobody, never downloaded
  await image('https://img.test/recent.jpg', 'recenthash', '1 day'); // nobody, but recent

  // Messages: done and old go (their attempts with them); pending ones stay, however old
  // (due tomorrow, so the test app's message worker leaves it pending).
  for (const [recipient, status, created] of [
    ['old-sent', 'sent', '40 days'],
    ['old-dropped', 'dropped', '31 days'],
    ['old-pending', 'pending', '40 days'],
    ['recent-sent', 'sent', '1 day'],
  ] as const) {
    const row = await sql<{ id: number }>`insert into messages (purpose, to_kind, recipient, body, status, created_at, next_attempt_at)
      values ('event', 'email', ${recipient}, 'b', ${status}, ${ago(created)}, now() + interval '1 day') returning id`.execute(t.deps.db);
    await q(sql`insert into message_attempts (message_id, attempt, channel, ok, duration_ms) values (${row.rows[0]!.id}, 1, 'email', true, 3)`);
  }

  // Sessions: ended more than 7 days ago (signed out, expired) go; live ones and recently ended ones stay.
  await q(sql`insert into console_sessions (id, email, expires_at, ends_at, revoked_at) values
              ('c-signed-out', 'a@x.test', now() + interval '1 hour', now() + interval '1 hour', ${ago('8 days')}),
              ('c-expired', 'a@x.test', ${ago('8 days')}, ${ago('8 days')}, null),
              ('c-recent', 'a@x.test', ${ago('1 day')}, ${ago('1 day')}, null),
              ('c-live', 'a@x.test', now() + interval '1 hour', now() + interval '1 hour', null)`);
  const person = (await sql<{ id: number }>`insert into people (phone) values ('+570000000999') returning id`.execute(t.deps.db)).rows[0]!.id;
  await q(sql`insert into store_sessions (id, person_id, expires_at, revoked_at) values
              ('s-ended', ${person}, now() + interval '1 day', ${ago('8 days')}),
              ('s-expired', ${person}, ${ago('9 days')}, null),
              ('s-recent', ${person}, now() + interval '1 day', ${ago('1 day')}),
              ('s-live', ${person}, now() + interval '1 day', null)`);
  await q(sql`insert into audit_entries (at, supplier_id, actor_kind, actor_id, operation, entity) values
              (${ago('400 days')}, ${supplierId}, 'operator', 'admin', 'PUT /x', 'old'),
              (${ago('366 days')}, null, 'operator', 'admin', 'PUT /x', 'old')`);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const ids = async (query: ReturnType<typeof sql>) => ((await query.execute(t.deps.db)).rows as { k: unknown }[]).map((r) => r.k).sort();

describe('the retention job', () => {
  it('deletes exactly the rows past their retention, in bounded chunks, and the files of images nothing refers to', async () => {
    const config = loadConfig({ NODE_ENV: 'test', ADMIN_TOKEN, RETENTION_CHUNK_SIZE: '2' });
    const deleted = await sweep({ db: t.deps.db, storage }, config, { chunk: config.retention.chunkSize });
    expect(deleted).toEqual({
      'import parts': 2,
      imports: 2,
      'batch item results': 3,
      'staged batch items': 5,
      batches: 5,
      'webhook deliveries': 2,
      'webhook events': 1,
      'idempotency keys': 2,
      'sign-in codes': 2,
      'console sessions': 2,
      'store sessions': 2,
      images: 3,
      'audit entries': 2,
      messages: 2,
    });
    expect(await ids(sql`select recipient as k from messages`)).toEqual(['old-pending', 'recent-sent']);
    expect(await ids(sql`select m.recipient as k from message_attempts a join messages m on m.id = a.message_id`)).toEqual(['old-pending', 'recent-sent']);

    expect(await ids(sql`select id::text as k from batches`)).toEqual([seeded.newBatch, seeded.unfinishedBatch, seeded.newStaged, seeded.unfinishedStaged, seeded.newStagedProducts].sort());
    // Staged items go with their batch, and only with it: none is left without one.
    expect(await ids(sql`select b.id::text || '/' || s.chunk as k from batch_price_chunks s join batches b on b.seq = s.batch_seq`)).toEqual(
      [`${seeded.newStaged}/0`, `${seeded.newStaged}/1`, `${seeded.unfinishedStaged}/0`].sort(),
    );
    expect(await ids(sql`select s.chunk as k from batch_price_chunks s where not exists (select 1 from batches b where b.seq = s.batch_seq)`)).toEqual([]);
    expect(await ids(sql`select b.id::text || '/' || s.chunk as k from batch_product_chunks s join batches b on b.seq = s.batch_seq`)).toEqual([`${seeded.newStagedProducts}/0`]);
    expect(await ids(sql`select s.chunk as k from batch_product_chunks s where not exists (select 1 from batches b where b.seq = s.batch_seq)`)).toEqual([]);
    expect(await ids(sql`select id::text as k from imports`)).toEqual([seeded.newImport, seeded.unfinishedImport].sort());
    expect(await ids(sql`select import_id::text as k from import_parts`)).toEqual([seeded.newImport, seeded.unfinishedImport].sort());
    expect(await ids(sql`select batch_id::text as k from batch_item_results`)).toEqual([seeded.newBatch, seeded.unfinishedBatch].sort());
    expect(await ids(sql`select id as k from webhook_deliveries`)).toEqual([seeded.pendingDelivery, seeded.newDelivery].sort());
    expect(await ids(sql`select delivery_id as k from webhook_attempts`)).toEqual([seeded.pendingDelivery, seeded.newDelivery].sort());
    const events = seeded.events as Record<string, number>;
    expect(await ids(sql`select id as k from webhook_events`)).toEqual([events.stillPending, events.recent].sort());
    expect(await ids(sql`select key as k from idempotency_keys`)).toEqual(['new']);
    expect(await ids(sql`select identifier as k from sign_in_codes`)).toEqual(['live', 'recent']);
    expect(await ids(sql`select id as k from console_sessions`)).toEqual(['c-live', 'c-recent']);
    expect(await ids(sql`select id as k from store_sessions`)).toEqual(['s-live', 's-recent']);
    expect(await ids(sql`select url as k from images`)).toEqual(['https://img.test/gallery.jpg', 'https://img.test/kept.jpg', 'https://img.test/recent.jpg']);
    expect(await fileExists('gonehash/original.jpg')).toBe(false);
    expect(await fileExists('gonehash/480.webp')).toBe(false);
    expect(await fileExists('sharedhash/original.jpg')).toBe(true);
    expect(await fileExists('galleryhash/1024.webp')).toBe(true);
    expect(await fileExists('recenthash/160.webp')).toBe(true);
    expect(await ids(sql`select entity as k from audit_entries where entity = 'old'`)).toEqual([]);
    expect((await ids(sql`select id as k from audit_entries`)).length).toBeGreaterThan(0); // the supplier's creation, just now

    // A second sweep finds nothing more.
    expect(Object.values(await sweep({ db: t.deps.db, storage }, config, { chunk: 5000 })).every((n) => n === 0)).toBe(true);
  });

  it('sweeps the staging table of every staged batch kind', () => {
    const declared = t.deps.batches.all().flatMap((kind) => (kind.staging ? [kind.staging.table] : []));
    expect([...STAGING_TABLES].sort()).toEqual(declared.sort());
  });

  it('deletes a batch with many item results in chunks of at most the chunk size, the batch row last', async () => {
    const big = await batch('40 days', '41 days', 5);
    const kind = (name: string) => retentionKinds.find((k) => k.name === name)!;
    const ctx = { db: t.deps.db, storage };
    const left = async () => Number((await sql<{ n: number }>`select count(*)::int as n from batch_item_results where batch_id = ${big}`.execute(t.deps.db)).rows[0]!.n);
    const batchExists = async () => (await sql`select 1 from batches where id = ${big}`.execute(t.deps.db)).rows.length === 1;
    // While any result is left the batch row stays: deleting it would cascade to an unbounded number of rows.
    expect(await kind('batches').sweep(ctx, 30, 5000)).toBe(0);
    expect(await batchExists()).toBe(true);
    const chunks: number[] = [];
    for (let n; (n = await kind('batch item results').sweep(ctx, 30, 2)) > 0; ) chunks.push(n);
    expect(chunks).toEqual([2, 2, 1]);
    expect(await left()).toBe(0);
    expect(await kind('batches').sweep(ctx, 30, 5000)).toBe(1);
    expect(await batchExists()).toBe(false);
  });

  it('keeps a kind for ever when its setting is 0, and refuses a setting that would drop live idempotency keys', async () => {
    await q(sql`insert into audit_entries (at, supplier_id, actor_kind, actor_id, operation, entity) values (${ago('900 days')}, null, 'operator', 'admin', 'PUT /x', 'ancient')`);
    const config = loadConfig({ NODE_ENV: 'test', ADMIN_TOKEN, AUDIT_RETENTION_DAYS: '0' });
    const deleted = await sweep({ db: t.deps.db, storage }, config, { chunk: 10 });
    expect(deleted['audit entries']).toBeUndefined();
    expect(await ids(sql`select entity as k from audit_entries where entity = 'ancient'`)).toEqual(['ancient']);
    expect(() => loadConfig({ NODE_ENV: 'test', ADMIN_TOKEN, IDEMPOTENCY_RETENTION_DAYS: '1' })).toThrow(/IDEMPOTENCY_RETENTION_DAYS/);
  });
});
