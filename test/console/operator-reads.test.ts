// The reads the operators' supplier page needs (a supplier's credentials and its webhook's
// settings, beside its members and delivery log), and who sent each batch (GET /batch and
// GET /batch/{uuid}/status answer `sentBy` from the audit entry written with the batch).
// The 401s of the admin routes and the scopes of the supplier ones are in the route matrix
// (test/hardening/route-matrix.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { addOperator } from '../../src/modules/console/console.service.ts';
import { consoleSignIn, memberSession } from '../helpers/console.ts';
import { json } from '../helpers/fixtures.ts';

let t: TestApp;
let s: TestSupplier;
let other: TestSupplier;

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  other = await t.supplier();
}, 180_000);
afterAll(() => t.close());

describe('GET /admin/suppliers/{supplierId}/credentials', () => {
  it("lists one supplier's credentials newest first, live and revoked, never a secret or key", async () => {
    const extra = await json(t.admin('POST', `/admin/suppliers/${s.id}/credentials`, { scopes: ['supplier/batch.read'] }));
    const revoked = await json(t.admin('POST', `/admin/suppliers/${s.id}/credentials`, { scopes: ['supplier/order.read'] }));
    await json(t.admin('DELETE', `/admin/credentials/${revoked.clientId}`));
    const res = await t.admin('GET', `/admin/suppliers/${s.id}/credentials`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ page: 1, total: 3, totalPages: 1 });
    expect(body.data.map((c: { clientId: string }) => c.clientId)).toEqual([revoked.clientId, extra.clientId, s.clientId]);
    expect(body.data[0]).toEqual({ clientId: revoked.clientId, scopes: ['supplier/order.read'], createdAt: expect.any(String), revokedAt: expect.any(String) });
    expect(body.data[1]).toEqual({ clientId: extra.clientId, scopes: ['supplier/batch.read'], createdAt: expect.any(String), revokedAt: null });
    for (const secret of [s.apiKey, s.clientSecret, extra.apiKey, extra.clientSecret, revoked.apiKey, revoked.clientSecret]) expect(res.body).not.toContain(secret);
    // Another supplier's are not among them, and the filter and paging are the supplier API's.
    expect(res.body).not.toContain(other.clientId);
    expect((await json(t.admin('GET', `/admin/suppliers/${s.id}/credentials?revoked=true`))).data.map((c: { clientId: string }) => c.clientId)).toEqual([revoked.clientId]);
    expect(await json(t.admin('GET', `/admin/suppliers/${s.id}/credentials?revoked=false&take=1&page=2`))).toMatchObject({ total: 2, totalPages: 2, data: [{ clientId: s.clientId }] });
    // The same answer the supplier's owner reads with GET /credential.
    expect(await json(t.admin('GET', `/admin/suppliers/${s.id}/credentials`))).toEqual(await json(as(t, s, 'GET', '/credential')));
  });

  it('answers 404 for an unknown supplier and 400 naming a bad query field', async () => {
    const missing = await t.admin('GET', '/admin/suppliers/999999/credentials');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND', errors: [{ pointer: '/params/supplierId' }] });
    for (const [query, pointer] of [
      ['take=0', '/query/take'],
      ['revoked=maybe', '/query/revoked'],
    ] as const) {
      const res = await t.admin('GET', `/admin/suppliers/${s.id}/credentials?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
    expect((await t.admin('GET', '/admin/suppliers/abc/credentials')).statusCode).toBe(400);
  });

  it("answers an operator's console session as it answers ADMIN_TOKEN; a member's session gets 401", async () => {
    await addOperator(t.deps.db, 'ops.reads@example.com');
    const ops = await consoleSignIn(t, 'ops.reads@example.com');
    const res = await t.request({ method: 'GET', url: `/admin/suppliers/${s.id}/credentials`, headers: ops.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(await json(t.admin('GET', `/admin/suppliers/${s.id}/credentials`)));
    const owner = await memberSession(t, s, 'owner.reads@example.com', 'owner');
    for (const url of [`/admin/suppliers/${s.id}/credentials`, `/admin/suppliers/${s.id}/webhook`]) {
      expect((await t.request({ method: 'GET', url, headers: owner.headers })).statusCode, url).toBe(401);
    }
  });
});

describe('GET /admin/suppliers/{supplierId}/webhook', () => {
  it("answers a supplier's webhook settings as GET /webhook does, never the secret; 404 for an unknown supplier", async () => {
    expect(await json(t.admin('GET', `/admin/suppliers/${other.id}/webhook`))).toEqual({ baseUrl: null, enabled: false, previousSecretExpiresAt: null, updatedAt: null });
    const { secret } = await json(t.admin('PUT', `/admin/suppliers/${other.id}/webhook`, { baseUrl: 'https://erp.other.example/hooks', enabled: true }));
    await json(t.admin('POST', `/admin/suppliers/${other.id}/webhook/rotate-secret`));
    const res = await t.admin('GET', `/admin/suppliers/${other.id}/webhook`);
    expect(res.json()).toEqual({ baseUrl: 'https://erp.other.example/hooks', enabled: true, previousSecretExpiresAt: expect.any(String), updatedAt: expect.any(String) });
    expect(res.body).not.toContain(secret);
    expect(res.body).not.toContain('whsec_');
    expect(res.json()).toEqual(await json(as(t, other, 'GET', '/webhook')));
    const missing = await t.admin('GET', '/admin/suppliers/999999/webhook');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND', errors: [{ pointer: '/params/supplierId' }] });
  });
});

describe('who sent a batch', () => {
  it('names the credential or the console member that sent it, in the list and the status alike', async () => {
    const manager = await memberSession(t, s, 'manager.batches@example.com', 'manager');
    const byCredential = await t.runBatch(s, '/batch/brand', { upsert: [{ internalCode: 'B-1', name: 'Brand' }] });
    const byMember = await t.runBatch(manager, '/batch/brand', { upsert: [{ internalCode: 'B-2', name: 'Other brand' }] });
    const list = await json(as(t, s, 'GET', '/batch'));
    expect(list.data.map((b: { batchId: string; sentBy: unknown }) => [b.batchId, b.sentBy])).toEqual([
      [byMember.ids[0], { kind: 'person', id: 'manager.batches@example.com' }],
      [byCredential.ids[0], { kind: 'credential', id: s.clientId }],
    ]);
    for (const b of list.data) expect(await json(as(t, s, 'GET', `/batch/${b.batchId}/status`))).toEqual(b);
  });

  it('names the sender of every batch a request was split into', async () => {
    const small = await createTestApp({ env: { BATCH_SIZE: '2' } });
    try {
      const x = await small.supplier();
      const { ids } = await small.runBatch(x, '/batch/brand', { upsert: [1, 2, 3, 4, 5].map((i) => ({ internalCode: `B-${i}`, name: `Brand ${i}` })) });
      expect(ids).toHaveLength(3);
      const list = (await as(small, x, 'GET', '/batch')).json();
      expect(list.data.map((b: { sentBy: unknown }) => b.sentBy)).toEqual(ids.map(() => ({ kind: 'credential', id: x.clientId })));
    } finally {
      await small.close();
    }
  });

  it('answers null once the audit entry is gone (kept AUDIT_RETENTION_DAYS)', async () => {
    const { ids } = await t.runBatch(other, '/batch/brand', { upsert: [{ internalCode: 'B-9', name: 'Gone' }] });
    expect((await json(as(t, other, 'GET', `/batch/${ids[0]}/status`))).sentBy).toEqual({ kind: 'credential', id: other.clientId });
    await t.deps.db.deleteFrom('audit_entries').where('supplier_id', '=', other.id).where('entity', '=', 'batch').execute();
    expect((await json(as(t, other, 'GET', `/batch/${ids[0]}/status`))).sentBy).toBeNull();
    expect((await json(as(t, other, 'GET', '/batch'))).data[0]).toMatchObject({ batchId: ids[0], sentBy: null });
  });
});
