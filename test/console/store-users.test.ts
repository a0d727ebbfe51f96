// A store's buyers from the console (issue #34): listed by GET /store/{code}, added and
// removed by the supplier API's own routes, edited in one step by PUT
// /console/stores/{code}/user, which applies the same service's remove and add in one
// transaction. A console session acts for one supplier: another's store is a 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { memberSession } from '../helpers/console.ts';

let t: TestApp;
let a: TestSupplier;
let b: TestSupplier;
let owner: TestSupplier;
let manager: TestSupplier;
let viewer: TestSupplier;
let agent: TestSupplier;

const ok = async (res: Promise<{ statusCode: number; body: string }>, expected = 200) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(expected);
  return JSON.parse(r.body || 'null');
};
const usersOf = async (s: TestSupplier, code: string) => (await ok(as(t, s, 'GET', `/store/${code}`))).users;

beforeAll(async () => {
  t = await createTestApp();
  a = await t.supplier();
  b = await t.supplier();
  await t.runBatch(a, '/batch/store', { upsert: [{ internalCode: 'S-1', name: 'Doña Rosa' }] });
  await t.runBatch(b, '/batch/store', { upsert: [{ internalCode: 'S-B', name: 'La otra' }] });
  await ok(as(t, b, 'POST', '/store/S-B/add/user', { users: [{ phone: '+573009990000', name: 'Beto' }] }));
  owner = await memberSession(t, a, 'owner.users@example.com', 'owner');
  manager = await memberSession(t, a, 'manager.users@example.com', 'manager');
  viewer = await memberSession(t, a, 'viewer.users@example.com', 'viewer');
  agent = await memberSession(t, a, 'agent.users@example.com', 'agent');
});
afterAll(() => t.close());

describe("a store's buyers from the console", () => {
  it('adds, edits and removes buyers with the supplier API rules, each write audited under the member', async () => {
    await ok(as(t, owner, 'POST', '/store/S-1/add/user', { users: [{ phone: '+573001112233', name: 'Ana' }, { email: 'Luis@Example.com', name: 'Luis' }] }));
    expect(await usersOf(owner, 'S-1')).toEqual([
      { phone: '+573001112233', email: null, name: 'Ana' },
      { phone: null, email: 'luis@example.com', name: 'Luis' },
    ]);

    // The phone changes: the membership named by the old phone is replaced whole, in one step.
    const edited = await ok(
      as(t, manager, 'PUT', '/console/stores/S-1/user', { current: { phone: '+573001112233' }, user: { phone: '+573004445566', email: 'ana@example.com', name: 'Ana María' } }),
    );
    expect(edited.users).toEqual([
      { phone: null, email: 'luis@example.com', name: 'Luis' },
      { phone: '+573004445566', email: 'ana@example.com', name: 'Ana María' },
    ]);
    // The email named in another case still finds Luis; clearing his name is possible (the edit replaces).
    await ok(as(t, owner, 'PUT', '/console/stores/S-1/user', { current: { email: 'LUIS@example.com' }, user: { email: 'luis@example.com' } }));
    expect((await usersOf(owner, 'S-1')).find((u: { email: string }) => u.email === 'luis@example.com')).toEqual({ phone: null, email: 'luis@example.com', name: null });

    await ok(as(t, owner, 'POST', '/store/S-1/remove/user', { users: [{ email: 'luis@example.com' }] }));
    expect(await usersOf(owner, 'S-1')).toEqual([{ phone: '+573004445566', email: 'ana@example.com', name: 'Ana María' }]);

    const audit = await ok(as(t, owner, 'GET', '/audit?entity=store'));
    const actors = audit.data.map((e: { actor: { id: string }; entityId: string }) => `${e.actor.id} ${e.entityId}`);
    expect(actors).toContain('manager.users@example.com S-1');
    expect(actors.filter((x: string) => x === 'owner.users@example.com S-1')).toHaveLength(3);
  });

  it('refuses an edit that would lose the buyer, naming the field, and changes nothing', async () => {
    const before = await usersOf(owner, 'S-1');
    const noContact = await ok(as(t, owner, 'PUT', '/console/stores/S-1/user', { current: { phone: '+573004445566' }, user: { name: 'Sin contacto' } }), 400);
    expect(noContact.errors).toEqual([expect.objectContaining({ pointer: '/user', code: 'REQUIRED' })]);
    const badPhone = await ok(as(t, owner, 'PUT', '/console/stores/S-1/user', { current: { phone: '+573004445566' }, user: { phone: '300 444' } }), 400);
    expect(badPhone.errors[0].pointer).toBe('/user/phone');
    const unknown = await ok(as(t, owner, 'PUT', '/console/stores/S-1/user', { current: { phone: '+573000000001' }, user: { phone: '+573000000002' } }), 404);
    expect(unknown.errors).toEqual([expect.objectContaining({ pointer: '/current', code: 'NOT_FOUND' })]);
    expect(await usersOf(owner, 'S-1')).toEqual(before);
  });

  it("answers another supplier's store as one that does not exist, and touches none of its people", async () => {
    for (const [method, url, body] of [
      ['GET', '/store/S-B', undefined],
      ['POST', '/store/S-B/add/user', { users: [{ phone: '+573001230000' }] }],
      ['POST', '/store/S-B/remove/user', { users: [{ phone: '+573009990000' }] }],
      ['PUT', '/console/stores/S-B/user', { current: { phone: '+573009990000' }, user: { phone: '+573001230000' } }],
    ] as const) {
      const theirs = await as(t, owner, method, url, body);
      const missing = await as(t, owner, method, url.replace('S-B', 'S-NONE'), body);
      expect(theirs.statusCode, `${method} ${url}: ${theirs.body}`).toBe(404);
      expect(missing.statusCode).toBe(404);
      expect(theirs.json().code).toBe(missing.json().code);
    }
    expect(await usersOf(b, 'S-B')).toEqual([{ phone: '+573009990000', email: null, name: 'Beto' }]);
  });

  it('lets a viewer read the buyers and nothing more; an agent reads no stores', async () => {
    expect(await usersOf(viewer, 'S-1')).toHaveLength(1);
    const write = await ok(as(t, viewer, 'PUT', '/console/stores/S-1/user', { current: { phone: '+573004445566' }, user: { phone: '+573004445566', name: 'X' } }), 403);
    expect(write.code).toBe('INSUFFICIENT_SCOPE');
    await ok(as(t, viewer, 'POST', '/store/S-1/add/user', { users: [{ phone: '+573001230000' }] }), 403);
    await ok(as(t, agent, 'GET', '/store/S-1'), 403);
    expect(await usersOf(owner, 'S-1')).toEqual([{ phone: '+573004445566', email: 'ana@example.com', name: 'Ana María' }]);
  });
});
