// Hostile requests for every operation of the OpenAPI document: wrong types, missing and
// unknown fields, huge strings and arrays, deep nesting, odd Unicode, numbers beyond
// their limits, malformed JSON and wrong content types. No answer may be a 5xx, every
// error is problem details with a code, and a refused request (any 4xx) writes nothing:
// the database's fingerprint (fingerprint.ts) after it equals the one before it. The
// paths name entities that exist (world.ts: a price list, a store, an order, a ticket...),
// so a refusal is tried where there is something to write to. Driven by the committed
// document, so a new operation is covered without being listed.
import fs from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { changedTables, countWrites, fingerprint, publicTables, type Fingerprint } from './fingerprint.ts';
import { buildWorld, type World } from './world.ts';

const doc = JSON.parse(fs.readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
let t: TestApp;
let w: World;
let s: TestSupplier;
let storeToken: string;
let tried = 0;
let refused = 0;
let tables: string[];
/** The database as the last request left it. */
let last: Fingerprint;
/** The rows written so far (countWrites), and the count when `last` was taken. */
let writes: () => Promise<number>;
let lastWrites: number;

/**
 * Refusals that write by design, and what they write. Everything else refused must leave
 * every table as it was. (Idempotency records are not here: these requests send no
 * Idempotency-Key; one that does has its 4xx answer kept, by design, in idempotency_keys.)
 */
const WRITES_WHEN_REFUSED: Record<string, string[]> = {
  // A wrong code counts a try on the person's live code, and 5 wrong tries burn it
  // (src/modules/store-app/README.md); the 401 that says so is the refusal.
  'POST /app/auth/token': ['sign_in_codes'],
};

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  // From here on nothing may write behind a request's back: a batch it queues stays queued.
  await t.worker!.stop();
  s = w.a;
  storeToken = w.p1.headers.authorization!.replace('Bearer ', '');
  tables = await publicTables(t.deps.db);
  writes = await countWrites(t.deps.db, tables);
  last = await fingerprint(t.deps.db, tables);
  lastWrites = await writes();
});
afterAll(async () => {
  console.log(`hostile input: ${tried} requests tried, ${refused} refused (each checked to have written nothing)`);
  await t.close();
});

interface Operation {
  method: string;
  /** The document's path, with {param} templates. */
  path: string;
  /** A query string to append. */
  query?: string;
  properties: string[];
  auth: 'supplier' | 'admin' | 'store' | 'public';
}

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      const security = JSON.stringify(op.security ?? []);
      const auth = security.includes('apiKey') ? 'supplier' : security.includes('admin') ? 'admin' : path.startsWith('/app/') ? 'store' : 'public';
      const schema = op.requestBody?.content?.['application/json']?.schema ?? {};
      out.push({ method: method.toUpperCase(), path, properties: Object.keys(schema.properties ?? {}), auth });
    }
  }
  return out;
}

/** The path with its parameters naming the world's entities (the caller's own). */
function urlOf(op: Operation): string {
  const c = w.codes;
  const codes: Record<string, string> = { pricelist: c.priceList, brand: c.brand, category: c.category, product: c.product, store: c.store1, promotion: c.promotion };
  const root = op.path.split('/')[1]!;
  const value = (name: string): string | number => {
    if (name === 'uuid') return w.batchId;
    if (name === 'supplierId') return w.a.id;
    if (name === 'storeId') return w.stores.s1;
    if (name === 'id') return op.path.includes('ticket') ? w.tickets.pending : op.path.includes('deliveries') ? w.deliveryId : w.orders.pending;
    if (name === 'code') return root === 'grouper' ? (op.path.endsWith('stock') ? c.stockGrouper : c.promotionGrouper) : (codes[root] ?? 'X');
    // clientId: a real one would be revoked by the first DELETE, and every later request refused for it.
    return 'X';
  };
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(value(name)))) + (op.query ?? '');
}

const headersFor = (op: Operation): Record<string, string> =>
  op.auth === 'supplier' ? s.headers : op.auth === 'admin' ? { authorization: `Bearer ${t.config.adminToken}` } : op.auth === 'store' ? { authorization: `Bearer ${storeToken}` } : {};

