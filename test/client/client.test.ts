// The SDK against the real service over HTTP: login and token caching, renewal before
// expiry, both headers, idempotency keys, typed errors and waitForBatch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSurtidoClient, SurtidoApiError, type BatchProgress } from 'surtido/client';
import { catalogBody, OffsetClock, recordingFetch, startService, type RunningService } from './helpers.ts';

const serverClock = new OffsetClock();
let service: RunningService;

beforeAll(async () => {
  service = await startService({ clock: serverClock });
});
afterAll(() => service.close());

async function sdk(scopes?: string[], extra: { now?: () => number } = {}) {
  const credentials = await service.credentials(scopes);
  const recorder = recordingFetch();
  const client = createSurtidoClient({ baseUrl: service.baseUrl, ...credentials, fetch: recorder.fetch, ...extra });
  return { client, credentials, sent: recorder.sent };
}

describe('login and token', () => {
  it('logs in once, caches the token and sends both the API key and the bearer token', async () => {
    const { client, credentials, sent } = await sdk();
    await client.put('/category', { body: { internalCode: 'C-1', name: 'Drinks' } });
    const category = await client.get('/category/{code}', { params: { path: { code: 'C-1' } } });
    expect(category.name).toBe('Drinks');
    await client.get('/category/{code}', { params: { path: { code: 'C-1' } } });

    expect(sent.map((s) => `${s.method} ${s.path} ${s.status}`)).toEqual([
      'POST /login 200',
      'PUT /category 200',
      'GET /category/C-1 200',
      'GET /category/C-1 200',
    ]);
    const token = await client.token();
    for (const s of sent.slice(1)) {
      expect(s.headers['x-api-key']).toBe(credentials.apiKey);
      expect(s.headers.authorization).toBe(`Bearer ${token}`);
    }
    expect(sent[0]!.headers['x-api-key']).toBe(credentials.apiKey);
    expect(sent[0]!.headers.authorization).toBeUndefined();
    expect(client.scopes()).toContain('supplier/catalog.write');
  });

  it('renews the token before it expires, so the service never sees an expired one', async () => {
    let sdkNow = Date.now();
    const { client, sent } = await sdk(undefined, { now: () => sdkNow });
    await client.get('/supplier/cancelcodes');
    const first = await client.token();

    // 3600 s tokens: renewed in their last minute.
    sdkNow += 3_530_000;
    serverClock.advance(3_530_000);
    await client.get('/supplier/cancelcodes');
    expect(await client.token()).toBe(first);

    sdkNow += 15_000;
    serverClock.advance(15_000);
    await client.get('/supplier/cancelcodes');
    const second = await client.token();
    expect(second).not.toBe(first);
    expect(sent.filter((s) => s.path === '/login')).toHaveLength(2);
    expect(sent.every((s) => s.status === 200)).toBe(true);

    // The old token really was close to its end: the service refuses it a minute later.
    serverClock.advance(60_000);
    const stale = await service.t.request({ method: 'GET', url: '/supplier/cancelcodes', headers: { 'x-api-key': sent[0]!.headers['x-api-key']!, authorization: `Bearer ${first}` } });
    expect(stale.statusCode).toBe(401);
  });

  it('logs in again once when the service refuses a token the cache still trusted', async () => {
    const frozen = Date.now();
    const { client, sent } = await sdk(undefined, { now: () => frozen });
    await client.get('/supplier/cancelcodes');
    // The service's clock runs past the token's end; the SDK's does not (clocks apart).
    serverClock.advance(2 * 3600_000);
    await client.get('/supplier/cancelcodes');
    expect(sent.map((s) => `${s.method} ${s.path} ${s.status}`)).toEqual([
      'POST /login 200',
      'GET /supplier/cancelcodes 200',
      'GET /supplier/cancelcodes 401',
      'POST /login 200',
      'GET /supplier/cancelcodes 200',
    ]);
  });

  it('shares one login between concurrent first calls', async () => {
    const { client, sent } = await sdk();
    await Promise.all([1, 2, 3, 4].map(() => client.get('/supplier/cancelcodes')));
    expect(sent.filter((s) => s.path === '/login')).toHaveLength(1);
  });

  it('throws a typed 401 for wrong credentials', async () => {
    const credentials = await service.credentials();
    const client = createSurtidoClient({ baseUrl: service.baseUrl, ...credentials, clientSecret: 'wrong' });
    const error = await client.get('/supplier/cancelcodes').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SurtidoApiError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });
});

