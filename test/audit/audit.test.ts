// The audit log: each kind of actor, batches recorded once at acceptance, refused writes
// leave nothing, suppliers see only their own, filters and pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOperator } from '../../src/modules/console/console.service.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { consoleSignIn, memberSession } from '../helpers/console.ts';

let t: TestApp;
let a: TestSupplier;
let b: TestSupplier;
beforeAll(async () => {
  t = await createTestApp({ worker: false });
  a = await t.supplier();
  b = await t.supplier();
});
afterAll(() => t.close());

const audit = async (s: TestSupplier, query = '') => {
  const res = await as(t, s, 'GET', `/audit${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const adminAudit = async (query = '') => {
  const res = await t.admin('GET', `/admin/audit${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('audit entries', () => {
  it('records a credential write with who, what, the request id and the client address', async () => {
    const res = await as(t, a, 'POST', '/pricelist', { internalCode: 'PL-A', name: 'Main' }, { 'x-request-id': 'req-audit-1' });
    expect(res.statusCode, res.body).toBe(200);
    const page = await audit(a, '?entity=pricelist');
    expect(page.total).toBe(1);
    expect(page.data[0]).toMatchObject({
      supplierId: a.id,
      actor: { kind: 'credential', id: a.clientId },
      operation: 'POST /pricelist',
      entity: 'pricelist',
      entityId: 'PL-A',
      requestId: 'req-audit-1',
      clientAddress: '127.0.0.1',
    });
    expect(Date.parse(page.data[0].at)).toBeGreaterThan(Date.now() - 60_000);

    await as(t, a, 'PUT', '/pricelist/PL-A/status', { enabled: false });
    const after = await audit(a, '?entity=pricelist');
    expect(after.data.map((e: any) => e.operation)).toEqual(['PUT /pricelist/:code/status', 'POST /pricelist']);
  });

  it('records a batch once, at acceptance, not each item', async () => {
    const products = Array.from({ length: 30 }, (_, i) => ({ priceListInternalCode: 'PL-A', productInternalCode: `P${i}`, units: 1, price: 1 }));
    const res = await as(t, a, 'POST', '/batch/pricelist', { upsert: { products } });
    expect(res.statusCode, res.body).toBe(202);
    const page = await audit(a, '?entity=batch');
    expect(page.total).toBe(1);
    expect(page.data[0]).toMatchObject({
      actor: { kind: 'credential', id: a.clientId },
      operation: 'POST /batch/pricelist',
      entityId: res.json().batchId[0],
      detail: { endpoint: '/batch/pricelist', batchIds: res.json().batchId },
    });
  });

  it('records an operator write, and the supplier it concerns sees it', async () => {
    const res = await t.admin('PUT', `/admin/suppliers/${a.id}/settings`, { minimumOrder: 100 });
    expect(res.statusCode, res.body).toBe(200);
    const expected = { supplierId: a.id, actor: { kind: 'operator', id: 'admin' }, operation: 'PUT /admin/suppliers/:supplierId/settings', entity: 'supplier-settings', entityId: String(a.id) };
    expect((await adminAudit(`?supplier=${a.id}&entity=supplier-settings`)).data).toEqual([expect.objectContaining(expected)]);
    // The supplier sees the platform, not which operator (below).
    expect((await audit(a, '?actor=platform&entity=supplier-settings')).data).toEqual([expect.objectContaining({ ...expected, actor: { kind: 'operator', id: 'platform' } })]);
  });

  it("shows the supplier's readers an operator as the platform: never the operator's email or address, nor found by them", async () => {
    const c = await t.supplier();
    await addOperator(t.deps.db, 'ops.audit@platform.example');
    const ops = await consoleSignIn(t, 'ops.audit@platform.example');
    const write = await t.request({ method: 'PUT', url: `/admin/suppliers/${c.id}/settings`, payload: { minimumOrder: 250 }, headers: { ...ops.headers, 'x-request-id': 'req-ops-audit' } });
    expect(write.statusCode, write.body).toBe(200);
    const hook = await t.admin('PUT', `/admin/suppliers/${c.id}/webhook`, { baseUrl: 'https://erp.example/hooks', enabled: false });
    expect(hook.statusCode, hook.body).toBe(200);
    // Operators still see who it was, and from where.
    const operators = await adminAudit(`?supplier=${c.id}&entity=supplier-settings`);
    expect(operators.data[0]).toMatchObject({ actor: { kind: 'operator', id: 'ops.audit@platform.example' }, clientAddress: '127.0.0.1', requestId: 'req-ops-audit' });
    // The supplier's credential and its members (a viewer too) see the platform.
    const viewer = await memberSession(t, c, 'viewer.audit@example.com', 'viewer');
    for (const reader of [c, viewer]) {
      const res = await as(t, reader, 'GET', '/audit');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain('ops.audit@platform.example');
      const byOperators = res.json().data.filter((e: any) => e.actor.kind === 'operator');
      expect(byOperators.every((e: any) => e.actor.id === 'platform' && e.clientAddress === null)).toBe(true);
      expect(byOperators.map((e: any) => e.operation)).toEqual(expect.arrayContaining(['PUT /admin/suppliers/:supplierId/settings', 'PUT /admin/suppliers/:supplierId/webhook']));
      // What the entry says of the write stays.
      expect(byOperators.find((e: any) => e.entity === 'supplier-settings')).toMatchObject({ requestId: 'req-ops-audit', entityId: String(c.id), supplierId: c.id });
      // The operator's identities find nothing; `platform` finds their writes.
      for (const actor of ['ops.audit@platform.example', 'admin']) expect((await audit(reader, `?actor=${encodeURIComponent(actor)}`)).total, actor).toBe(0);
      expect((await audit(reader, '?actor=platform')).total).toBe(byOperators.length);
    }
  });

  it('records the operator creating a supplier and revoking a credential under that supplier', async () => {
    const c = await t.supplier();
    const created = await adminAudit(`?supplier=${c.id}&entity=supplier`);
    expect(created.data).toEqual([expect.objectContaining({ operation: 'POST /admin/suppliers', entityId: c.code })]);
    expect((await t.admin('DELETE', `/admin/credentials/${c.clientId}`)).statusCode).toBe(200);
    const credentials = await adminAudit(`?supplier=${c.id}&entity=credential`);
    expect(credentials.data.map((e: any) => [e.operation, e.entityId])).toEqual([
      ['DELETE /admin/credentials/:clientId', c.clientId],
      ['POST /admin/suppliers/:supplierId/credentials', c.clientId],
    ]);
    // The entry never holds the secrets the answer carried.
    expect(JSON.stringify(credentials)).not.toContain(c.clientSecret);
  });

  it('records nothing for a refused write or a replayed one', async () => {
    const before = (await audit(a)).total;
    expect((await as(t, a, 'PUT', '/pricelist/NOPE/status', { enabled: true })).statusCode).toBe(404);
    expect((await as(t, a, 'POST', '/pricelist', { internalCode: 'PL-A' })).statusCode).toBe(404); // ALREADY_EXISTS
    const key = { 'idempotency-key': 'k-audit-1' };
    expect((await as(t, a, 'POST', '/pricelist', { internalCode: 'PL-K' }, key)).statusCode).toBe(200);
    const replay = await as(t, a, 'POST', '/pricelist', { internalCode: 'PL-K' }, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await audit(a)).total).toBe(before + 1);
  });
});

describe('reading the audit log', () => {
  it("never shows a supplier another supplier's entries", async () => {
    expect((await as(t, b, 'POST', '/pricelist', { internalCode: 'PL-B' })).statusCode).toBe(200);
    const own = await audit(b);
    expect(own.data.length).toBeGreaterThan(0);
    expect(own.data.every((e: any) => e.supplierId === b.id)).toBe(true);
    // Naming A's actor or A's entity finds nothing.
    expect((await audit(b, `?actor=${a.clientId}`)).total).toBe(0);
    expect((await audit(b, '?entityId=PL-A')).total).toBe(0);
    // A does not see B's write either; the operator sees both.
    expect((await audit(a, '?entityId=PL-B')).total).toBe(0);
    expect((await adminAudit('?entity=pricelist')).data.map((e: any) => e.entityId)).toEqual(expect.arrayContaining(['PL-A', 'PL-B']));
  });

  it('needs the scope supplier/audit.read, which credentials issued without a list get', async () => {
    const limited = await t.supplier(undefined, ['supplier/pricelist.read']);
    const res = await as(t, limited, 'GET', '/audit');
    expect(res.statusCode).toBe(403);
    expect(res.json().errors[0].message).toContain('supplier/audit.read');
    const issued = await t.admin('POST', `/admin/suppliers/${a.id}/credentials`, {});
    expect(issued.json().scopes).toContain('supplier/audit.read');
  });

  it('filters by actor, entity and time, and pages newest first', async () => {
    const mark = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    for (const code of ['F1', 'F2', 'F3']) expect((await as(t, b, 'POST', '/pricelist', { internalCode: code })).statusCode).toBe(200);
    const since = await audit(b, `?from=${encodeURIComponent(mark)}`);
    expect(since.data.map((e: any) => e.entityId)).toEqual(['F3', 'F2', 'F1']);
    expect((await audit(b, `?to=${encodeURIComponent(mark)}&entity=pricelist`)).data.map((e: any) => e.entityId)).toEqual(['PL-B']);
    const second = await audit(b, `?from=${encodeURIComponent(mark)}&take=2&page=2`);
    expect(second).toMatchObject({ page: 2, take: 2, total: 3, totalPages: 2 });
    expect(second.data.map((e: any) => e.entityId)).toEqual(['F1']);
    expect((await audit(b, `?actor=${b.clientId}&entity=pricelist`)).total).toBe(4);
    const admin = await adminAudit(`?supplier=${b.id}&actor=${b.clientId}&entity=pricelist&take=1`);
    expect(admin).toMatchObject({ total: 4, totalPages: 4 });
    expect(admin.data[0].entityId).toBe('F3');
  });

  it('refuses bad filters with a 400 naming the field', async () => {
    const bad = await as(t, b, 'GET', '/audit?from=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].pointer).toContain('from');
    const reversed = await as(t, b, 'GET', '/audit?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().errors[0].pointer).toBe('/query/from');
    expect((await t.admin('GET', '/admin/audit?supplier=abc')).statusCode).toBe(400);
  });
});
