// The audit log's before and after (issue 34): an update's entry says which fields changed,
// old and new, read in the write's own transaction; creations, batches and refused writes
// keep none; a secret is never among them. And console sign-ins are listed: one entry per
// supplier the person is a member of, and the platform's for an operator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOperator } from '../../src/modules/console/console.service.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { consoleSignIn, memberSession } from '../helpers/console.ts';
import { importPendingOrders } from '../helpers/fixtures.ts';

let t: TestApp;
let s: TestSupplier;
let other: TestSupplier;
beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  other = await t.supplier();
  await t.runBatch(s, '/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda' }] });
});
afterAll(() => t.close());

const audit = async (who: TestSupplier, query = '') => {
  const res = await as(t, who, 'GET', `/audit${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const ok = async (res: Promise<{ statusCode: number; body: string }>) => {
  const r = await res;
  expect(r.statusCode, r.body).toBeLessThan(300);
  return JSON.parse(r.body);
};

describe('before and after', () => {
  it("records an order's status and delivery date as they were and became, by a member of the console", async () => {
    const [id] = await importPendingOrders(t, s, [['CHG-1', [{ internalCode: 'P1', units: 1, quantity: 2, unitPrice: 1000 }]]]);
    const ana = await memberSession(t, s, 'ana@norte.example', 'agent');
    await ok(as(t, ana, 'PUT', `/order/${id}/confirm`, { deliveryDate: '2026-03-05' }));
    await ok(as(t, s, 'PUT', `/order/${id}/cancel`, { cancelCode: 'OUT_OF_STOCK' }));
    const entries = (await audit(s, `?entity=order&entityId=${id}`)).data;
    expect(entries.map((e: any) => [e.actor, e.operation, e.changes])).toEqual([
      [{ kind: 'credential', id: s.clientId }, 'PUT /order/:id/cancel', [{ field: 'status', before: 'CONFIRMED', after: 'CANCELLED' }]],
      [
        { kind: 'person', id: 'ana@norte.example' },
        'PUT /order/:id/confirm',
        [
          { field: 'status', before: 'PENDING', after: 'CONFIRMED' },
          { field: 'deliveryDate', before: null, after: '2026-03-05' },
        ],
      ],
    ]);
    // The changes are the entry's own field, not repeated in the detail.
    expect(entries.every((e: any) => e.detail === null)).toBe(true);
  });

  it('records a price list switched off, a role changed and the webhook moved; nothing for a creation or an update that changed nothing', async () => {
    await ok(as(t, s, 'POST', '/pricelist', { internalCode: 'PL-CHG', name: 'Mayoristas' }));
    await ok(as(t, s, 'PUT', '/pricelist/PL-CHG/status', { enabled: false }));
    await ok(as(t, s, 'PUT', '/pricelist/PL-CHG/status', { enabled: false }));
    const lists = (await audit(s, '?entity=pricelist&entityId=PL-CHG')).data;
    expect(lists.map((e: any) => [e.operation, e.changes])).toEqual([
      ['PUT /pricelist/:code/status', undefined],
      ['PUT /pricelist/:code/status', [{ field: 'enabled', before: true, after: false }]],
      ['POST /pricelist', undefined],
    ]);

    const owner = await memberSession(t, s, 'owner.chg@norte.example', 'owner');
    const invited = await ok(as(t, owner, 'POST', '/member', { email: 'luis@norte.example', role: 'viewer' }));
    await ok(as(t, owner, 'PUT', `/member/${invited.id}`, { role: 'manager' }));
    expect((await audit(s, `?entity=member&entityId=${invited.id}`)).data[0]).toMatchObject({ operation: 'PUT /member/:id', changes: [{ field: 'role', before: 'viewer', after: 'manager' }] });

    const first = await ok(as(t, s, 'PUT', '/webhook', { baseUrl: 'https://erp.example/a', enabled: false }));
    await ok(as(t, s, 'PUT', '/webhook', { baseUrl: 'https://erp.example/b', enabled: true }));
    await ok(as(t, s, 'POST', '/webhook/rotate-secret'));
    const hooks = (await audit(s, '?entity=webhook')).data;
    expect(hooks[0]).toMatchObject({ operation: 'POST /webhook/rotate-secret' });
    expect(hooks[0].changes).toBeUndefined();
    expect(hooks[1].changes).toEqual([
      { field: 'baseUrl', before: 'https://erp.example/a', after: 'https://erp.example/b' },
      { field: 'enabled', before: false, after: true },
    ]);
    // A secret is never kept, before or after.
    expect(JSON.stringify(hooks)).not.toContain(first.secret);
  });

  it('keeps the detail a route writes beside the changes; a batch keeps none', async () => {
    const res = await as(t, s, 'POST', '/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'PL-CHG', productInternalCode: 'P1', units: 1, price: 5 }] } });
    expect(res.statusCode, res.body).toBe(202);
    const [batch] = (await audit(s, '?entity=batch')).data;
    expect(batch.detail).toMatchObject({ endpoint: '/batch/pricelist' });
    expect(batch.changes).toBeUndefined();
  });

  it('records an operator switching a supplier off and on, and the supplier sees the changes by the platform', async () => {
    await ok(t.admin('PUT', `/admin/suppliers/${other.id}/status`, { enabled: false }));
    await ok(t.admin('PUT', `/admin/suppliers/${other.id}/status`, { enabled: true }));
    const res = await ok(t.admin('GET', `/admin/audit?supplier=${other.id}&entity=supplier`));
    expect(res.data.slice(0, 2).map((e: any) => e.changes)).toEqual([[{ field: 'enabled', before: false, after: true }], [{ field: 'enabled', before: true, after: false }]]);
  });
});

describe('sign-ins', () => {
  it('lists a console sign-in for each supplier the person belongs to, and an operator’s for the platform only', async () => {
    const both = await t.supplier();
    await ok(t.admin('POST', `/admin/suppliers/${both.id}/members`, { email: 'rosa@doble.example', role: 'viewer' }));
    await ok(t.admin('POST', `/admin/suppliers/${other.id}/members`, { email: 'rosa@doble.example', role: 'agent' }));
    await consoleSignIn(t, 'rosa@doble.example');
    for (const supplier of [both, other]) {
      const page = await audit(supplier, '?entity=session&actor=rosa%40doble.example');
      expect(page.data).toEqual([
        expect.objectContaining({ supplierId: supplier.id, actor: { kind: 'person', id: 'rosa@doble.example' }, operation: 'POST /console/auth/token', entity: 'session', entityId: null, clientAddress: '127.0.0.1' }),
      ]);
      expect(page.data[0].requestId).toEqual(expect.any(String));
    }

    await addOperator(t.deps.db, 'ops.signin@platform.example');
    await consoleSignIn(t, 'ops.signin@platform.example');
    const operators = await ok(t.admin('GET', '/admin/audit?entity=session&actor=ops.signin%40platform.example'));
    expect(operators.data).toEqual([expect.objectContaining({ supplierId: null, actor: { kind: 'operator', id: 'ops.signin@platform.example' }, operation: 'POST /console/auth/token' })]);
    // No supplier sees an operator's sign-in.
    expect((await audit(both, '?entity=session&actor=platform')).total).toBe(0);
  });

  it('lists nothing for a wrong code', async () => {
    const before = (await audit(s, '?entity=session')).total;
    await ok(t.request({ method: 'POST', url: '/console/auth/code', payload: { email: 'ana@norte.example' } }));
    const wrong = await t.request({ method: 'POST', url: '/console/auth/token', payload: { email: 'ana@norte.example', code: '000000' } });
    expect(wrong.statusCode).toBe(401);
    expect((await audit(s, '?entity=session')).total).toBe(before);
  });
});
