import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/lib/secrets.ts';
import { DEFAULT_SCOPES } from '../../src/modules/auth/scopes.ts';
import { waitUntil as waitForCondition } from '../../support/wait.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

// A clock the test moves, for token expiry.
let now = new Date('2026-11-21T12:00:00.000Z');
const clock = { now: () => now };

let t: TestApp;
let a: TestSupplier;
let b: TestSupplier;
beforeAll(async () => {
  t = await createTestApp({ clock, worker: false });
  a = await t.supplier();
  b = await t.supplier();
});
afterAll(() => t.close());

/** Polls (the NOTIFY reaches a PostgreSQL listener a few milliseconds after its commit). */
const waitUntil = (what: string, condition: () => Promise<boolean>) => waitForCondition(what, condition, 5000, 10);

const login = (apiKey: string | undefined, clientId: string, clientSecret: string) =>
  t.request({ method: 'POST', url: '/login', headers: apiKey ? { 'x-api-key': apiKey } : {}, payload: { clientId, clientSecret } });

describe('POST /login', () => {
  it('answers an OAuth-style token with every scope of the credential', async () => {
    const res = await login(a.apiKey, a.clientId, a.clientSecret);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(body.scope.split(' ').sort()).toEqual([...DEFAULT_SCOPES].sort());
    expect(body.scope).not.toContain('supplier/member.write');
    expect(body.scope).not.toContain('supplier/credential.write');
    const [, payload] = body.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(claims).toMatchObject({ sub: a.clientId, sup: a.id });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(typeof claims.jti).toBe('string');
  });

  it('answers the same 401 whichever part is wrong', async () => {
    const failures = await Promise.all([
      login(a.apiKey, a.clientId, 'wrong-secret'),
      login('key_wrong', a.clientId, a.clientSecret),
      login(undefined, a.clientId, a.clientSecret),
      login(b.apiKey, a.clientId, a.clientSecret), // key of another supplier
      login(a.apiKey, 'cli_unknown', a.clientSecret),
    ]);
    for (const res of failures) {
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
      const { requestId: _, ...rest } = res.json();
      expect(rest).toEqual({
        status: 401,
        code: 'UNAUTHENTICATED',
        title: 'Authentication failed',
        detail: 'invalid API key or client credentials',
        errors: [],
      });
    }
  });

  it('refuses a body without the credential fields with 400 and pointers', async () => {
    const res = await t.request({ method: 'POST', url: '/login', headers: { 'x-api-key': a.apiKey }, payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['/clientId', '/clientSecret']);
  });
});

describe('supplier authentication', () => {
  const get = (headers: Record<string, string>) => t.request({ method: 'GET', url: '/pricelist/NOPE', headers });

  it('accepts Bearer and the bare token', async () => {
    expect((await get(a.headers)).statusCode).toBe(404);
    expect((await get({ 'x-api-key': a.apiKey, authorization: a.token })).statusCode).toBe(404);
  });

  it('answers 401 for missing, malformed, mismatched or expired credentials', async () => {
    expect((await get({ authorization: `Bearer ${a.token}` })).statusCode).toBe(401);
    expect((await get({ 'x-api-key': a.apiKey })).statusCode).toBe(401);
    expect((await get({ 'x-api-key': a.apiKey, authorization: 'Bearer not.a.jwt' })).statusCode).toBe(401);
    expect((await get({ 'x-api-key': b.apiKey, authorization: `Bearer ${a.token}` })).statusCode).toBe(401);
    const tampered = a.token.slice(0, -4) + (a.token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await get({ 'x-api-key': a.apiKey, authorization: `Bearer ${tampered}` })).statusCode).toBe(401);

    const fresh = (await login(a.apiKey, a.clientId, a.clientSecret)).json().access_token;
    now = new Date(now.getTime() + 3601 * 1000);
    try {
      const res = await get({ 'x-api-key': a.apiKey, authorization: `Bearer ${fresh}` });
      expect(res.statusCode).toBe(401);
      expect(res.json().detail).toMatch(/expired/);
    } finally {
      now = new Date(now.getTime() - 3601 * 1000);
    }
  });

  it('answers 403 naming the scope a token lacks', async () => {
    const reader = await t.supplier(undefined, ['supplier/pricelist.read']);
    expect((await as(t, reader, 'GET', '/pricelist/NOPE')).statusCode).toBe(404);
    const res = await as(t, reader, 'POST', '/pricelist', { internalCode: 'PL' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'INSUFFICIENT_SCOPE', detail: 'this operation needs the scope supplier/pricelist.write' });
  });

  it('stops a revoked client at once, its tokens and its logins', async () => {
    const c = await t.supplier();
    expect((await as(t, c, 'GET', '/pricelist/X')).statusCode).toBe(404);
    const revoked = await t.admin('DELETE', `/admin/credentials/${c.clientId}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ clientId: c.clientId, revoked: true });
    expect((await as(t, c, 'GET', '/pricelist/X')).statusCode).toBe(401);
    expect((await login(c.apiKey, c.clientId, c.clientSecret)).statusCode).toBe(401);
    expect((await t.admin('DELETE', '/admin/credentials/cli_nobody')).statusCode).toBe(404);
  });

  it('trusts a pair it has just proven, until any process announces a revocation', async () => {
    const c = await t.supplier();
    await waitUntil('the credentials listener', async () => t.deps.liveCredentials.isListening); // a PostgreSQL listener connects in the background
    expect((await as(t, c, 'GET', '/pricelist/X')).statusCode).toBe(404);
    // Another process revokes: its row changes here, and its NOTIFY comes separately.
    await t.deps.db.updateTable('api_clients').set({ revoked_at: new Date() }).where('client_id', '=', c.clientId).execute();
    const trusted = await as(t, c, 'GET', '/pricelist/X');
    expect(trusted.statusCode).toBe(404); // proven a moment ago, no revocation heard yet
    await sql`select pg_notify('credentials_revoked', '')`.execute(t.deps.db);
    await waitUntil('the revocation to take effect', async () => (await as(t, c, 'GET', '/pricelist/X')).statusCode === 401);
    expect((await as(t, c, 'GET', '/pricelist/X')).statusCode).toBe(401);
    expect((await as(t, a, 'GET', '/pricelist/X')).statusCode).toBe(404); // others are asked again and still live
  });

  it('stores secrets and API keys only as hashes', async () => {
    const rows = await t.deps.db.selectFrom('api_clients').selectAll().where('client_id', '=', a.clientId).execute();
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(a.apiKey);
    expect(stored).not.toContain(a.clientSecret);
    expect(rows[0]!.api_key_hash).toBe(sha256(a.apiKey));
    expect(rows[0]!.secret_hash).toBe(sha256(a.clientSecret));
  });
});

describe('admin API', () => {
  it('requires the admin token', async () => {
    const none = await t.request({ method: 'POST', url: '/admin/suppliers', payload: { code: 'X', name: 'X' } });
    expect(none.statusCode).toBe(401);
    const wrong = await t.request({ method: 'POST', url: '/admin/suppliers', payload: { code: 'X', name: 'X' }, headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
    const supplierToken = await t.request({ method: 'GET', url: '/admin/suppliers', headers: { authorization: `Bearer ${a.token}` } });
    expect(supplierToken.statusCode).toBe(401);
  });

  it('creates suppliers once per code, and credentials with chosen scopes', async () => {
    const created = await t.admin('POST', '/admin/suppliers', { code: 'ADM-1', name: 'Admin One' });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ code: 'ADM-1', name: 'Admin One' });
    const again = await t.admin('POST', '/admin/suppliers', { code: 'ADM-1', name: 'Other' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'ALREADY_EXISTS', errors: [{ pointer: '/code' }] });

    const id = created.json().id;
    const issued = await t.admin('POST', `/admin/suppliers/${id}/credentials`, { scopes: ['supplier/catalog.read'] });
    expect(issued.json()).toMatchObject({ scopes: ['supplier/catalog.read'] });
    expect(issued.json().clientSecret).toMatch(/^sec_/);
    const bad = await t.admin('POST', `/admin/suppliers/${id}/credentials`, { scopes: ['supplier/everything'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].pointer).toBe('/scopes/0');
    expect((await t.admin('POST', '/admin/suppliers/999999/credentials', {})).statusCode).toBe(404);
  });

  it('sets the webhook with a whsec_ secret and rotates it', async () => {
    const set = await t.admin('PUT', `/admin/suppliers/${a.id}/webhook`, { baseUrl: 'https://erp.example/api', enabled: true });
    expect(set.statusCode).toBe(200);
    const { secret } = set.json();
    expect(set.json()).toMatchObject({ baseUrl: 'https://erp.example/api', enabled: true });
    expect(Buffer.from(secret.replace(/^whsec_/, ''), 'base64')).toHaveLength(32);
    const rotated = await t.admin('POST', `/admin/suppliers/${a.id}/webhook/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().secret).toMatch(/^whsec_/);
    expect(rotated.json().secret).not.toBe(secret);
    const row = await t.deps.db.selectFrom('supplier_webhooks').selectAll().where('supplier_id', '=', a.id).executeTakeFirstOrThrow();
    expect(row.previous_secret).toBe(secret);
    expect(row.previous_secret_expires_at).not.toBeNull();
    const kept = await t.admin('PUT', `/admin/suppliers/${a.id}/webhook`, { baseUrl: 'https://erp.example/v2', enabled: false });
    expect(kept.json()).toMatchObject({ baseUrl: 'https://erp.example/v2', enabled: false, secret: rotated.json().secret });
  });

  it('sets the global minimum order', async () => {
    const res = await t.admin('PUT', `/admin/suppliers/${a.id}/settings`, { minimumOrder: 50000.5 });
    // The settings answer every setting: the order guide's window keeps its default.
    expect(res.json()).toEqual({ minimumOrder: 50000.5, orderGuideDays: 90 });
    expect((await t.admin('PUT', `/admin/suppliers/${a.id}/settings`, { minimumOrder: null })).json()).toEqual({ minimumOrder: null, orderGuideDays: 90 });
    expect((await t.admin('PUT', `/admin/suppliers/${a.id}/settings`, { minimumOrder: -1 })).statusCode).toBe(400);
  });
});
