// Console sign-in for tests, through the real routes: the operator adds the member, the
// code reaches the app's notifier (sent by the message worker), and the code is exchanged.
import { expect } from 'vitest';
import type { MemberRole } from '../../src/db/types.ts';
import type { TestApp, TestSupplier } from './app.ts';

/** Signs in to the console with `email` (already a member or an operator): the session's Authorization header. */
export async function consoleSignIn(t: TestApp, email: string): Promise<{ token: string; headers: Record<string, string> }> {
  const sent = await t.request({ method: 'POST', url: '/console/auth/code', payload: { email } });
  expect(sent.statusCode, sent.body).toBe(202);
  const code = await t.notifier.waitForCode(email);
  const res = await t.request({ method: 'POST', url: '/console/auth/token', payload: { email, code } });
  expect(res.statusCode, res.body).toBe(200);
  const token = res.json().access_token as string;
  return { token, headers: { authorization: `Bearer ${token}` } };
}

/** A member of `s` with `role`, added by the operator and signed in: `s` as that member's console session sees it. */
export async function memberSession(t: TestApp, s: TestSupplier, email: string, role: MemberRole): Promise<TestSupplier & { memberId: number }> {
  const added = await t.admin('POST', `/admin/suppliers/${s.id}/members`, { email, role });
  expect(added.statusCode, added.body).toBe(200);
  const { headers } = await consoleSignIn(t, email);
  return { ...s, headers, memberId: added.json().id };
}
