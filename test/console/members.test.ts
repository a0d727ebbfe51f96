// Supplier members, roles and invitations, console sessions and their end, operators, a
// disabled supplier, and store users' sessions ended by an operator: all through the
// real routes (the console uses these APIs itself). The isolation matrices run with a
// console session too (test/hardening/tenancy-matrix.test.ts, route-matrix.test.ts).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOperator } from '../../src/modules/console/console.service.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { consoleSignIn, memberSession } from '../helpers/console.ts';

let t: TestApp;
let s: TestSupplier;

const status = async (res: Promise<{ statusCode: number; body: string }>, expected: number) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(expected);
  return JSON.parse(r.body || 'null');
};
const call = (headers: Record<string, string>, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.request({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as never }) });

/** The invitation email the worker sent to `to`. */
async function invitationTo(to: string) {
  for (let i = 0; i < 500; i++) {
    const found = t.notifier.sent.find((m) => m.to === to && m.purpose === 'event');
    if (found) return found;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no invitation reached ${to}`);
}

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
});
afterAll(() => t.close());

describe('members and console sessions', () => {
  it('lets an operator add the first owner, who is invited by email, signs in with a code and acts on the supplier API without an API key', async () => {
    const added = await status(t.admin('POST', `/admin/suppliers/${s.id}/members`, { email: 'Owner@Alpha.example', role: 'owner' }), 200);
    expect(added).toMatchObject({ email: 'owner@alpha.example', role: 'owner' });
    const invitation = await invitationTo('owner@alpha.example');
    expect(invitation.body).toContain('/console/');
    expect(invitation.channel).toBe('email');

    const { headers } = await consoleSignIn(t, 'owner@alpha.example');
    expect(await status(call(headers, 'GET', '/console/me'), 200)).toEqual({
      email: 'owner@alpha.example',
      operator: false,
      supplierId: s.id,
      mode: 'live',
      memberships: [{ supplier: { id: s.id, code: s.code, name: expect.any(String), enabled: true }, role: 'owner' }],
    });
    // The supplier API with the session alone; the write is audited under the person.
    const created = await status(call(headers, 'POST', '/pricelist', { internalCode: 'PL-OWNER' }), 200);
    expect(created).toMatchObject({ internalCode: 'PL-OWNER' });
    const audit = await status(call(headers, 'GET', '/audit?entity=pricelist'), 200);
    expect(audit.data[0]).toMatchObject({ actor: { kind: 'person', id: 'owner@alpha.example' }, entityId: 'PL-OWNER' });
    // The same email again is refused, naming the field.
    const twice = await status(t.admin('POST', `/admin/suppliers/${s.id}/members`, { email: 'owner@alpha.example', role: 'viewer' }), 409);
    expect(twice.errors[0]).toMatchObject({ pointer: '/email', code: 'ALREADY_EXISTS' });
  });

  it('lets an owner invite, re-role and remove members; roles take effect on the next request', async () => {
    const owner = await memberSession(t, s, 'owner2@alpha.example', 'owner');
    const bad = await status(call(owner.headers, 'POST', '/member', { email: 'x@alpha.example', role: 'boss' }), 400);
    expect(bad.errors[0].pointer).toBe('/role');
    const invited = await status(call(owner.headers, 'POST', '/member', { email: 'manager@alpha.example', role: 'viewer' }), 200);
    await invitationTo('manager@alpha.example');
    const { headers: member } = await consoleSignIn(t, 'manager@alpha.example');

    // A viewer reads but cannot write.
    await status(call(member, 'GET', '/pricelist'), 200);
    const refused = await status(call(member, 'POST', '/pricelist', { internalCode: 'PL-VIEWER' }), 403);
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_SCOPE', detail: 'this operation needs the scope supplier/pricelist.write' });
    // Made manager: the same session writes at once; members stay out of reach.
    expect(await status(call(owner.headers, 'PUT', `/member/${invited.id}`, { role: 'manager' }), 200)).toMatchObject({ role: 'manager' });
    await status(call(member, 'POST', '/pricelist', { internalCode: 'PL-MANAGER' }), 200);
    await status(call(member, 'GET', '/member'), 403);
    await status(call(member, 'POST', '/credential', {}), 403);
    // Made agent: orders and tickets only.
    await status(call(owner.headers, 'PUT', `/member/${invited.id}`, { role: 'agent' }), 200);
    await status(call(member, 'GET', '/order'), 200);
    await status(call(member, 'GET', '/support/ticket'), 200);
    await status(call(member, 'GET', '/pricelist'), 403);

    const list = await status(call(owner.headers, 'GET', '/member'), 200);
    expect(list.map((m: { email: string; role: string }) => `${m.email} ${m.role}`)).toEqual(['manager@alpha.example agent', 'owner2@alpha.example owner', 'owner@alpha.example owner']);

    // Removed: the session no longer acts for the supplier, at once.
    expect(await status(call(owner.headers, 'DELETE', `/member/${invited.id}`), 200)).toEqual({ id: invited.id, removed: true });
    await status(call(member, 'GET', '/order'), 401);
    await status(call(member, 'GET', '/console/me'), 401); // their session for this supplier ended
    await status(call(owner.headers, 'DELETE', `/member/${invited.id}`), 404);
  });

  it('keeps at least one owner: the last one can be neither demoted nor removed', async () => {
    const other = await t.supplier();
    const owner = await memberSession(t, other, 'solo@beta.example', 'owner');
    const self = (await status(call(owner.headers, 'GET', '/member'), 200))[0];
    const demote = await status(call(owner.headers, 'PUT', `/member/${self.id}`, { role: 'viewer' }), 409);
    expect(demote.errors[0]).toMatchObject({ pointer: '/role', code: 'CONFLICT' });
    await status(call(owner.headers, 'DELETE', `/member/${self.id}`), 409);
    // With a second owner, the first may step down.
    await status(call(owner.headers, 'POST', '/member', { email: 'second@beta.example', role: 'owner' }), 200);
    expect(await status(call(owner.headers, 'PUT', `/member/${self.id}`, { role: 'viewer' }), 200)).toMatchObject({ role: 'viewer' });
  });

  it("lets an owner issue and revoke the supplier's API credentials, never with the owner-only scopes", async () => {
    const owner = await memberSession(t, s, 'keys@alpha.example', 'owner');
    const refused = await status(call(owner.headers, 'POST', '/credential', { scopes: ['supplier/order.read', 'supplier/member.write'] }), 400);
    expect(refused.errors).toEqual([expect.objectContaining({ pointer: '/scopes/1', code: 'INVALID_VALUE' })]);
    const issued = await status(call(owner.headers, 'POST', '/credential', {}), 200);
    expect(issued.scopes).not.toContain('supplier/member.write');
    expect(issued.scopes).not.toContain('supplier/credential.write');
    const login = () => t.request({ method: 'POST', url: '/login', headers: { 'x-api-key': issued.apiKey }, payload: { clientId: issued.clientId, clientSecret: issued.clientSecret } });
    const token = (await status(login(), 200)).access_token;
    const machine = { 'x-api-key': issued.apiKey, authorization: `Bearer ${token}` };
    await status(call(machine, 'GET', '/pricelist'), 200);
    // A machine with the default scopes cannot create members (an operator must grant it).
    await status(call(machine, 'POST', '/member', { email: 'robot@alpha.example', role: 'owner' }), 403);
    expect(await status(call(owner.headers, 'DELETE', `/credential/${issued.clientId}`), 200)).toEqual({ clientId: issued.clientId, revoked: true });
    await status(call(machine, 'GET', '/pricelist'), 401);
    // The default set of a credential the operator issues leaves them out too.
    const { scopes } = await status(t.admin('POST', `/admin/suppliers/${s.id}/credentials`, {}), 200);
    expect(scopes).not.toContain('supplier/member.write');
  });

  it('ends a session on sign-out, after 30 idle minutes, and renews it while in use', async () => {
    await status(t.admin('POST', `/admin/suppliers/${s.id}/members`, { email: 'idle@alpha.example', role: 'viewer' }), 200);
    const first = await consoleSignIn(t, 'idle@alpha.example');
    await status(call(first.headers, 'DELETE', '/console/session'), 200);
    await status(call(first.headers, 'GET', '/console/me'), 401);
    await status(call(first.headers, 'GET', '/pricelist'), 401);

    const second = await consoleSignIn(t, 'idle@alpha.example');
    const sessionOf = () => t.deps.db.selectFrom('console_sessions').select(['expires_at', 'last_used_at']).where('email', '=', 'idle@alpha.example').where('revoked_at', 'is', null).executeTakeFirstOrThrow();
    // Last used two minutes ago with five minutes left: a request renews it to 30 minutes.
    await t.deps.db.updateTable('console_sessions').set({ last_used_at: sql`now() - interval '2 minutes'`, expires_at: sql`now() + interval '5 minutes'` }).where('email', '=', 'idle@alpha.example').execute();
    await status(call(second.headers, 'GET', '/console/me'), 200);
    const renewed = await sessionOf();
    expect(renewed.expires_at.getTime() - renewed.last_used_at.getTime()).toBeGreaterThan(29 * 60_000);
    // Idle past its deadline: ended.
    await t.deps.db.updateTable('console_sessions').set({ expires_at: sql`now() - interval '1 second'` }).where('email', '=', 'idle@alpha.example').execute();
    await status(call(second.headers, 'GET', '/console/me'), 401);
  });

  it('lets a member of several suppliers choose one; another supplier answers 404', async () => {
    const second = await t.supplier();
    const third = await t.supplier();
    for (const supplier of [s, second]) await status(t.admin('POST', `/admin/suppliers/${supplier.id}/members`, { email: 'both@example.com', role: 'viewer' }), 200);
    const { headers } = await consoleSignIn(t, 'both@example.com');
    const me = await status(call(headers, 'GET', '/console/me'), 200);
    expect(me.supplierId).toBeNull();
    expect(me.memberships).toHaveLength(2);
    expect((await status(call(headers, 'GET', '/pricelist'), 401)).detail).toContain('PUT /console/me/supplier');
    const chosen = await status(call(headers, 'PUT', '/console/me/supplier', { supplierId: second.id }), 200);
    expect(chosen.supplierId).toBe(second.id);
    const lists = await status(call(headers, 'GET', '/pricelist'), 200);
    expect(JSON.stringify(lists)).not.toContain('PL-OWNER'); // s's list, not second's
    const notMine = await status(call(headers, 'PUT', '/console/me/supplier', { supplierId: third.id }), 404);
    expect(notMine.errors[0].pointer).toBe('/supplierId');
  });
});

describe('console sign-in codes', () => {
  it('answers an email nobody invited exactly like a member, and sends it nothing', async () => {
    const known = await status(t.request({ method: 'POST', url: '/console/auth/code', payload: { email: 'owner@alpha.example' } }), 202);
    const unknown = await status(t.request({ method: 'POST', url: '/console/auth/code', payload: { email: 'nobody@alpha.example' } }), 202);
    expect(unknown).toEqual(known);
    await t.notifier.waitForCode('owner@alpha.example');
    await status(t.request({ method: 'POST', url: '/console/auth/code', payload: { email: 'owner@alpha.example' } }), 202);
    await t.notifier.waitForCode('owner@alpha.example'); // sent after the unknown one was handled
    expect(t.notifier.sent.filter((m) => m.to === 'nobody@alpha.example')).toEqual([]);
    const wrong = await status(t.request({ method: 'POST', url: '/console/auth/token', payload: { email: 'nobody@alpha.example', code: '000000' } }), 401);
    expect(wrong.code).toBe('UNAUTHENTICATED');
  });

  it("keeps console codes apart from the shop's: neither ends the other, and their limits are counted apart", async () => {
    const email = 'buyer.and.member@alpha.example';
    await t.runBatch(s, '/batch/store', { upsert: [{ internalCode: 'S-CODES', name: 'Codes' }] });
    await status(as(t, s, 'POST', '/store/S-CODES/add/user', { users: [{ email }] }), 200);
    await status(t.admin('POST', `/admin/suppliers/${s.id}/members`, { email, role: 'viewer' }), 200);

    await status(t.request({ method: 'POST', url: '/app/auth/code', payload: { email } }), 202);
    const shopCode = await t.notifier.waitForCode(email);
    // Five console codes (the hourly limit of the console realm from one address), the sixth answered alike but not recorded...
    for (let i = 0; i < 6; i++) await status(t.request({ method: 'POST', url: '/console/auth/code', payload: { email } }), 202);
    const consoleCodes = await sql<{ n: number }>`select count(*)::int as n from sign_in_codes where identifier = ${email} and realm = 'console'`.execute(t.deps.db);
    expect(consoleCodes.rows[0]!.n).toBe(5);
    // A shop code is no console code...
    await status(t.request({ method: 'POST', url: '/console/auth/token', payload: { email, code: shopCode } }), 401);
    // ...and the console's codes ended nothing of the shop's: its code still works, and it may still send codes.
    await status(t.request({ method: 'POST', url: '/app/auth/token', payload: { email, code: shopCode } }), 200);
    await status(t.request({ method: 'POST', url: '/app/auth/code', payload: { email } }), 202);
  });
});

describe('operators', () => {
  it("sign in like members and reach the admin API with their session; their writes are audited under their email", async () => {
    await addOperator(t.deps.db, 'ops@platform.example');
    const { headers } = await consoleSignIn(t, 'ops@platform.example');
    expect(await status(call(headers, 'GET', '/console/me'), 200)).toMatchObject({ operator: true, supplierId: null, memberships: [] });
    const created = await status(call(headers, 'POST', '/admin/suppliers', { code: 'OPS-MADE', name: 'Made by ops' }), 200);
    await status(call(headers, 'POST', `/admin/suppliers/${created.id}/members`, { email: 'first@ops.example', role: 'owner' }), 200);
    const audit = await status(t.admin('GET', `/admin/audit?supplier=${created.id}`), 200);
    expect(audit.data.map((e: { actor: unknown }) => e.actor)).toEqual([
      { kind: 'operator', id: 'ops@platform.example' },
      { kind: 'operator', id: 'ops@platform.example' },
    ]);
    // An operator's session is no supplier's.
    await status(call(headers, 'GET', '/pricelist'), 401);
  });
});

describe('a disabled supplier', () => {
  it('stops its credentials and console sessions at once and shows its stores to buyers as closed; enabling restores them', async () => {
    const d = await t.supplier();
    const member = await memberSession(t, d, 'staff@delta.example', 'manager');
    await t.runBatch(d, '/batch/store', { upsert: [{ internalCode: 'D-1', name: 'Delta store' }] });
    await status(as(t, d, 'POST', '/store/D-1/add/user', { users: [{ phone: '+573001110000' }] }), 200);
    const buyer = { authorization: `Bearer ${(await status(t.admin('POST', '/admin/store-users/token', { phone: '+573001110000' }), 200)).access_token}` };
    const storeId = (await status(call(buyer, 'GET', '/app/me'), 200)).stores[0].id;
    await status(as(t, d, 'GET', '/pricelist'), 200); // the pair is now trusted for a while

    expect(await status(t.admin('PUT', `/admin/suppliers/${d.id}/status`, { enabled: false }), 200)).toMatchObject({ id: d.id, enabled: false });
    await status(as(t, d, 'GET', '/pricelist'), 401);
    await status(t.request({ method: 'POST', url: '/login', headers: { 'x-api-key': d.apiKey }, payload: { clientId: d.clientId, clientSecret: d.clientSecret } }), 401);
    await status(call(member.headers, 'GET', '/pricelist'), 401);
    expect((await status(call(member.headers, 'GET', '/console/me'), 200)).memberships[0].supplier.enabled).toBe(false);
    expect((await status(call(buyer, 'GET', '/app/me'), 200)).stores[0]).toMatchObject({ id: storeId, enabled: false });

    await status(t.admin('PUT', `/admin/suppliers/${d.id}/status`, { enabled: true }), 200);
    await status(as(t, d, 'GET', '/pricelist'), 200);
    await status(call(member.headers, 'GET', '/pricelist'), 200);
    expect((await status(call(buyer, 'GET', '/app/me'), 200)).stores[0].enabled).toBe(true);
    await status(t.admin('PUT', '/admin/suppliers/2000000000/status', { enabled: false }), 404);
  });
});

describe("store users' sessions", () => {
  it('can be found by an operator and ended: the tokens issued until then stop at once', async () => {
    await t.runBatch(s, '/batch/store', { upsert: [{ internalCode: 'S-END', name: 'Ending' }] });
    await status(as(t, s, 'POST', '/store/S-END/add/user', { users: [{ phone: '+573002220000', name: 'Eva' }] }), 200);
    const notYet = await status(t.admin('GET', '/admin/store-users?phone=%2B573002220000'), 200);
    expect(notYet.person).toBeNull();
    // The query's anyOf: a phone or an email, each field named.
    expect((await status(t.admin('GET', '/admin/store-users'), 400)).errors).toEqual([
      { pointer: '/query/phone', code: 'REQUIRED', message: 'phone is required' },
      { pointer: '/query/email', code: 'REQUIRED', message: 'email is required' },
    ]);
    expect(notYet.memberships).toEqual([expect.objectContaining({ store: expect.objectContaining({ internalCode: 'S-END' }), phone: '+573002220000', name: 'Eva' })]);

    const token = (await status(t.admin('POST', '/admin/store-users/token', { phone: '+573002220000' }), 200)).access_token;
    const eva = { authorization: `Bearer ${token}` };
    await status(call(eva, 'GET', '/app/me'), 200);
    const found = await status(t.admin('GET', '/admin/store-users?phone=%2B573002220000'), 200);
    expect(found.person).toMatchObject({ phone: '+573002220000', sessionsEndedAt: null });

    const ended = await status(t.admin('POST', `/admin/store-users/${found.person.id}/sessions/end`), 200);
    expect(ended).toMatchObject({ personId: found.person.id, sessionsEndedAt: expect.any(String) });
    await status(call(eva, 'GET', '/app/me'), 401);
    // A token issued after the end works (tokens carry whole seconds: the next second).
    await new Promise((r) => setTimeout(r, 1100));
    const fresh = (await status(t.admin('POST', '/admin/store-users/token', { phone: '+573002220000' }), 200)).access_token;
    await status(call({ authorization: `Bearer ${fresh}` }, 'GET', '/app/me'), 200);
    await status(t.admin('POST', '/admin/store-users/2000000000/sessions/end'), 404);
  });
});
