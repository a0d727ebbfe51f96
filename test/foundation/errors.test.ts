import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;
beforeAll(async () => {
  t = await createTestApp({ worker: false, env: { BODY_LIMIT_BYTES: '4096' } });
  s = await t.supplier();
});
afterAll(() => t.close());

describe('problem details', () => {
  it('carry the request id of the x-request-id header, generated or sent', async () => {
    const res = await as(t, s, 'GET', '/pricelist/NOPE');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json().requestId).toBe(res.headers['x-request-id']);
    const sent = await as(t, s, 'GET', '/pricelist/NOPE', undefined, { 'x-request-id': 'erp-trace-42' });
    expect(sent.headers['x-request-id']).toBe('erp-trace-42');
    expect(sent.json()).toMatchObject({ status: 404, code: 'NOT_FOUND', requestId: 'erp-trace-42', errors: [{ pointer: '/params/code' }] });
  });

  it('answer an unknown route with 404 NOT_FOUND', async () => {
    const res = await t.request({ method: 'GET', url: '/nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('list every field problem with its pointer; one problem carries its own code', async () => {
    const many = await as(t, s, 'POST', '/pricelist', { internalCode: ' padded', name: 7 });
    expect(many.statusCode).toBe(400);
    expect(many.json().code).toBe('VALIDATION_FAILED');
    expect(many.json().errors).toEqual([
      { pointer: '/internalCode', code: 'INVALID_FORMAT', message: expect.any(String) },
      { pointer: '/name', code: 'INVALID_TYPE', message: 'must be string' },
    ]);
    const one = await as(t, s, 'POST', '/pricelist', {});
    expect(one.json()).toMatchObject({ status: 400, code: 'REQUIRED', errors: [{ pointer: '/internalCode', code: 'REQUIRED' }] });
    const query = await as(t, s, 'GET', '/category?take=51');
    expect(query.json()).toMatchObject({ status: 400, errors: [{ pointer: '/query/take', code: 'OUT_OF_RANGE' }] });
  });

  it('refuse text holding NUL and integers beyond 2^53 with the field named, in body, query and path', async () => {
    const nul = await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-NUL', name: 'a\u0000b' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toMatchObject({ code: 'INVALID_VALUE', errors: [{ pointer: '/name', code: 'INVALID_VALUE' }] });
    expect((await as(t, s, 'GET', '/pricelist/PL-NUL')).statusCode).toBe(404);
    const query = await as(t, s, 'GET', '/category?page=1e21');
    expect(query.json()).toMatchObject({ status: 400, errors: [{ pointer: '/query/page', code: 'OUT_OF_RANGE' }] });
    const path = await as(t, s, 'GET', '/order/9223372036854775808');
    expect(path.json()).toMatchObject({ status: 400, errors: [{ pointer: '/params/id', code: 'OUT_OF_RANGE' }] });
    const pathNul = await as(t, s, 'GET', '/pricelist/a%00b');
    expect(pathNul.json()).toMatchObject({ status: 400, errors: [{ pointer: '/params/code' }] });
  });

  it('refuse a bad batch request with 402 and every pointer, queuing nothing', async () => {
    const res = await as(t, s, 'POST', '/batch/pricelist', {
      upsert: {
        products: [
          { priceListInternalCode: 'PL', productInternalCode: 'P', units: 1, price: 1.23456 },
          { priceListInternalCode: 'PL', productInternalCode: 'P', units: 0, price: -1 },
          { priceListInternalCode: 'PL', units: 1, price: 1 },
        ],
      },
    });
    expect(res.statusCode).toBe(402);
    expect(res.json().code).toBe('BATCH_VALIDATION_FAILED');
    expect(res.json().errors.map((e: { pointer: string; code: string }) => `${e.pointer} ${e.code}`)).toEqual([
      '/upsert/products/0/price INVALID_PRECISION',
      '/upsert/products/1/units OUT_OF_RANGE',
      '/upsert/products/1/price OUT_OF_RANGE',
      '/upsert/products/2/productInternalCode REQUIRED',
    ]);
    const batches = await t.deps.db.selectFrom('batches').select('id').where('supplier_id', '=', s.id).execute();
    expect(batches).toEqual([]);
  });

  it('answer malformed JSON with 400, or 402 on a batch endpoint', async () => {
    const headers = { ...s.headers, 'content-type': 'application/json' };
    const plain = await t.request({ method: 'POST', url: '/pricelist', headers, payload: '{"internalCode": ' });
    expect(plain.statusCode).toBe(400);
    expect(plain.json().code).toBe('MALFORMED_JSON');
    const batch = await t.request({ method: 'POST', url: '/batch/pricelist', headers, payload: '[{' });
    expect(batch.statusCode).toBe(402);
    expect(batch.json().code).toBe('MALFORMED_JSON');
  });

  it('answer a body that is not JSON with 415 and an oversized one with 413', async () => {
    const text = await t.request({ method: 'POST', url: '/pricelist', headers: { ...s.headers, 'content-type': 'text/plain' }, payload: 'hello' });
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const big = await as(t, s, 'POST', '/pricelist', { internalCode: 'PL', name: 'x'.repeat(5000) });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', detail: expect.stringContaining('4096') });
  });

  it('ignore unknown fields and never store them', async () => {
    const res = await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-U', name: 'List', color: 'red', nested: { a: 1 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('color');
    const got = await as(t, s, 'GET', '/pricelist/PL-U');
    expect(Object.keys(got.json()).sort()).toEqual(['createdAt', 'enabled', 'internalCode', 'name', 'products', 'stores', 'updatedAt']);
  });

  it('reveal nothing internal in a 5xx', async () => {
    const app = await buildApp(t.deps, { logger: false });
    app.get('/boom', { config: { auth: 'public' } }, async () => {
      throw new Error('select secret_hash from api_clients -- at /srv/app.ts:12');
    });
    await app.ready();
    try {
      const res = await app.inject({ method: 'GET', url: '/boom' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        status: 500,
        code: 'INTERNAL_ERROR',
        title: 'Internal error',
        detail: 'an internal error occurred; quote the request id when reporting it',
        errors: [],
        requestId: res.headers['x-request-id'],
      });
    } finally {
      await app.close();
    }
  });

  it('refuse to build a route that declares no auth', async () => {
    const app = await buildApp(t.deps, { logger: false });
    expect(() => app.get('/open', async () => 'x')).toThrow(/declares no config.auth/);
    expect(() => app.get('/unscoped', { config: { auth: 'supplier' } }, async () => 'x')).toThrow(/declares no valid config.scope/);
    await app.close();
  });
});

describe('rate limits', () => {
  it('answer 429 with Retry-After once a key spends its burst, per key', async () => {
    const limited = await createTestApp({ worker: false, env: { RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '3', LOGIN_RATE_LIMIT_PER_MINUTE: '10' } });
    try {
      const x = await limited.supplier();
      const y = await limited.supplier();
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await as(limited, x, 'GET', '/pricelist/NOPE')).statusCode);
      expect(codes).toEqual([404, 404, 404, 429]);
      const res = await as(limited, x, 'GET', '/pricelist/NOPE');
      expect(res.json().code).toBe('RATE_LIMITED');
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await as(limited, y, 'GET', '/pricelist/NOPE')).statusCode).toBe(404);

      // POST /login: 10 a minute per API key (one was spent by supplier()).
      const logins = [];
      for (let i = 0; i < 10; i++) {
        logins.push((await limited.request({ method: 'POST', url: '/login', headers: { 'x-api-key': y.apiKey }, payload: { clientId: y.clientId, clientSecret: y.clientSecret } })).statusCode);
      }
      expect(logins.slice(0, 9)).toEqual(Array(9).fill(200));
      expect(logins[9]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
