// Hostile requests for every operation of the OpenAPI document: wrong types, missing and
// unknown fields, huge strings and arrays, deep nesting, odd Unicode, numbers beyond
// their limits, malformed JSON and wrong content types. No answer may be a 5xx, and
// every error is problem details with a code. Driven by the committed document, so a
// new operation is covered without being listed.
import fs from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

const doc = JSON.parse(fs.readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
let t: TestApp;
let s: TestSupplier;
let storeToken: string;
let tried = 0;

beforeAll(async () => {
  t = await createTestApp({ worker: false });
  s = await t.supplier();
  await t.deps.db.insertInto('people').values({ phone: '+573008888888', email: null, name: 'H' }).execute();
  storeToken = (await t.admin('POST', '/admin/store-users/token', { phone: '+573008888888' })).json().access_token;
});
afterAll(async () => {
  console.log(`hostile input: ${tried} requests tried`);
  await t.close();
});

interface Operation {
  method: string;
  url: string;
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
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => (/id$/i.test(name) && name !== 'clientId' ? '1' : name === 'uuid' ? '00000000-0000-4000-8000-000000000000' : 'X'));
      out.push({ method: method.toUpperCase(), url, properties: Object.keys(schema.properties ?? {}), auth });
    }
  }
  return out;
}

const headersFor = (op: Operation): Record<string, string> =>
  op.auth === 'supplier' ? s.headers : op.auth === 'admin' ? { authorization: `Bearer ${t.config.adminToken}` } : op.auth === 'store' ? { authorization: `Bearer ${storeToken}` } : {};

async function check(op: Operation, payload: string, contentType = 'application/json', what = '') {
  tried++;
  const res = await t.request({ method: op.method as 'POST', url: op.url, headers: { ...headersFor(op), 'content-type': contentType }, payload });
  const label = `${op.method} ${op.url} ${what}: ${payload.slice(0, 120)}`;
  expect(res.statusCode, label).toBeLessThan(500);
  if (res.statusCode >= 400) {
    expect(res.headers['content-type'], label).toMatch(/^application\/problem\+json/);
    expect(typeof res.json().code, label).toBe('string');
  }
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

  it('refuses a batch request of more items than allowed with 402, not a failure', async () => {
    const op = OPS.find((o) => o.method === 'POST' && o.url === '/batch/brand')!;
    const items = Array.from({ length: 50_001 }, (_, i) => ({ internalCode: `B${i}`, name: 'b' }));
    await check(op, JSON.stringify({ upsert: items }), 'application/json', 'too many items');
  });

  it.each(OPS.map((op) => [`${op.method} ${op.url}`, op] as const))('%s never answers a 5xx, and every error is problem details', async (_, op) => {
    if (op.method === 'GET') {
      await check({ ...op, url: `${op.url}?take=abc&page=-1&from=2026-13-45&enabled=maybe&status=%00` }, '', 'application/json', 'bad query');
      return;
    }
    for (const payload of FIXED) await check(op, payload);
    // Every known field at once holding the NUL character, then an integer beyond 2^63:
    // neither fits PostgreSQL, so both must be refused before they reach it.
    for (const value of ['a\u0000b', 9223372036854776000, 1e21]) {
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
