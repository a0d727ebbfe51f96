// Two API processes and a worker on one PostgreSQL database, each API with a store cache
// that would keep what it read for ten minutes: a write answered by one API (a promotion
// PUT, a promotion's status) or committed by the worker (a price batch) is seen by the other
// API's catalog, cart and GET /promotion/{code} within one second, because the writing transaction's NOTIFY makes it forget.
import { describe, expect, it } from 'vitest';
import { onPostgres } from '../helpers/database.ts';
import { freePort, http, processScope, waitFor, waitForReady } from '../helpers/process.ts';

const ADMIN = 'store-cache-admin-token-0123';
const { start, storage } = processScope('store-cache');

describe.runIf(onPostgres())('the store cache across processes', () => {
  it('sees another process\'s writes within a second', { timeout: 300_000 }, async () => {
    const env = { ...(await storage()), ADMIN_TOKEN: ADMIN, STORE_CACHE_TTL_MS: '600000', WORKER_POLL_MS: '20', RATE_LIMIT_RPS: '100000', RATE_LIMIT_BURST: '100000' };
    const ports = [await freePort(), await freePort()];
    const apis = ports.map((port) => start(['api'], { ...env, PORT: String(port) }));
    // A loaded machine starts a process slowly; one that exits fails the wait at once, with its output.
    for (const [i, port] of ports.entries()) await waitForReady(`http://127.0.0.1:${port}`, apis[i], 120_000, 100);
    start(['worker'], env);
    const [a, b] = ports.map((port) => http(`http://127.0.0.1:${port}`));
    const admin = { authorization: `Bearer ${ADMIN}` };

    const { body: supplier } = await a!('POST', '/admin/suppliers', { code: 'CACHE', name: 'Cache' }, admin);
    const { body: c } = await a!('POST', `/admin/suppliers/${supplier.id}/credentials`, {}, admin);
    const { body: login } = await a!('POST', '/login', { clientId: c.clientId, clientSecret: c.clientSecret }, { 'x-api-key': c.apiKey });
    const as = { 'x-api-key': c.apiKey, authorization: `Bearer ${login.access_token}` };
    const processed = async (res: { status: number; body: { batchId: string[] } }) => {
      expect(res.status).toBe(202);
      for (const id of res.body.batchId) {
        const done = await waitFor(`batch ${id}`, async () => {
          const { body } = await a!('GET', `/batch/${id}/status`, undefined, as);
          return body.status === 'processing' ? undefined : body;
        });
        expect(done.failed).toBe(0);
      }
    };
    const price = (p: number) => a!('POST', '/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'PL', productInternalCode: 'P1', units: 1, price: p }] } }, as);
    expect((await a!('PUT', '/category', { internalCode: 'C', name: 'C' }, as)).status).toBe(200);
    await processed(await a!('POST', '/batch/brand', [{ internalCode: 'B', name: 'B' }], as));
    await processed(await a!('POST', '/batch/product', { upsert: [{ internalCode: 'P1', name: 'One', brandInternalCode: 'B', categoryInternalCode: 'C' }] }, as));
    expect((await a!('POST', '/pricelist', { internalCode: 'PL' }, as)).status).toBe(200);
    await processed(await a!('POST', '/batch/store', { upsert: [{ internalCode: 'S1', name: 'Store', priceListCode: 'PL' }] }, as));
    await processed(await price(1000));
    expect((await a!('POST', '/store/S1/add/user', { users: [{ phone: '+573001110000' }] }, as)).status).toBe(200);
    const { body: issued } = await a!('POST', '/admin/store-users/token', { phone: '+573001110000' }, admin);
    const buyer = { authorization: `Bearer ${issued.access_token}` };
    const me = await b!('GET', '/app/me', undefined, buyer);
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    const storeId = me.body.stores[0].id;

    const catalogOnB = async () => (await b!('GET', `/app/stores/${storeId}/catalog`, undefined, buyer)).body.data[0];
    const cartOnB = async () => (await b!('POST', `/app/stores/${storeId}/cart`, { lines: [{ productInternalCode: 'P1', units: 1, quantity: 5 }] }, buyer)).body;
    /** Milliseconds until B shows what `seen` looks for (B's cache was warm before the write). */
    const secondsUntil = async (seen: () => Promise<boolean>) => {
      const started = Date.now();
      await waitFor('process B to see the write', async () => ((await seen()) ? true : undefined), 5_000, 25);
      return Date.now() - started;
    };

    // Warm B's cache, then write through A.
    expect((await catalogOnB()).promotions).toEqual([]);
    expect((await cartOnB()).total).toBe(5000);
    const put = await a!('PUT', '/promotion/discount/simple', {
      internalCode: 'TEN', name: 'Ten off', start: '2020-01-01', end: '2099-12-31', enabled: true,
      products: { internalCode: 'P1' }, discountTiersData: [{ min: 3, discountPercentage: 10 }],
    }, as);
    expect(put.status).toBe(200);
    expect(await secondsUntil(async () => (await catalogOnB()).promotions.length === 1)).toBeLessThan(1000);
    expect((await cartOnB()).total).toBe(4500);

    // The supplier API's promotion read on B (kept in the same cache) sees A's status change.
    const promotionOnB = async () => (await b!('GET', '/promotion/TEN', undefined, as)).body;
    expect((await promotionOnB()).enabled).toBe(true);
    expect((await a!('PUT', '/promotion/TEN/status', { enabled: false }, as)).status).toBe(200);
    expect(await secondsUntil(async () => (await promotionOnB()).enabled === false)).toBeLessThan(1000);
    expect((await a!('PUT', '/promotion/TEN/status', { enabled: true }, as)).status).toBe(200);
    expect(await secondsUntil(async () => (await promotionOnB()).enabled === true)).toBeLessThan(1000);

    // A price batch the worker process commits.
    expect((await catalogOnB()).sizes[0].price).toBe(1000);
    await processed(await price(1200));
    expect(await secondsUntil(async () => (await catalogOnB()).sizes[0].price === 1200)).toBeLessThan(1000);
    expect((await cartOnB()).total).toBe(5400);
  });
});
