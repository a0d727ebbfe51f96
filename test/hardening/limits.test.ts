// No request can starve the service: body limits per kind of route, refused before any
// parsing; JSON nesting bounded before JSON.parse; slow clients disconnected on a real
// port; rate-limiter state bounded whatever keys arrive; failed logins counted apart; the
// store sign-in routes limited per client address, with X-Forwarded-For believed only
// from the proxies TRUST_PROXY names.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;
let port: number;
const PROXY = '10.0.0.1';

beforeAll(async () => {
  t = await createTestApp({
    worker: false,
    env: {
      BATCH_BODY_LIMIT_BYTES: String(2 * 1024 * 1024),
      HEADERS_TIMEOUT_MS: '500',
      REQUEST_TIMEOUT_MS: '1500',
      KEEP_ALIVE_TIMEOUT_MS: '300',
      LOGIN_RATE_LIMIT_PER_MINUTE: '5',
      AUTH_RATE_LIMIT_PER_MINUTE: '3',
      RATE_LIMIT_MAX_KEYS: '100',
      TRUST_PROXY: PROXY,
    },
  });
  s = await t.supplier();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
}, 180_000);
afterAll(() => t.close());

/** A raw connection to the running service, with what it received and when it closed. */
function connect() {
  const socket = net.connect(port, '127.0.0.1');
  const started = Date.now();
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString('latin1')));
  socket.on('error', () => {}); // a reset is one way of being disconnected
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
  const firstData = new Promise<string>((resolve) => socket.once('data', () => setImmediate(() => resolve(received))));
  return { socket, closed, firstData, received: () => received, ready: new Promise((r) => socket.once('connect', r)) };
}

const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))]);

const nested = (depth: number, inner = '0') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('body limits', () => {
  it('a few KB on /login, /app/auth/* and /console/auth/*, 1 MiB on ordinary routes, the large limit on batch endpoints and file imports', async () => {
    const padding = 'x'.repeat(5000);
    for (const url of ['/login', '/app/auth/code', '/app/auth/token', '/console/auth/code', '/console/auth/token']) {
      const res = await t.request({ method: 'POST', url, headers: { 'x-forwarded-for': '198.51.100.200' }, payload: { email: 'a@example.com', clientId: padding } });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(413);
      expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', detail: expect.stringContaining('4096') });
    }
    const big = 'y'.repeat(1024 * 1024 + 10);
    const ordinary = await as(t, s, 'POST', '/pricelist', { internalCode: 'PL', name: big });
    expect(ordinary.statusCode).toBe(413);
    expect(ordinary.json().detail).toContain(String(1024 * 1024));
    // 1.5 MiB of brands passes the body limit of a batch endpoint (and is then judged on its items).
    const brands = Array.from({ length: 15_000 }, (_, i) => ({ internalCode: `B-${i}`, name: `Brand ${i} ${'z'.repeat(70)}` }));
    const batch = await as(t, s, 'POST', '/batch/brand', brands);
    expect(JSON.stringify(brands).length).toBeGreaterThan(1.5 * 1024 * 1024);
    expect(batch.statusCode, batch.body.slice(0, 300)).toBe(202);
    const tooBig = await as(t, s, 'POST', '/order/bulk-import', { orders: [], pad: 'w'.repeat(2 * 1024 * 1024) });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().detail).toContain(String(2 * 1024 * 1024));
  });

  it('answer 413 on the Content-Length alone, before a byte of the body is read', async () => {
    const c = connect();
    await c.ready;
    c.socket.write(`POST /pricelist HTTP/1.1\r\nHost: x\r\nx-api-key: ${s.apiKey}\r\nauthorization: Bearer ${s.token}\r\ncontent-type: application/json\r\ncontent-length: ${50 * 1024 * 1024}\r\n\r\n`);
    const answer = await within(c.firstData, 3000, 'the 413');
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toContain('PAYLOAD_TOO_LARGE');
    c.socket.destroy();
  });

  it('answer 413 while a streamed body is still arriving: it is never parsed', async () => {
    const c = connect();
    await c.ready;
    c.socket.write(`POST /login HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`);
    const chunk = `{"clientId":"${'a'.repeat(1000)}`;
    // 5 KB sent, the JSON never closed and the chunked body never ended: nothing could parse it.
    for (let i = 0; i < 5; i++) c.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const answer = await within(c.firstData, 3000, 'the 413');
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    c.socket.destroy();
  });
});

