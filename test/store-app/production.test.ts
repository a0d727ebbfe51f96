// Issue 12: in production no sign-in code is ever written to the log. Until a sender is
// configured, POST /app/auth/code answers 503 SIGN_IN_UNAVAILABLE and the start warns;
// development keeps writing codes to the log.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { as, createTestApp, PRODUCTION_ENV } from '../helpers/app.ts';
import { freePort, processScope, waitFor } from '../helpers/process.ts';

const SIX_DIGITS = /(?<!\d)\d{6}(?!\d)/;

/** The app as `npm start` builds it (its own notifier), with every log line and console write captured. */
async function appIn(env: 'production' | 'development') {
  const lines: string[] = [];
  const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
  for (const method of ['log', 'error', 'warn', 'info'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
  }
  const t = await createTestApp({ env: { ...(env === 'production' ? PRODUCTION_ENV : { NODE_ENV: env }), LOG_LEVEL: 'trace' }, notifier: false, logger: { level: 'trace', stream } });
  const probe = await t.admin('POST', '/admin/suppliers', { code: 'PROBE', name: 'Probe' });
  if (probe.statusCode !== 200) throw new Error(`admin call failed: ${probe.body}\n${lines.join('\n').slice(-3000)}`);
  const s = await t.supplier();
  await t.runBatch(s, '/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda' }] });
  expect((await as(t, s, 'POST', '/store/S1/add/user', { users: [{ phone: '+573001112233', email: 'ana@example.com' }] })).statusCode).toBe(200);
  return { t, log: () => lines.join('\n') };
}

afterEach(() => vi.restoreAllMocks());

describe('sign-in codes and the log', () => {
  it('production with no sender: 503 SIGN_IN_UNAVAILABLE, and no code anywhere in the log', async () => {
    const { t, log } = await appIn('production');
    try {
      const res = await t.request({ method: 'POST', url: '/app/auth/code', payload: { phone: '+573001112233' } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 503, code: 'SIGN_IN_UNAVAILABLE' });
      expect((await t.request({ method: 'POST', url: '/app/auth/code', payload: { email: 'ana@example.com' } })).json().code).toBe('SIGN_IN_UNAVAILABLE');
      await new Promise((r) => setTimeout(r, 200));
      t.app.log.info('the capture works');
      expect(log()).toMatch(/the capture works/);
      expect(log()).not.toMatch(/message for/);
      expect(log()).not.toMatch(SIX_DIGITS);
    } finally {
      await t.close();
    }
  }, 240_000);

  it('development keeps writing codes to the log, and lists them in GET /dev/mailbox', async () => {
    const { t, log } = await appIn('development');
    try {
      expect((await t.request({ method: 'POST', url: '/app/auth/code', payload: { phone: '+573001112233' } })).statusCode).toBe(202);
      const line = await waitFor('the code in the log', async () => /message for \+573001112233 \(phone\): Tu código es (\d{6})/.exec(log())?.[1]);
      const box = await t.request({ method: 'GET', url: '/dev/mailbox' });
      expect(box.statusCode).toBe(200);
      expect(box.json().data[0]).toMatchObject({ to: '+573001112233', channel: 'log', body: `Tu código es ${line}. Vale por 5 minutos.` });
      expect(box.json().data[0].createdAt).toMatch(/^\d{4}-/);
      expect((await t.request({ method: 'GET', url: '/dev/mailbox', headers: { accept: 'text/html' } })).body).toContain(`Tu código es ${line}`);
      expect((await t.request({ method: 'POST', url: '/app/auth/token', payload: { phone: '+573001112233', code: line } })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  }, 240_000);
});

describe('the start', () => {
  const scope = processScope('signin-warning');
  it('warns in production that store sign-in is unavailable until a sender is configured', async () => {
    const child = scope.start(['serve'], { ...PRODUCTION_ENV, PORT: String(await freePort()), ...(await scope.storage({ migrated: true })) });
    await waitFor('the warning', async () => (/store sign-in is unavailable until a sender is configured/.test(child.output()) ? true : undefined), 150_000).catch((error) => {
      throw new Error(`${(error as Error).message}; output: ${child.output()}`);
    });
    // Production has no development convenience on, and says so.
    expect(child.output()).toMatch(/development    none \(NODE_ENV=production\)/);
    child.proc.kill('SIGTERM');
    await child.exited;
  }, 180_000);

  it('with an email channel configured, only sign-in by phone is unavailable', async () => {
    const port = await freePort();
    const child = scope.start(['serve'], {
      ...PRODUCTION_ENV,
      PORT: String(port),
      SMTP_URL: 'smtp://127.0.0.1:9',
      MAIL_FROM: 'no-reply@example.com',
      ...(await scope.storage({ migrated: true })),
    });
    await waitFor('the warning', async () => (/store sign-in by phone is unavailable until a sender is configured/.test(child.output()) ? true : undefined), 150_000).catch((error) => {
      throw new Error(`${(error as Error).message}; output: ${child.output()}`);
    });
    expect(child.output()).not.toMatch(/store sign-in is unavailable/);
    const ask = (payload: object) => fetch(`http://127.0.0.1:${port}/app/auth/code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    expect((await ask({ email: 'someone@example.com' })).status).toBe(202);
    const phone = await ask({ phone: '+573001112233' });
    expect(phone.status).toBe(503);
    expect((await phone.json()).code).toBe('SIGN_IN_UNAVAILABLE');
    child.proc.kill('SIGTERM');
    await child.exited;
  }, 180_000);
});
