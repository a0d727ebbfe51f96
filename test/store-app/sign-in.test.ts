import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let a: TestSupplier;
let b: TestSupplier;
const ana = { phone: '+573001234567', email: 'ana@example.com', name: 'Ana' };

beforeAll(async () => {
  t = await createTestApp();
  a = await t.supplier();
  b = await t.supplier();
  for (const s of [a, b]) {
    await t.runBatch(s, '/batch/store', { upsert: [{ internalCode: 'S-1', name: `Tienda de ${s.code}` }] });
    expect((await as(t, s, 'POST', '/store/S-1/add/user', { users: [ana] })).statusCode).toBe(200);
  }
});
afterAll(() => t.close());

const post = (url: string, payload: unknown) => t.request({ method: 'POST', url, payload: payload as never });

describe('store user sign-in', () => {
  it('sends a code to a known person and exchanges it for a token that opens /app', async () => {
    const sent = await post('/app/auth/code', { phone: ana.phone });
    expect(sent.statusCode).toBe(202);
    expect(sent.json()).toEqual({ expiresIn: 300 });
    const code = await t.notifier.waitForCode(ana.phone);
    expect(code).toMatch(/^\d{6}$/);
    const token = await post('/app/auth/token', { phone: ana.phone, code });
    expect(token.statusCode).toBe(200);
    expect(token.json()).toMatchObject({ token_type: 'Bearer', expires_in: 7 * 24 * 3600 });
    const me = await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token.json().access_token}` } });
    expect(me.statusCode).toBe(200);
    // Signed in with the phone: the email is not theirs until they prove it.
    expect(me.json().user).toEqual({ phone: ana.phone, email: null, name: ana.name, language: null });
    expect(me.json().stores.map((s: { supplier: { code: string }; internalCode: string }) => `${s.supplier.code}/${s.internalCode}`)).toEqual([`${a.code}/S-1`, `${b.code}/S-1`]);
    // A code is used once.
    expect((await post('/app/auth/token', { phone: ana.phone, code })).statusCode).toBe(401);
  });

  it('answers an unknown person exactly as a known one, and sends nothing', async () => {
    const unknown = await post('/app/auth/code', { email: 'nobody@example.com' });
    expect(unknown.statusCode).toBe(202);
    expect(unknown.json()).toEqual({ expiresIn: 300 });
    // The send happens after the answer: let a known person's code arrive after it.
    await post('/app/auth/code', { phone: ana.phone });
    await t.notifier.waitForCode(ana.phone);
    await new Promise((r) => setTimeout(r, 200));
    expect(t.notifier.sent.filter((m) => m.to === 'nobody@example.com')).toEqual([]);
    expect((await post('/app/auth/token', { email: 'nobody@example.com', code: '123456' })).statusCode).toBe(401);
  });

  it('does the same work for a known and an unknown identifier before answering, and sends nothing in the request', async () => {
    // With the message worker stopped nothing can be sent: the answers still come, and
    // each request left exactly one code and one waiting message, whoever asked.
    await t.messages.stop();
    try {
      const count = async (recipient: string) => {
        const row = (await sql<{ codes: number; waiting: number }>`select
            (select count(*)::int from sign_in_codes where identifier = ${recipient}) as codes,
            (select count(*)::int from messages where recipient = ${recipient} and purpose = 'code' and status = 'pending') as waiting`.execute(t.deps.db)).rows[0]!;
        return row;
      };
      const before = { known: await count('ana.timing@example.com'), unknown: await count('nobody.timing@example.com') };
      expect(before.known).toEqual({ codes: 0, waiting: 0 });
      expect((await as(t, a, 'POST', '/store/S-1/add/user', { users: [{ email: 'ana.timing@example.com', name: 'Ana' }] })).statusCode).toBe(200);
      const known = await post('/app/auth/code', { email: 'ana.timing@example.com' });
      const unknown = await post('/app/auth/code', { email: 'nobody.timing@example.com' });
      expect([known.statusCode, unknown.statusCode]).toEqual([202, 202]);
      expect(known.body).toBe(unknown.body);
      expect(await count('ana.timing@example.com')).toEqual({ codes: 1, waiting: 1 });
      expect(await count('nobody.timing@example.com')).toEqual({ codes: 1, waiting: 1 });
      expect(t.notifier.sent.filter((m) => m.to.endsWith('.timing@example.com'))).toEqual([]);
    } finally {
      t.messages.start();
    }
    // Once the worker runs, only the known identifier gets its code.
    await t.notifier.waitForCode('ana.timing@example.com');
    await new Promise((r) => setTimeout(r, 200));
    expect(t.notifier.sent.filter((m) => m.to === 'nobody.timing@example.com')).toEqual([]);
  });

  it('burns a code after 5 wrong tries', async () => {
    await post('/app/auth/code', { email: 'ANA@example.com' });
    const code = await t.notifier.waitForCode('ana@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await post('/app/auth/token', { email: ana.email, code: wrong })).statusCode).toBe(401);
    const res = await post('/app/auth/token', { email: ana.email, code });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHENTICATED');
  });

  it('records at most 5 codes an hour per phone or email and client address, known or not; past that the same 202 and nothing new', async () => {
    const codes = async (identifier: string) =>
      (await sql<{ n: number }>`select count(*)::int as n from sign_in_codes where identifier = ${identifier}`.execute(t.deps.db)).rows[0]!.n;
    const sixTimes = async (email: string) => {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await post('/app/auth/code', { email })).statusCode);
      return statuses;
    };
    // No 429 an observer could tell apart: the answer is the one every request gets.
    expect(await sixTimes('limit@example.com')).toEqual([202, 202, 202, 202, 202, 202]);
    expect(await codes('limit@example.com')).toBe(5);
    // ana@example.com already had one code from this address in the previous test.
    expect(await sixTimes(ana.email)).toEqual([202, 202, 202, 202, 202, 202]);
    expect(await codes(ana.email)).toBe(5);
  });

  it('refuses a body with neither or both contacts', async () => {
    expect((await post('/app/auth/code', {})).json()).toMatchObject({ status: 400, code: 'REQUIRED' });
    expect((await post('/app/auth/code', { phone: ana.phone, email: ana.email })).json()).toMatchObject({ status: 400, code: 'MUTUALLY_EXCLUSIVE' });
    expect((await post('/app/auth/code', { phone: '3001234567' })).json()).toMatchObject({ status: 400, errors: [{ pointer: '/phone' }] });
  });

  it('keeps supplier tokens and store-user tokens out of each other\'s API', async () => {
    const minted = await t.admin('POST', '/admin/store-users/token', { email: ana.email });
    expect(minted.statusCode).toBe(200);
    const storeToken = minted.json().access_token;
    expect((await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${a.token}` } })).statusCode).toBe(401);
    const supplierCall = await t.request({ method: 'GET', url: '/store/S-1', headers: { 'x-api-key': a.apiKey, authorization: `Bearer ${storeToken}` } });
    expect(supplierCall.statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/app/me' })).statusCode).toBe(401);
    expect((await t.admin('POST', '/admin/store-users/token', { phone: '+15550000000' })).statusCode).toBe(404);
  });
});