describe('writes and errors', () => {
  it('sends an Idempotency-Key on every write (a new one per call) and none on reads', async () => {
    const { client, sent } = await sdk();
    await client.post('/pricelist', { body: { internalCode: 'PL-K1' } });
    await client.post('/pricelist', { body: { internalCode: 'PL-K2' } });
    await client.get('/pricelist/{code}', { params: { path: { code: 'PL-K1' } } });
    const writes = sent.filter((s) => s.path === '/pricelist');
    expect(writes).toHaveLength(2);
    expect(writes[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(writes[1]!.headers['idempotency-key']).not.toBe(writes[0]!.headers['idempotency-key']);
    expect(sent.find((s) => s.method === 'GET')!.headers['idempotency-key']).toBeUndefined();
    expect(sent.find((s) => s.path === '/login')!.headers['idempotency-key']).toBeUndefined();
  });

  it('keeps a key the caller chose, so a repeated call is answered once', async () => {
    const { client } = await sdk();
    const headers = { 'idempotency-key': 'my-key-1' };
    const first = await client.post('/pricelist', { body: { internalCode: 'PL-I' }, headers });
    const again = await client.post('/pricelist', { body: { internalCode: 'PL-I' }, headers });
    expect(again).toEqual(first);
  });

  it('throws errors carrying the problem code, pointers and request id', async () => {
    const { client } = await sdk(['supplier/pricelist.bulkwrite', 'supplier/catalog.write']);
    const refused = (await client
      .post('/batch/pricelist', { body: { upsert: { products: [{ priceListInternalCode: 'PL', productInternalCode: 'P', units: 0, price: -1 }] } } })
      .catch((e: unknown) => e)) as SurtidoApiError;
    expect(refused).toBeInstanceOf(SurtidoApiError);
    expect(refused.status).toBe(402);
    expect(refused.code).toBe('BATCH_VALIDATION_FAILED');
    expect(refused.pointers.sort()).toEqual(['/upsert/products/0/price', '/upsert/products/0/units']);
    expect(refused.errors.every((e) => e.code && e.message)).toBe(true);
    expect(refused.requestId).toBeTruthy();

    const unknownParent = await client.put('/subcategory', { body: { internalCode: 'S-1', name: 'x', parentCategoryInternalCode: 'NOPE' } }).catch((e: unknown) => e);
    expect(unknownParent).toMatchObject({ status: 400, code: 'UNKNOWN_CATEGORY', errors: [{ pointer: '/parentCategoryInternalCode' }] });

    const forbidden = await client.get('/promotion').catch((e: unknown) => e);
    expect(forbidden).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE' });
    expect((forbidden as Error).message).toContain('INSUFFICIENT_SCOPE');
  });

  it('the raw client answers { data, error } without throwing', async () => {
    const { client } = await sdk();
    const { data, error, response } = await client.api.GET('/pricelist/{code}', { params: { path: { code: 'NOPE' } } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('waitForBatch', () => {
  it('follows the progress and returns the failed items with their codes and messages', async () => {
    const { client } = await sdk();
    await client.put('/category', { body: { internalCode: 'C-1', name: 'Drinks' } });
    const catalog = catalogBody(['P-1', 'P-2']);
    const brands = await client.post('/batch/brand', { body: catalog.brands });
    const products = await client.post('/batch/product', { body: catalog.products });
    await client.post('/pricelist', { body: { internalCode: 'PL-1' } });
    const prices = await client.post('/batch/pricelist', {
      body: {
        upsert: {
          products: [
            { priceListInternalCode: 'PL-1', productInternalCode: 'P-1', units: 1, price: 10.5 },
            { priceListInternalCode: 'PL-1', productInternalCode: 'P-404', units: 1, price: 3 },
            { priceListInternalCode: 'PL-404', productInternalCode: 'P-2', units: 6, price: 60 },
            { priceListInternalCode: 'PL-1', productInternalCode: 'P-2', units: 6, price: 60 },
          ],
        },
      },
    });
    const progress: BatchProgress[] = [];
    const outcome = await client.waitForBatch([...brands.batchId, ...products.batchId, ...prices.batchId], (p) => progress.push(p), { pollMs: 20 });

    expect(outcome.total).toBe(7);
    expect(outcome.completed).toBe(5);
    expect(outcome.batches.map((b) => b.status)).toEqual(['processed', 'processed', 'processed']);
    expect(progress.at(-1)).toMatchObject({ done: true, total: 7, processed: 7, failed: 2 });
    expect(progress.slice(0, -1).every((p) => !p.done)).toBe(true);
    expect(outcome.failed.map((f) => [f.code, f.errorCode, f.batchId])).toEqual([
      ['PL-1/P-404/1', 'UNKNOWN_PRODUCT', prices.batchId[0]],
      ['PL-404/P-2/6', 'UNKNOWN_PRICE_LIST', prices.batchId[0]],
    ]);
    expect(outcome.failed[0]!.message).toContain('P-404');
    expect(outcome.failed[0]!.item).toEqual({ priceListInternalCode: 'PL-1', productInternalCode: 'P-404', units: 1, price: 3 });

    const status = await client.batchStatus(prices.batchId[0]!);
    expect(status).toMatchObject({ status: 'processed', failed: 2, completed: 2 });
  });
});