describe('JSON nesting', () => {
  it('deeper than 64 levels is a 400 naming the limit; 64 levels are parsed', async () => {
    const deep = await t.request({ method: 'POST', url: '/pricelist', headers: { ...s.headers, 'content-type': 'application/json' }, payload: `{"internalCode":"PL-D","name":"n","x":${nested(64)}}` });
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({ code: 'NESTING_TOO_DEEP', detail: expect.stringContaining('64'), errors: [{ pointer: '', code: 'NESTING_TOO_DEEP' }] });
    const fine = await t.request({ method: 'POST', url: '/pricelist', headers: { ...s.headers, 'content-type': 'application/json' }, payload: `{"internalCode":"PL-D","name":"n","x":${nested(63)}}` });
    expect(fine.statusCode, fine.body).toBe(200);
    // Brackets inside strings (escaped quotes too) are text, not nesting.
    const text = JSON.stringify({ internalCode: 'PL-T', name: `"\\${'['.repeat(200)}` });
    expect((await t.request({ method: 'POST', url: '/pricelist', headers: { ...s.headers, 'content-type': 'application/json' }, payload: text })).statusCode).toBe(200);
  });

  it('on a batch endpoint it is a 402, like every structural problem', async () => {
    const res = await t.request({ method: 'POST', url: '/batch/brand', headers: { ...s.headers, 'content-type': 'application/json' }, payload: nested(65) });
    expect(res.statusCode).toBe(402);
    expect(res.json().code).toBe('NESTING_TOO_DEEP');
  });

  it('a 200,000-deep array holding a NUL overflows nothing: 400, or 413 on a sign-in route, never 500', async () => {
    const attack = nested(200_000, '"\\u0000"');
    const supplierRoute = await t.request({ method: 'POST', url: '/pricelist', headers: { ...s.headers, 'content-type': 'application/json' }, payload: attack });
    expect(supplierRoute.statusCode).toBe(400);
    expect(supplierRoute.json().code).toBe('NESTING_TOO_DEEP');
    const objects = '{"a":'.repeat(100_000) + '"\\u0000"' + '}'.repeat(100_000);
    expect((await t.request({ method: 'POST', url: '/pricelist', headers: { ...s.headers, 'content-type': 'application/json' }, payload: objects })).statusCode).toBe(400);
    for (const url of ['/login', '/app/auth/code']) {
      const res = await t.request({ method: 'POST', url, headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.201' }, payload: attack });
      expect(res.statusCode, url).toBe(413);
    }
  });
});

describe('slow clients on a real port', () => {
  it('headers sent a byte at a time and never finished: disconnected after HEADERS_TIMEOUT_MS', async () => {
    const c = connect();
    await c.ready;
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const drip = setInterval(() => c.socket.writable && c.socket.write('a'), 100);
    try {
      const after = await within(c.closed, 5000, 'the disconnection');
      expect(after).toBeGreaterThanOrEqual(400);
      expect(c.received()).toMatch(/^(HTTP\/1\.1 408|$)/);
    } finally {
      clearInterval(drip);
    }
  });

  it('a body begun and then stopped: disconnected after REQUEST_TIMEOUT_MS', async () => {
    const c = connect();
    await c.ready;
    c.socket.write(`POST /pricelist HTTP/1.1\r\nHost: x\r\nx-api-key: ${s.apiKey}\r\nauthorization: Bearer ${s.token}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"internalCode":`);
    const after = await within(c.closed, 6000, 'the disconnection');
    expect(after).toBeGreaterThanOrEqual(1000);
    expect(c.received()).toMatch(/^(HTTP\/1\.1 408|$)/);
  });

  it('an idle keep-alive connection: closed after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const c = connect();
    await c.ready;
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await within(c.firstData, 3000, 'the answer');
    expect(c.received()).toMatch(/^HTTP\/1\.1 200/);
    await within(c.closed, 3000, 'the disconnection');
  });
});

describe('rate-limiter state', () => {
  it('keeps nothing for API keys that are not ours, however many arrive, and real keys still work', async () => {
    const before = t.app.apiKeyLimiter.size;
    for (let i = 0; i < 1500; i++) {
      const junk = [`junk-${i}-${'x'.repeat(i % 500)}`, `key_${'!'.repeat(20)}${i}`, `key_${String(i).padStart(32, 'J')}`][i % 3]!;
      const res = await t.request({ method: 'GET', url: '/pricelist/X', headers: { 'x-api-key': junk, authorization: `Bearer ${s.token}` } });
      expect(res.statusCode).toBe(401);
      const forged = await t.request({ method: 'GET', url: '/pricelist/X', headers: { 'x-api-key': junk, authorization: `Bearer forged.${i}.token` } });
      expect(forged.statusCode).toBe(401);
    }
    expect(t.app.apiKeyLimiter.size).toBe(before);
    expect((await as(t, s, 'GET', '/pricelist/NOPE')).statusCode).toBe(404);
  }, 180_000);

  it('keeps one count per address for made-up keys at /login, which it limits', async () => {
    const before = t.app.loginLimiters.failures.size;
    const statuses = [];
    for (let i = 0; i < 400; i++) {
      const junk = `key_${String(i).padStart(32, 'Q')}`;
      statuses.push((await t.request({ method: 'POST', url: '/login', remoteAddress: '192.0.2.77', headers: { 'x-api-key': junk }, payload: { clientId: 'c', clientSecret: 's' } })).statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    // (One more try comes back every 12 s at 5 a minute.)
    expect(statuses.filter((code) => code === 401).length).toBeLessThanOrEqual(8);
    expect(statuses.slice(5, 50)).toEqual(Array(45).fill(429));
    expect(t.app.loginLimiters.failures.size).toBe(before + 1);
  }, 180_000);
});

describe('POST /login', () => {
  it('counts failures apart: a holder of the API key alone cannot lock the real client out', async () => {
    const victim = await t.supplier();
    const attacker = { 'x-api-key': victim.apiKey, 'x-forwarded-for': '203.0.113.66' };
    const tries = [];
    for (let i = 0; i < 12; i++) {
      tries.push((await t.request({ method: 'POST', url: '/login', remoteAddress: PROXY, headers: attacker, payload: { clientId: victim.clientId, clientSecret: `guess-${i}` } })).statusCode);
    }
    expect(tries.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(tries.slice(5)).toEqual(Array(7).fill(429));
    // Even the right secret is refused from the address that spent its failures ...
    const fromAttacker = await t.request({ method: 'POST', url: '/login', remoteAddress: PROXY, headers: attacker, payload: { clientId: victim.clientId, clientSecret: victim.clientSecret } });
    expect(fromAttacker.statusCode).toBe(429);
    // ... while the real client, elsewhere, logs in as often as its own limit allows.
    const real = { 'x-api-key': victim.apiKey, 'x-forwarded-for': '192.0.2.10' };
    for (let i = 0; i < 3; i++) {
      const res = await t.request({ method: 'POST', url: '/login', remoteAddress: PROXY, headers: real, payload: { clientId: victim.clientId, clientSecret: victim.clientSecret } });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
});

describe('/app/auth/* per client address', () => {
  const code = (forwardedFor: string, remoteAddress: string) =>
    t.request({ method: 'POST', url: '/app/auth/code', remoteAddress, headers: { 'x-forwarded-for': forwardedFor }, payload: { email: 'nobody@example.com' } });
  const token = (forwardedFor: string, remoteAddress: string) =>
    t.request({ method: 'POST', url: '/app/auth/token', remoteAddress, headers: { 'x-forwarded-for': forwardedFor }, payload: { email: 'nobody@example.com', code: '123456' } });

  it('behind the trusted proxy, each forwarded client address is limited apart', async () => {
    const first = [];
    for (let i = 0; i < 4; i++) first.push((await token('203.0.113.1', PROXY)).statusCode);
    expect(first).toEqual([401, 401, 401, 429]);
    const limited = await token('203.0.113.1', PROXY);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await token('203.0.113.2', PROXY)).statusCode).toBe(401);
    // The other route has its own count.
    expect((await code('203.0.113.1', PROXY)).statusCode).toBe(202);
  });

  it('from a sender that is not a trusted proxy, X-Forwarded-For is ignored', async () => {
    const untrusted = '192.0.2.55';
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await token(`198.51.100.${i}`, untrusted)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe('the sign-in limiter at its cap', () => {
  // Last: at the cap new addresses go through without state (src/lib/rate-limiter.ts).
  it('keeps at most RATE_LIMIT_MAX_KEYS client addresses on the sign-in routes', async () => {
    for (let i = 0; i < 400; i++) {
      const res = await t.request({ method: 'POST', url: '/app/auth/token', remoteAddress: PROXY, headers: { 'x-forwarded-for': `2001:db8::${i.toString(16)}` }, payload: { email: 'x@example.com', code: '000000' } });
      expect(res.statusCode).toBe(401);
    }
    expect(t.app.signInLimiter.size).toBeLessThanOrEqual(100);
  }, 180_000);
});
