// Issue 29: nobody can use someone else's sign-in against them. A stranger at another
// client address can neither use up a person's code requests, nor end the code the person
// just received, nor burn it with wrong guesses; and a code still takes at most 15
// guesses in its life (5 from the address that asked, 10 from anywhere else). The shop
// (/app/auth/*) and the console (/console/auth/*) share one implementation
// (src/modules/people/sign-in-codes.ts); every rule is checked on both.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;

const VICTIM = '198.51.100.10';
const STRANGER = '203.0.113.66';
const ELSEWHERE = '192.0.2.33';

beforeAll(async () => {
  // The per-address limits are tested in limits.test.ts; here they must not be what refuses.
  t = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
  s = await t.supplier();
  await t.runBatch(s, '/batch/store', { upsert: [{ internalCode: 'S-1', name: 'Tienda' }] });
});
afterAll(() => t.close());

interface Surface {
  name: string;
  realm: 'store' | 'console';
  code: string;
  token: string;
  /** Makes `email` someone the surface sends codes to. */
  know(email: string): Promise<void>;
}

const surfaces: Surface[] = [
  {
    name: 'the shop',
    realm: 'store',
    code: '/app/auth/code',
    token: '/app/auth/token',
    know: async (email) => expect((await as(t, s, 'POST', '/store/S-1/add/user', { users: [{ email }] })).statusCode).toBe(200),
  },
  {
    name: 'the console',
    realm: 'console',
    code: '/console/auth/code',
    token: '/console/auth/token',
    know: async (email) => expect((await t.admin('POST', `/admin/suppliers/${s.id}/members`, { email, role: 'viewer' })).statusCode).toBe(200),
  },
];

const wrongFor = (...codes: string[]) => ['000000', '111111', '222222'].find((c) => !codes.includes(c))!;

describe.each(surfaces)('$name', (surface) => {
  let n = 0;
  const person = async () => {
    const email = `${surface.realm}.person${++n}@strangers.example`;
    await surface.know(email);
    return email;
  };
  const ask = (email: string, from: string) => t.request({ method: 'POST', url: surface.code, remoteAddress: from, payload: { email } });
  const guess = (email: string, code: string, from: string) => t.request({ method: 'POST', url: surface.token, remoteAddress: from, payload: { email, code } });
  /** Codes recorded and code messages written for the email. */
  const written = async (email: string) =>
    (
      await sql<{ codes: number; messages: number }>`select
        (select count(*)::int from sign_in_codes where identifier = ${email} and realm = ${surface.realm}) as codes,
        (select count(*)::int from messages where recipient = ${email} and purpose = 'code') as messages`.execute(t.deps.db)
    ).rows[0]!;
  const received = (email: string) => t.notifier.sent.filter((m) => m.to === email && m.purpose === 'code');
  /** Every code message written for the email so far has reached it (the message worker sends after the answer). */
  const allReceived = (email: string) => expect.poll(async () => (await written(email)).messages - received(email).length).toBe(0);
  /**
   * The code `from` asks for now. The codes asked before (a stranger's) reach the person
   * first: one still on its way would otherwise arrive after it and be taken for it (seen
   * on PostgreSQL, where the message worker sends two at a time).
   */
  const codeAt = async (email: string, from: string) => {
    await allReceived(email);
    const before = received(email).length;
    const res = await ask(email, from);
    expect(res.statusCode, res.body).toBe(202);
    await expect.poll(() => received(email).length).toBe(before + 1);
    return received(email).at(-1)!.variables!.code!;
  };

  it("a stranger's code requests do not use up the person's: the person still gets a code from their own address, and it works", async () => {
    const email = await person();
    for (let i = 0; i < 8; i++) expect((await ask(email, STRANGER)).statusCode).toBe(202);
    const code = await codeAt(email, VICTIM);
    expect((await guess(email, code, VICTIM)).statusCode).toBe(200);
  });

  it('past the limit an address gets the same 202 and nothing new: no code, no message, and the live code keeps working', async () => {
    const email = await person();
    for (let i = 0; i < 5; i++) await codeAt(email, VICTIM);
    const live = t.notifier.lastCodeFor(email)!;
    const before = await written(email);
    expect(before).toEqual({ codes: 5, messages: 5 });
    const over = await ask(email, VICTIM);
    expect(over.statusCode).toBe(202);
    expect(over.json()).toEqual({ expiresIn: 300 });
    expect(await written(email)).toEqual(before);
    expect((await guess(email, live, VICTIM)).statusCode).toBe(200);
  });

  it("a stranger's code request does not end the code the person just received", async () => {
    const email = await person();
    const code = await codeAt(email, VICTIM);
    expect((await ask(email, STRANGER)).statusCode).toBe(202);
    await allReceived(email); // the stranger's code reached the person too
    expect(received(email)).toHaveLength(2);
    expect((await guess(email, code, VICTIM)).statusCode).toBe(200);
  });

  it("a stranger's wrong guesses do not burn the person's code; past 10 the stranger is refused even the right code", async () => {
    const email = await person();
    const code = await codeAt(email, VICTIM);
    const wrong = wrongFor(code);
    for (let i = 0; i < 10; i++) expect((await guess(email, wrong, STRANGER)).statusCode).toBe(401);
    // The 11th guess from elsewhere is refused, right or not: no more than 10 from elsewhere.
    const refused = await guess(email, code, ELSEWHERE);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('UNAUTHENTICATED');
    // 4 wrong tries of the person's own still leave it working where they asked.
    for (let i = 0; i < 4; i++) expect((await guess(email, wrong, VICTIM)).statusCode).toBe(401);
    expect((await guess(email, code, VICTIM)).statusCode).toBe(200);
  });

  it('a code works from another address (the person moved networks) while fewer than 10 guesses came from elsewhere', async () => {
    const email = await person();
    const code = await codeAt(email, VICTIM);
    const wrong = wrongFor(code);
    for (let i = 0; i < 9; i++) expect((await guess(email, wrong, STRANGER)).statusCode).toBe(401);
    expect((await guess(email, code, ELSEWHERE)).statusCode).toBe(200);
  });

  it('5 wrong guesses from the address that asked still burn the code, and a fresh code then works there', async () => {
    const email = await person();
    const code = await codeAt(email, VICTIM);
    const wrong = wrongFor(code);
    for (let i = 0; i < 5; i++) expect((await guess(email, wrong, VICTIM)).statusCode).toBe(401);
    expect((await guess(email, code, VICTIM)).statusCode).toBe(401);
    expect((await guess(email, code, ELSEWHERE)).statusCode).toBe(401);
    expect((await guess(email, await codeAt(email, VICTIM), VICTIM)).statusCode).toBe(200);
  });

  it('a code takes at most 15 guesses in its life: 5 from where it was asked, 10 from anywhere else', async () => {
    const email = await person();
    const code = await codeAt(email, VICTIM);
    const wrong = wrongFor(code);
    const attempts = async () =>
      (await sql<{ attempts: number; foreign_attempts: number }>`select attempts, foreign_attempts from sign_in_codes where identifier = ${email} and realm = ${surface.realm}`.execute(t.deps.db)).rows;
    for (let i = 0; i < 30; i++) await guess(email, wrong, i % 2 ? STRANGER : ELSEWHERE);
    for (let i = 0; i < 30; i++) await guess(email, wrong, VICTIM);
    expect(await attempts()).toEqual([{ attempts: 5, foreign_attempts: 10 }]);
  });
});