async function check(op: Operation, payload: string, contentType = 'application/json', what = '') {
  tried++;
  const url = urlOf(op);
  const res = await t.request({ method: op.method as 'POST', url, headers: { ...headersFor(op), 'content-type': contentType }, payload });
  const label = `${op.method} ${url} ${what}: ${payload.slice(0, 120)}`;
  expect(res.statusCode, label).toBeLessThan(500);
  if (res.statusCode >= 400) {
    expect(res.headers['content-type'], label).toMatch(/^application\/problem\+json/);
    expect(typeof res.json().code, label).toBe('string');
  }
  if (res.statusCode >= 400) refused++;
  // No row written since the last fingerprint: the database is as it was (fingerprinting
  // every table around each of the 2,600 requests took two thirds of the file's time).
  const written = await writes();
  if (written === lastWrites) return res;
  const now = await fingerprint(t.deps.db, tables);
  if (res.statusCode >= 400) {
    expect(changedTables(last, now, WRITES_WHEN_REFUSED[`${op.method} ${op.path}`]), `${label}: refused with ${res.statusCode}, yet wrote to`).toEqual([]);
  }
  last = now;
  lastWrites = written;
  return res;
}

const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const FIXED = ['[]', '"text"', '123', 'null', '{}', '{"a":', '\u0000', deep(2000), JSON.stringify({ internalCode: 'x'.repeat(100_000), name: 'y'.repeat(10_000) })];
const odd = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('\u0000', '\u202e', ' padded ', '\ud800', '💥'.repeat(300), '9'.repeat(400), '2026-02-30', '1e309', '-0'),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 0, 1e21, 0.00001),
  fc.anything({ maxDepth: 3 }),
);

const OPS = operations().filter((op) => ['GET', 'POST', 'PUT', 'DELETE'].includes(op.method));

describe('hostile input', () => {
  it('covers every operation of the document', () => expect(OPS.length).toBeGreaterThan(60));

  it('sees a write in the fingerprint and in the count of written rows (so an unchanged one means nothing was written)', async () => {
    const res = await t.request({ method: 'PUT', url: '/category', headers: s.headers, payload: { internalCode: 'FP', name: 'Fingerprint' } });
    expect(res.statusCode, res.body).toBe(200);
    const now = await fingerprint(t.deps.db, tables);
    // The write and its audit entry, in one transaction; the count of written rows moved.
    expect(changedTables(last, now)).toEqual(['audit_entries', 'categories']);
    expect(await writes()).toBeGreaterThan(lastWrites);
    last = now;
    lastWrites = await writes();
  });

  it('refuses a batch request of more items than allowed with 402, not a failure', async () => {
    const op = OPS.find((o) => o.method === 'POST' && o.path === '/batch/brand')!;
    const items = Array.from({ length: 50_001 }, (_, i) => ({ internalCode: `B${i}`, name: 'b' }));
    const res = await check(op, JSON.stringify({ upsert: items }), 'application/json', 'too many items');
    expect(res.statusCode, res.body).toBe(402);
    const problem = res.json();
    expect([problem.code, ...(problem.errors ?? []).map((e: { code: string }) => e.code)]).toContain('TOO_MANY_ITEMS');
  });

  it.each(OPS.map((op) => [`${op.method} ${op.path}`, op] as const))('%s never answers a 5xx, and every error is problem details', async (_, op) => {
    if (op.method === 'GET') {
      await check({ ...op, query: '?take=abc&page=-1&from=2026-13-45&enabled=maybe&status=%00' }, '', 'application/json', 'bad query');
      return;
    }
    for (const payload of FIXED) await check(op, payload);
    // Every known field at once holding the NUL character, a lone surrogate, then an
    // integer beyond 2^63: none fits PostgreSQL, so each must be refused before it gets there.
    for (const value of ['a\u0000b', 'a\ud800b', 9223372036854776000, 1e21]) {
      await check(op, JSON.stringify(Object.fromEntries(op.properties.map((p) => [p, value]))), 'application/json', 'unstorable value');
    }
    await check(op, '{"a":1}', 'text/plain', 'wrong content type');
    await check(op, '<xml/>', 'application/xml', 'wrong content type');
    // Known fields with values of the wrong kind, and unknown fields beside them.
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...op.properties, 'unknownField'), odd, { maxKeys: 6 }), async (body) => {
        await check(op, JSON.stringify(body) ?? '{}');
      }),
      { numRuns: Number(process.env.HOSTILE_RUNS ?? 8) },
    );
  });
});
