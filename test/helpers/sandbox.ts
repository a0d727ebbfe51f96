// Test mode for tests (src/modules/sandbox): a supplier's test credential, logged in, and
// a console session switched to test mode, through the real routes.
import { expect } from 'vitest';
import type { MemberRole } from '../../src/db/types.ts';
import { ADMIN_TOKEN, injectSend, type TestApp, type TestSupplier } from './app.ts';
import { memberSession } from './console.ts';
import { expectStatus, logIn } from '../../support/service.ts';

/** The twin's supplier id (made on the first test credential or console switch). */
export async function twinIdOf(t: TestApp, liveId: number): Promise<number> {
  const row = await t.deps.db.selectFrom('suppliers').select('id').where('live_supplier_id', '=', liveId).executeTakeFirstOrThrow();
  return row.id;
}

/** A test credential of `s` issued by the operator (every scope unless named), logged in: `id` is the twin's. */
export async function testCredential(t: TestApp, s: TestSupplier, scopes?: string[]): Promise<TestSupplier> {
  const send = injectSend(t.app);
  const url = `/admin/suppliers/${s.id}/credentials`;
  const issued = expectStatus(await send('POST', url, { mode: 'test', ...(scopes ? { scopes } : {}) }, { authorization: `Bearer ${ADMIN_TOKEN}` }), 200, `POST ${url}`);
  const { token, headers } = await logIn(send, issued);
  return { id: await twinIdOf(t, s.id), code: s.code, apiKey: issued.apiKey, clientId: issued.clientId, clientSecret: issued.clientSecret, token, headers };
}

/** A member of `s` with `role`, signed in, its session switched to test mode: `id` is the twin's. */
export async function testModeSession(t: TestApp, s: TestSupplier, email: string, role: MemberRole): Promise<TestSupplier & { memberId: number }> {
  const member = await memberSession(t, s, email, role);
  const switched = await t.request({ method: 'PUT', url: '/console/me/mode', payload: { mode: 'test' }, headers: member.headers });
  expect(switched.statusCode, switched.body).toBe(200);
  expect(switched.json().mode).toBe('test');
  return { ...member, id: await twinIdOf(t, s.id) };
}