describe('the shop and the console apart', () => {
  it("one surface's code requests and guesses count nothing of the other's", async () => {
    const email = 'both@strangers.example';
    for (const surface of surfaces) await surface.know(email);
    const ask = (url: string) => t.request({ method: 'POST', url, remoteAddress: VICTIM, payload: { email } });
    expect((await ask('/app/auth/code')).statusCode).toBe(202);
    const shopCode = await t.notifier.waitForCode(email);
    let consoleCode = '';
    for (let i = 0; i < 5; i++) {
      expect((await ask('/console/auth/code')).statusCode).toBe(202);
      consoleCode = await t.notifier.waitForCode(email);
    }
    expect((await ask('/console/auth/code')).statusCode).toBe(202);
    const wrong = wrongFor(shopCode, consoleCode);
    for (let i = 0; i < 4; i++) await t.request({ method: 'POST', url: '/console/auth/token', remoteAddress: VICTIM, payload: { email, code: wrong } });
    expect((await t.request({ method: 'POST', url: '/app/auth/token', remoteAddress: VICTIM, payload: { email, code: shopCode } })).statusCode).toBe(200);
  });
});

describe('IPv6 addresses', () => {
  it('count by their /64 network: one host has a whole /64 to pick from, so an address of it is the same place', async () => {
    const email = 'ipv6@strangers.example';
    await surfaces[0]!.know(email);
    const home = (host: string) => `2001:db8:aa:1::${host}`;
    const ask = (from: string) => t.request({ method: 'POST', url: '/app/auth/code', remoteAddress: from, payload: { email } });
    const guess = (code: string, from: string) => t.request({ method: 'POST', url: '/app/auth/token', remoteAddress: from, payload: { email, code } });
    // Five codes from five addresses of one /64 are that network's five: the sixth writes nothing.
    let code = '';
    for (let i = 1; i <= 5; i++) {
      expect((await ask(home(String(i)))).statusCode).toBe(202);
      code = await t.notifier.waitForCode(email);
    }
    expect((await ask(home('6'))).statusCode).toBe(202);
    const rows = await sql<{ n: number }>`select count(*)::int as n from sign_in_codes where identifier = ${email}`.execute(t.deps.db);
    expect(rows.rows[0]!.n).toBe(5);
    // Wrong guesses from other addresses of the same /64 are the asking place's: 5 burn the code.
    const wrong = wrongFor(code);
    for (let i = 0; i < 5; i++) expect((await guess(wrong, home(String(10 + i)))).statusCode).toBe(401);
    expect((await guess(code, home('1'))).statusCode).toBe(401);
    // Another /64 is elsewhere: its code requests do not count against the first network's.
    const other = await ask('2001:db8:bb:1::1');
    expect(other.statusCode).toBe(202);
    expect((await guess(await t.notifier.waitForCode(email), '2001:db8:bb:1::2')).statusCode).toBe(200);
  });
});
