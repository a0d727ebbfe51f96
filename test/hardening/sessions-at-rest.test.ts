// What a copy of the database (a backup, a stolen dump) can open: no session. Console
// session ids and store-user session ids are stored hashed, so the stored value is not
// what a token carries; even with the token signing key (kept in the database when
// JWT_SECRET is unset) a token forged from what is stored opens nothing. And a session
// ends on the server when its person signs out (the shop's and the console's), when an
// operator ends a store user's sessions, and when an operator is removed.
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtCodec } from '../../src/lib/jwt.ts';
import { removeOperator } from '../../src/modules/console/console.service.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { consoleSignIn } from '../helpers/console.ts';

let t: TestApp;
let s: TestSupplier;
const ana = { phone: '+573001110001', name: 'Ana' };
const bea = { phone: '+573001110002', name: 'Bea' };
const eva = { phone: '+573001110003', name: 'Eva' };
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  await t.runBatch(s, '/batch/store', { upsert: [{ internalCode: 'S-1', name: 'Tienda' }] });
  expect((await as(t, s, 'POST', '/store/S-1/add/user', { users: [ana, bea, eva] })).statusCode).toBe(200);
});
afterAll(() => t.close());

/** Signs in to the shop as `phone` (5 codes an hour per identifier: each test signs in its own person). */
async function shopSignIn(phone: string): Promise<string> {
  expect((await t.request({ method: 'POST', url: '/app/auth/code', payload: { phone } })).statusCode).toBe(202);
  const code = await t.notifier.waitForCode(phone);
  const res = await t.request({ method: 'POST', url: '/app/auth/token', payload: { phone, code } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token as string;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const appMe = (token: string) => t.request({ method: 'GET', url: '/app/me', headers: bearer(token) });
const consoleMe = (token: string) => t.request({ method: 'GET', url: '/console/me', headers: bearer(token) });
/** The token signing key as a copy of the database holds it (JWT_SECRET is unset in tests). */
const storedSecret = async () => (await sql<{ value: string }>`select value from platform_secrets where name = 'jwt'`.execute(t.deps.db)).rows[0]!.value;

describe('console sessions at rest', () => {
  it('stores the session id hashed, and a token forged from the stored value opens nothing', async () => {
    expect((await t.admin('POST', `/admin/suppliers/${s.id}/members`, { email: 'owner@rest.test', role: 'owner' })).statusCode).toBe(200);
    const { token } = await consoleSignIn(t, 'owner@rest.test');
    const sessionId = decodeJwt(token).sub!;
    const rows = (await sql<{ id: string }>`select id from console_sessions where email = 'owner@rest.test'`.execute(t.deps.db)).rows;
    expect(rows.map((r) => r.id)).toEqual([sha256(sessionId)]);
    expect((await consoleMe(token)).statusCode).toBe(200);

    const forged = await jwtCodec(await storedSecret(), 'surtido:console', 3600, () => new Date()).sign(rows[0]!.id);
    expect((await consoleMe(forged.token)).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/member', headers: bearer(forged.token) })).statusCode).toBe(401);
  });

  it('removing an operator ends their sessions at once', async () => {
    await sql`insert into operators (email) values ('op@rest.test')`.execute(t.deps.db);
    const { token } = await consoleSignIn(t, 'op@rest.test');
    expect((await t.request({ method: 'GET', url: '/admin/suppliers', headers: bearer(token) })).statusCode).toBe(200);
    expect(await removeOperator(t.deps.db, 'OP@rest.test')).toEqual({ email: 'op@rest.test', removed: true, sessionsEnded: 1 });
    expect((await t.request({ method: 'GET', url: '/admin/suppliers', headers: bearer(token) })).statusCode).toBe(401);
    expect((await consoleMe(token)).statusCode).toBe(401);
    await expect(removeOperator(t.deps.db, 'op@rest.test')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('store-user sessions at rest', () => {
  it('keeps only a hash of what the token carries, and a token forged from the database opens nothing', async () => {
    const token = await shopSignIn(ana.phone);
    const { sid, sub } = decodeJwt(token) as { sid: string; sub: string };
    expect(sid).toMatch(/^[\w-]{43}$/);
    const stored = (await sql<{ id: string; person_id: number }>`select id, person_id from store_sessions where person_id = ${Number(sub)}`.execute(t.deps.db)).rows;
    expect(stored.map((r) => r.id)).toContain(sha256(sid));
    expect(JSON.stringify(stored)).not.toContain(sid);
    expect((await appMe(token)).statusCode).toBe(200);

    // With the signing key and every stored row, the best a thief can do: no token opens /app.
    const codec = jwtCodec(await storedSecret(), 'surtido:store-user', 3600, () => new Date());
    for (const row of stored) expect((await appMe((await codec.sign(sub, { sid: row.id })).token)).statusCode).toBe(401);
    expect((await appMe((await codec.sign(sub)).token)).statusCode).toBe(401);
  });

  it('signing out of the shop ends that session on the server, and only that one', async () => {
    const phone = await shopSignIn(bea.phone);
    const laptop = await shopSignIn(bea.phone);
    const out = await t.request({ method: 'DELETE', url: '/app/session', headers: bearer(phone) });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toEqual({ ended: true });
    expect((await appMe(phone)).statusCode).toBe(401);
    expect((await t.request({ method: 'POST', url: '/app/stores/1/cart', headers: bearer(phone), payload: { items: [] } })).statusCode).toBe(401);
    expect((await t.request({ method: 'DELETE', url: '/app/session', headers: bearer(phone) })).statusCode).toBe(401);
    expect((await appMe(laptop)).statusCode).toBe(200);
  });

  it("an operator's minted token is a session too, and ending a person's sessions ends every one of them", async () => {
    const mine = await shopSignIn(eva.phone);
    const minted = await t.admin('POST', '/admin/store-users/token', { phone: eva.phone });
    expect(minted.statusCode, minted.body).toBe(200);
    const support = minted.json().access_token as string;
    expect((await appMe(support)).statusCode).toBe(200);
    const personId = Number(decodeJwt(support).sub);
    const live = async () => Number((await sql<{ n: string }>`select count(*) as n from store_sessions where person_id = ${personId} and revoked_at is null`.execute(t.deps.db)).rows[0]!.n);
    expect(await live()).toBeGreaterThanOrEqual(2);
    expect((await t.admin('POST', `/admin/store-users/${personId}/sessions/end`)).statusCode).toBe(200);
    expect(await live()).toBe(0);
    expect((await appMe(mine)).statusCode).toBe(401);
    expect((await appMe(support)).statusCode).toBe(401);
    expect((await appMe(await shopSignIn(eva.phone))).statusCode).toBe(200);
  });
});