describe('sign-in codes (issue 12)', () => {
  const codeFor = async (email: string) => {
    expect((await post('/app/auth/code', { email })).statusCode).toBe(202);
    return t.notifier.waitForCode(email);
  };
  const addUser = async (email: string) => expect((await as(t, a, 'POST', '/store/S-1/add/user', { users: [{ email }] })).statusCode).toBe(200);

  it('a new code ends every earlier one', async () => {
    const email = 'old-new@example.com';
    await addUser(email);
    const first = await codeFor(email);
    const second = await codeFor(email);
    if (first !== second) expect((await post('/app/auth/token', { email, code: first })).statusCode).toBe(401);
    expect((await post('/app/auth/token', { email, code: second })).statusCode).toBe(200);
  });

  it('burning the newest code with wrong tries does not bring an older one back', async () => {
    const email = 'revive@example.com';
    await addUser(email);
    const first = await codeFor(email);
    const second = await codeFor(email);
    const wrong = [first, second].includes('000000') ? ([first, second].includes('111111') ? '222222' : '111111') : '000000';
    for (let i = 0; i < 5; i++) expect((await post('/app/auth/token', { email, code: wrong })).statusCode).toBe(401);
    expect((await post('/app/auth/token', { email, code: first })).statusCode).toBe(401);
    expect((await post('/app/auth/token', { email, code: second })).statusCode).toBe(401);
  });

  it('4 wrong tries leave the code working; a correct fresh code is never refused', async () => {
    const email = 'four-wrong@example.com';
    await addUser(email);
    const code = await codeFor(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) expect((await post('/app/auth/token', { email, code: wrong })).statusCode).toBe(401);
    expect((await post('/app/auth/token', { email, code })).statusCode).toBe(200);
    // After a burnt code, the next fresh one still signs in.
    const burnt = await codeFor(email);
    const wrong2 = burnt === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) await post('/app/auth/token', { email, code: wrong2 });
    expect((await post('/app/auth/token', { email, code: await codeFor(email) })).statusCode).toBe(200);
  });

  it('100 concurrent code requests for one identifier from one address: every answer 202, exactly 5 codes recorded', async () => {
    const email = 'concurrent@example.com';
    const answers = await Promise.all(Array.from({ length: 100 }, () => post('/app/auth/code', { email })));
    expect(answers.map((r) => r.statusCode).filter((s) => s !== 202)).toEqual([]);
    const rows = await sql<{ n: number }>`select count(*)::int as n from sign_in_codes where identifier = ${email}`.execute(t.deps.db);
    expect(rows.rows[0]!.n).toBe(5);
  });
});
