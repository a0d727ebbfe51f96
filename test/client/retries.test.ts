// Retries: 429 from the real service's rate limiter (Retry-After honoured), and, through a
// small proxy in front of the real service, lost answers, 503s, timeouts and refused
// connections. A write retried after a lost answer is done once: the Idempotency-Key is
// the same on every attempt and the service replays its first answer.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSurtidoClient, SurtidoApiError, SurtidoNetworkError } from 'surtido/client';
import { freePort } from '../helpers/process.ts';
import { recordingFetch, startService, type RunningService } from './helpers.ts';

type Plan = 'pass' | 'lose-answer' | '503' | 'hang' | 'in-use';

/** Forwards to the service, except for the planned misbehaviour of the next calls to a path. */
class FlakyProxy {
  private readonly plans = new Map<string, Plan[]>();
  private server!: http.Server;
  baseUrl = '';
  constructor(private readonly target: string) {}

  plan(path: string, ...plans: Plan[]) {
    this.plans.set(path, plans);
  }

  async start() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', async () => {
        const plan = this.plans.get(req.url ?? '')?.shift() ?? 'pass';
        if (plan === 'hang') return; // never answers: the client's timeout ends the attempt
        if (plan === '503') return void res.writeHead(503, { 'retry-after': '0', 'content-type': 'application/problem+json' }).end('{"status":503,"code":"SERVICE_UNAVAILABLE"}');
        if (plan === 'in-use') return void res.writeHead(409, { 'content-type': 'application/problem+json' }).end('{"status":409,"code":"IDEMPOTENCY_KEY_IN_USE"}');
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection').map(([k, v]) => [k, String(v)]));
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const answer = await fetch(this.target + req.url, { method: req.method, headers, body });
        const text = await answer.text();
        // The service did the work; the client never hears of it.
        if (plan === 'lose-answer') return void req.socket.destroy();
        const out: Record<string, string> = {};
        answer.headers.forEach((v, k) => (out[k] = v));
        delete out['content-length'];
        delete out['transfer-encoding'];
        res.writeHead(answer.status, out).end(text);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close() {
    this.server.closeAllConnections();
    this.server.close();
  }
}

let service: RunningService;
let proxy: FlakyProxy;

beforeAll(async () => {
  // One request a second per API key, bursts of three: the fourth quick call is refused.
  // Each test has its own supplier, so its own API key and bucket.
  service = await startService({ env: { RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '3' } });
  proxy = new FlakyProxy(service.baseUrl);
  await proxy.start();
});
afterAll(async () => {
  proxy.close();
  await service.close();
});

describe('429 from the rate limiter', () => {
  it('waits what Retry-After says and sends the same write again, with the same Idempotency-Key', async () => {
    const credentials = await service.credentials();
    const recorder = recordingFetch();
    const retries: { delayMs: number; reason: string }[] = [];
    const client = createSurtidoClient({ baseUrl: service.baseUrl, ...credentials, fetch: recorder.fetch, onRetry: (r) => retries.push(r) });
    await client.token();
    // Six writes at once against a burst of three: some are refused, and all end done.
    const codes = ['PL-1', 'PL-2', 'PL-3', 'PL-4', 'PL-5', 'PL-6'];
    const created = await Promise.all(codes.map((code) => client.post('/pricelist', { body: { internalCode: code } })));
    expect(created.map((c) => c.internalCode)).toEqual(codes);

    const posts = recorder.sent.filter((s) => s.path === '/pricelist');
    const refused = posts.filter((s) => s.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(3);
    expect(posts.filter((s) => s.status === 200)).toHaveLength(6);
    for (const r of refused) {
      const key = r.headers['idempotency-key'];
      expect(posts.filter((s) => s.headers['idempotency-key'] === key).at(-1)!.status).toBe(200);
    }
    expect(retries.length).toBe(refused.length);
    expect(retries.every((r) => r.reason === 'status 429' && r.delayMs >= 1000)).toBe(true);
  });

  it('throws RATE_LIMITED with the wait when retries run out or the wait is too long', async () => {
    const credentials = await service.credentials();
    const noRetry = createSurtidoClient({ baseUrl: service.baseUrl, ...credentials, retry: { retries: 0 } });
    const impatient = createSurtidoClient({ baseUrl: service.baseUrl, ...credentials, retry: { maxRetryAfterMs: 500 } });
    let error: unknown;
    for (let i = 0; i < 10 && !error; i++) error = await noRetry.get('/supplier/cancelcodes').then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(SurtidoApiError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 1 });
    const started = Date.now();
    const impatientError = await impatient.get('/supplier/cancelcodes').catch((e: unknown) => e);
    expect(impatientError).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(Date.now() - started).toBeLessThan(500);
  });
});

describe('network errors and 503', () => {
  const fast = { retries: 3, minDelayMs: 10, maxDelayMs: 50 };

  it('a write whose answer was lost is sent again and done once', async () => {
    const credentials = await service.credentials();
    const recorder = recordingFetch();
    const client = createSurtidoClient({ baseUrl: proxy.baseUrl, ...credentials, fetch: recorder.fetch, retry: fast });
    proxy.plan('/pricelist', 'lose-answer');
    const created = await client.post('/pricelist', { body: { internalCode: 'PL-LOST', name: 'Lost' } });
    expect(created).toMatchObject({ internalCode: 'PL-LOST', name: 'Lost', enabled: true });

    const posts = recorder.sent.filter((s) => s.path === '/pricelist');
    expect(posts.map((s) => s.status)).toEqual(['network error', 200]);
    expect(posts[1]!.headers['idempotency-key']).toBe(posts[0]!.headers['idempotency-key']);
    // Without the key the second attempt would have been refused: the list existed already.
    const again = await client.post('/pricelist', { body: { internalCode: 'PL-LOST' } }).catch((e: unknown) => e);
    expect(again).toMatchObject({ status: 404, code: 'ALREADY_EXISTS' });
  });

  it('retries 503, IDEMPOTENCY_KEY_IN_USE and attempts over the time limit', async () => {
    const credentials = await service.credentials();
    const recorder = recordingFetch();
    // The hung attempt ends at the client's time limit; the limit leaves a loaded machine's
    // login (a secret's hash checked) and the other calls time to answer (300 ms did not).
    const client = createSurtidoClient({ baseUrl: proxy.baseUrl, ...credentials, fetch: recorder.fetch, retry: fast, timeoutMs: 3_000 });
    proxy.plan('/login', '503');
    proxy.plan('/grouper/promotion', 'in-use');
    proxy.plan('/supplier/cancelcodes', 'hang');
    await client.post('/grouper/promotion', { body: { internalCode: 'G-1', name: 'Segment' } });
    const codes = await client.get('/supplier/cancelcodes');
    expect(codes.length).toBeGreaterThan(0);
    expect(recorder.sent.map((s) => `${s.method} ${s.path} ${s.status}`)).toEqual([
      'POST /login 503',
      'POST /login 200',
      'POST /grouper/promotion 409',
      'POST /grouper/promotion 200',
      'GET /supplier/cancelcodes network error',
      'GET /supplier/cancelcodes 200',
    ]);
  });

  it('gives up with a SurtidoNetworkError when nothing answers', async () => {
    const port = await freePort();
    const client = createSurtidoClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', clientId: 'c', clientSecret: 's', retry: fast });
    const error = await client.get('/supplier/cancelcodes').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SurtidoNetworkError);
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', attempts: 4 });
    expect((error as Error).message).toContain('ECONNREFUSED');
  });
});
