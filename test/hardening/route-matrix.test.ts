// Every route of the app, from its own route table: whoever may not call it is turned
// away before anything else happens. A new route without a guard cannot be built (see
// src/http/auth.ts); a new guarded route is covered here without being listed.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardedRoute } from '../../src/http/auth.ts';
import { ROLE_SCOPES, SUPPLIER_SCOPES, type SupplierScope } from '../../src/modules/auth/scopes.ts';
import { ANY_SCOPE } from '../../src/modules/auth/scopes.ts';
import { ADMIN_TOKEN, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { memberSession } from '../helpers/console.ts';
import { testCredential } from '../helpers/sandbox.ts';

let t: TestApp;
let full: TestSupplier;
let storeToken: string;
let owner: TestSupplier;
const scoped = new Map<string, TestSupplier>();

const PARAMS: Record<string, string> = { uuid: randomUUID(), id: '1', supplierId: '1', storeId: '1', clientId: 'cli_x', code: 'X' };
const pathOf = (route: GuardedRoute) => route.url.replace(/:(\w+)/g, (_, name: string) => PARAMS[name] ?? 'x');

async function call(route: GuardedRoute, headers: Record<string, string>) {
  const body = route.method === 'POST' || route.method === 'PUT' ? { payload: {} } : {};
  return t.request({ method: route.method as 'GET', url: pathOf(route), headers, ...body });
}

/** A credential holding one scope that is not the route's, of the route's mode (src/http/route-config.ts). */
async function otherScope(route: GuardedRoute) {
  const other = route.scope === 'supplier/batch.read' ? 'supplier/webhook.read' : 'supplier/batch.read';
  const key = `${other} ${route.mode ?? 'live'}`;
  if (!scoped.has(key)) {
    const live = await t.supplier(undefined, [other]);
    scoped.set(key, route.mode === 'test' ? await testCredential(t, live, [other]) : live);
  }
  return scoped.get(key)!;
}

beforeAll(async () => {
  t = await createTestApp();
  full = await t.supplier();
  const store = await t.request({ method: 'POST', url: '/batch/store', headers: full.headers, payload: { upsert: [{ internalCode: 'S', name: 'S' }] } });
  expect(store.statusCode).toBe(202);
  await t.deps.db.insertInto('people').values({ phone: '+573009999999', email: null, name: 'P' }).execute();
  storeToken = (await t.admin('POST', '/admin/store-users/token', { phone: '+573009999999' })).json().access_token;
  owner = await memberSession(t, full, 'owner.matrix@example.com', 'owner');
  expect(ROLE_SCOPES.owner).toEqual(SUPPLIER_SCOPES);
});
afterAll(() => t.close());

describe('the route table', () => {
  it('has a guard on every route, and routes of every kind', () => {
    const kinds = new Set(t.app.guardedRoutes.map((r) => r.auth));
    expect([...kinds].sort()).toEqual(['admin', 'console', 'public', 'store', 'supplier']);
    expect(t.app.guardedRoutes.filter((r) => r.auth === 'supplier').length).toBeGreaterThan(40);
  });

  it('turns away supplier routes without credentials (401), without the scope (403), and for store-user tokens (401)', async () => {
    const routes = t.app.guardedRoutes.filter((r) => r.auth === 'supplier');
    for (const route of routes) {
      const what = `${route.method} ${route.url}`;
      expect((await call(route, {})).statusCode, what).toBe(401);
      const wrong = await otherScope(route);
      const refused = await call(route, wrong.headers);
      // Who am I (GET /supplier) is any caller's; every other route needs its scope.
      if (route.scope === ANY_SCOPE) expect(refused.statusCode, `${what}: ${refused.body}`).toBe(200);
      else {
        expect(refused.statusCode, what).toBe(403);
        expect(refused.json(), what).toMatchObject({ code: 'INSUFFICIENT_SCOPE', detail: `this operation needs the scope ${route.scope}` });
      }
      // A route of one mode is, for the other mode, one that does not exist (before any scope is looked at).
      if (route.mode) {
        const otherMode = route.mode === 'test' ? full : await testCredential(t, full);
        expect((await call(route, otherMode.headers)).json(), what).toMatchObject({ code: 'NOT_FOUND', detail: `no route ${route.method} ${pathOf(route)}` });
      }
      expect((await call(route, { 'x-api-key': full.apiKey, authorization: `Bearer ${storeToken}` })).statusCode, what).toBe(401);
    }
  });

  it('turns away store routes without a token or with a supplier token (401)', async () => {
    const routes = t.app.guardedRoutes.filter((r) => r.auth === 'store');
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const what = `${route.method} ${route.url}`;
      expect((await call(route, {})).statusCode, what).toBe(401);
      expect((await call(route, { authorization: `Bearer ${full.token}` })).statusCode, what).toBe(401);
    }
  });

  it("turns away admin routes without the admin token or an operator's session (401), a member's session included", async () => {
    for (const route of t.app.guardedRoutes.filter((r) => r.auth === 'admin')) {
      const what = `${route.method} ${route.url}`;
      expect((await call(route, {})).statusCode, what).toBe(401);
      expect((await call(route, { authorization: `Bearer ${full.token}` })).statusCode, what).toBe(401);
      expect((await call(route, { authorization: `Bearer ${storeToken}` })).statusCode, what).toBe(401);
      expect((await call(route, owner.headers)).statusCode, what).toBe(401);
    }
  });

  it('turns away console routes without a session, or with a supplier, store-user or admin token (401)', async () => {
    const routes = t.app.guardedRoutes.filter((r) => r.auth === 'console');
    expect(routes.length).toBeGreaterThanOrEqual(3);
    for (const route of routes) {
      const what = `${route.method} ${route.url}`;
      for (const headers of [{}, full.headers, { authorization: `Bearer ${full.token}` }, { authorization: `Bearer ${storeToken}` }, { authorization: `Bearer ${ADMIN_TOKEN}` }]) {
        expect((await call(route, headers)).statusCode, `${what} ${JSON.stringify(headers).slice(0, 40)}`).toBe(401);
      }
    }
  });

  it("gives a member's session exactly its role's scopes on every supplier route (403 naming the scope otherwise)", async () => {
    const viewer = await memberSession(t, full, 'viewer.matrix@example.com', 'viewer');
    for (const route of t.app.guardedRoutes.filter((r) => r.auth === 'supplier')) {
      const what = `${route.method} ${route.url}`;
      const res = await call(route, viewer.headers);
      if (route.mode === 'test') expect(res.statusCode, `${what}: ${res.body}`).toBe(404);
      else if (route.scope === ANY_SCOPE || ROLE_SCOPES.viewer.includes(route.scope as SupplierScope)) expect(res.statusCode, `${what}: ${res.body}`).not.toBe(403);
      else expect(res.json(), what).toMatchObject({ code: 'INSUFFICIENT_SCOPE', detail: `this operation needs the scope ${route.scope}` });
    }
  });
});
