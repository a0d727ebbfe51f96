// Test mode (src/modules/sandbox/README.md): a supplier's test twin, its credentials, the
// console's switch, and the isolation between test and live in both directions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { memberSession } from '../helpers/console.ts';
import { testCredential, testModeSession, twinIdOf } from '../helpers/sandbox.ts';

let t: TestApp;
let live: TestSupplier;
let test: TestSupplier;

const ok = (res: { statusCode: number; body: string }) => {
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(res.body);
};

beforeAll(async () => {
  t = await createTestApp();
  live = await t.supplier('TWIN-SUP');
  test = await testCredential(t, live);
});
afterAll(() => t.close());

describe('test credentials', () => {
  it('are issued by an operator with mode test: keys that say so, a token whose mode is test, and the live code and name', async () => {
    expect(test.apiKey).toMatch(/^key_test_/);
    expect(test.clientId).toMatch(/^cli_test_/);
    expect(test.clientSecret).toMatch(/^sec_test_/);
    expect(test.id).not.toBe(live.id);
    expect(ok(await as(t, test, 'GET', '/supplier'))).toEqual({ code: 'TWIN-SUP', name: 'Supplier TWIN-SUP', mode: 'test' });
    expect(ok(await as(t, live, 'GET', '/supplier'))).toEqual({ code: 'TWIN-SUP', name: 'Supplier TWIN-SUP', mode: 'live' });
  });

  it('are issued by an owner with POST /credential {mode: test}, into the one twin; without mode a credential is live', async () => {
    const owner = await memberSession(t, live, 'owner.twin@example.com', 'owner');
    const issued = ok(await as(t, owner, 'POST', '/credential', { mode: 'test', scopes: ['supplier/catalog.read'] }));
    expect(issued.apiKey).toMatch(/^key_test_/);
    expect(await twinIdOf(t, live.id)).toBe(test.id);
    const plain = ok(await as(t, owner, 'POST', '/credential', { scopes: ['supplier/catalog.read'] }));
    expect(plain.apiKey).toMatch(/^key_(?!test_)/);
    // The live list shows live credentials, the twin's its own.
    const liveList = ok(await as(t, owner, 'GET', '/credential')).data.map((c: { clientId: string }) => c.clientId);
    expect(liveList).toContain(plain.clientId);
    expect(liveList).not.toContain(issued.clientId);
    const testList = ok(await as(t, test, 'GET', '/credential')).data.map((c: { clientId: string }) => c.clientId);
    expect(testList.sort()).toEqual([test.clientId, issued.clientId].sort());
    expect(testList).not.toContain(plain.clientId);
  });

  it('issue only test credentials from test mode (a live one is refused, naming /mode)', async () => {
    const owner = await testModeSession(t, live, 'owner.test-mode@example.com', 'owner');
    const refused = await as(t, owner, 'POST', '/credential', { mode: 'live' });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().errors[0]).toMatchObject({ pointer: '/mode' });
    const defaulted = ok(await as(t, owner, 'POST', '/credential', { scopes: ['supplier/catalog.read'] }));
    expect(defaulted.apiKey).toMatch(/^key_test_/);
  });

  it('keep the twin out of the operators\' supplier list, and follow the live supplier when it is disabled', async () => {
    const listed = ok(await t.admin('GET', '/admin/suppliers')).map((s: { id: number }) => s.id);
    expect(listed).toContain(live.id);
    expect(listed).not.toContain(test.id);
    ok(await t.admin('PUT', `/admin/suppliers/${live.id}/status`, { enabled: false }));
    expect((await as(t, test, 'GET', '/supplier')).statusCode).toBe(401);
    ok(await t.admin('PUT', `/admin/suppliers/${live.id}/status`, { enabled: true }));
    expect((await as(t, test, 'GET', '/supplier')).statusCode).toBe(200);
  });

  it('refuse a bad mode with a 400 naming the field', async () => {
    const res = await t.admin('POST', `/admin/suppliers/${live.id}/credentials`, { mode: 'sandbox' });
    expect(res.statusCode, res.body).toBe(400);
    expect(JSON.stringify(res.json().errors)).toContain('/mode');
  });
});

describe('isolation between test and live', () => {
  it('keeps what a test credential writes out of live reads, and the other way round', async () => {
    ok(await as(t, test, 'PUT', '/category', { internalCode: 'ONLY-TEST', name: 'Test category' }));
    ok(await as(t, live, 'PUT', '/category', { internalCode: 'ONLY-LIVE', name: 'Live category' }));
    // The same code in both: two rows, each its own.
    ok(await as(t, test, 'PUT', '/category', { internalCode: 'BOTH', name: 'Test side' }));
    ok(await as(t, live, 'PUT', '/category', { internalCode: 'BOTH', name: 'Live side' }));
    expect((await as(t, live, 'GET', '/category/ONLY-TEST')).statusCode).toBe(404);
    expect((await as(t, test, 'GET', '/category/ONLY-LIVE')).statusCode).toBe(404);
    expect(ok(await as(t, live, 'GET', '/category/BOTH')).name).toBe('Live side');
    expect(ok(await as(t, test, 'GET', '/category/BOTH')).name).toBe('Test side');
    const codes = (body: { data: { internalCode: string }[] }) => body.data.map((c) => c.internalCode).sort();
    expect(codes(ok(await as(t, live, 'GET', '/category')))).toEqual(['BOTH', 'ONLY-LIVE']);
    expect(codes(ok(await as(t, test, 'GET', '/category')))).toEqual(['BOTH', 'ONLY-TEST']);
  });

  it('gives a console session the twin while its test-mode switch is on, with the same role, and the live supplier when off', async () => {
    const manager = await testModeSession(t, live, 'manager.twin@example.com', 'manager');
    expect(ok(await as(t, manager, 'GET', '/supplier'))).toMatchObject({ code: 'TWIN-SUP', mode: 'test' });
    expect(codesOf(ok(await as(t, manager, 'GET', '/category')))).toEqual(['BOTH', 'ONLY-TEST']);
    // The role is the live one's: a manager holds no credential scopes in test mode either.
    expect((await as(t, manager, 'GET', '/credential')).statusCode).toBe(403);
    const me = ok(await as(t, manager, 'GET', '/console/me'));
    expect(me).toMatchObject({ supplierId: live.id, mode: 'test' });
    ok(await as(t, manager, 'PUT', '/console/me/mode', { mode: 'live' }));
    expect(ok(await as(t, manager, 'GET', '/supplier')).mode).toBe('live');
    expect(codesOf(ok(await as(t, manager, 'GET', '/category')))).toEqual(['BOTH', 'ONLY-LIVE']);
  });

  it('answers the members routes in test mode, and the sandbox routes in live mode, exactly as routes that do not exist', async () => {
    const members = await as(t, test, 'GET', '/member');
    expect(members.statusCode).toBe(404);
    expect(members.json()).toMatchObject({ code: 'NOT_FOUND', detail: 'no route GET /member' });
    const sandbox = await as(t, live, 'GET', '/sandbox/checklist');
    expect(sandbox.statusCode).toBe(404);
    const unknown = await as(t, live, 'GET', '/sandbox/nothing-here');
    const strip = (body: Record<string, unknown>) => ({ ...body, requestId: undefined, detail: String(body.detail).replace(/\S+$/, '') });
    expect(strip(sandbox.json())).toEqual(strip(unknown.json()));
  });
});

const codesOf = (body: { data: { internalCode: string }[] }) => body.data.map((c) => c.internalCode).sort();
