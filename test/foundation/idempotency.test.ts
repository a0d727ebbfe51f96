import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;
let other: TestSupplier;
beforeAll(async () => {
  t = await createTestApp({ worker: false });
  s = await t.supplier();
  other = await t.supplier();
});
afterAll(() => t.close());

const key = (k: string) => ({ 'idempotency-key': k });

describe('Idempotency-Key', () => {
  it('replays the first answer instead of doing the work again', async () => {
    const first = await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-I', name: 'A' }, key('k-1'));
    expect(first.statusCode).toBe(200);
    const retry = await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-I', name: 'A' }, key('k-1'));
    expect(retry.statusCode).toBe(200);
    expect(retry.body).toBe(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    // Without the key the same request really runs again, and finds the list exists.
    expect((await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-I', name: 'A' })).statusCode).toBe(404);
  });

  it('replays an error answer too, as problem details', async () => {
    const first = await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-I' }, key('k-dup'));
    expect(first.statusCode).toBe(404);
    const retry = await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-I' }, key('k-dup'));
    expect(retry.statusCode).toBe(404);
    expect(retry.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(retry.json().code).toBe('ALREADY_EXISTS');
  });

  it('refuses the same key with another body (409 IDEMPOTENCY_KEY_REUSED)', async () => {
    await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-R1' }, key('k-2'));
    const res = await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-R2' }, key('k-2'));
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await as(t, s, 'GET', '/pricelist/PL-R2')).statusCode).toBe(404);
  });

  it('refuses a key whose request is still in progress (409 IDEMPOTENCY_KEY_IN_USE)', async () => {
    await t.deps.db
      .insertInto('idempotency_keys')
      .values({ owner: `supplier:${s.id}`, key: 'k-busy', request_hash: 'whatever', state: 'in_progress' })
      .execute();
    const res = await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-B' }, key('k-busy'));
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('IDEMPOTENCY_KEY_IN_USE');
  });

  it('keeps keys per supplier', async () => {
    const mine = await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-K' }, key('shared'));
    const theirs = await as(t, other, 'POST', '/pricelist', { internalCode: 'PL-K' }, key('shared'));
    expect(mine.statusCode).toBe(200);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
  });

  it('gives a retried batch submit the same batch ids, queued once', async () => {
    const body = { upsert: { products: [{ priceListInternalCode: 'PL-I', productInternalCode: 'P', units: 1, price: 1 }] } };
    const first = await as(t, s, 'POST', '/batch/pricelist', body, key('batch-1'));
    const retry = await as(t, s, 'POST', '/batch/pricelist', body, key('batch-1'));
    expect(first.statusCode).toBe(202);
    expect(retry.statusCode).toBe(202);
    expect(retry.json().batchId).toEqual(first.json().batchId);
    const rows = await t.deps.db.selectFrom('batches').select('id').where('supplier_id', '=', s.id).execute();
    expect(rows.map((r) => r.id)).toEqual(first.json().batchId);
  });

  it('refuses a key longer than 255 characters', async () => {
    const res = await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-L' }, key('x'.repeat(256)));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].pointer).toBe('/headers/idempotency-key');
  });

  it('works on PUT as well', async () => {
    const a = await as(t, s, 'PUT', '/category', { internalCode: 'C-I', name: 'First' }, key('put-1'));
    await as(t, s, 'PUT', '/category', { internalCode: 'C-I', name: 'Changed' });
    const b = await as(t, s, 'PUT', '/category', { internalCode: 'C-I', name: 'First' }, key('put-1'));
    expect(b.body).toBe(a.body);
    expect((await as(t, s, 'GET', '/category/C-I')).json().name).toBe('Changed');
  });
});
