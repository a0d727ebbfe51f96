// The log: its format by setting and terminal, one line at most per request, and never a
// credential, a secret or a code.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { loggerOptions } from '../../src/http/logging.ts';
import { createTestApp, PRODUCTION_ENV, type TestApp } from '../helpers/app.ts';

describe('log settings', () => {
  it('are readable lines at a terminal in development, JSON otherwise and always in production', () => {
    expect(loadConfig({}, true).logFormat).toBe('pretty');
    expect(loadConfig({}, false).logFormat).toBe('json');
    expect(loadConfig(PRODUCTION_ENV, true).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/^LOG_FORMAT/);
    expect(loggerOptions({ logLevel: 'info', logFormat: 'pretty' })).toMatchObject({ transport: { target: 'pino-pretty' } });
    expect(loggerOptions({ logLevel: 'info', logFormat: 'json' })).not.toHaveProperty('transport');
  });

  it('refuse malformed metrics and tracing settings, naming them', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/^METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow(/^METRICS_PORT/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/^OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toMatchObject({ otlpEndpoint: 'http://collector:4318', otelServiceName: 'surtido' });
    expect(loadConfig({})).toMatchObject({ metricsPort: undefined, metricsToken: undefined, otlpEndpoint: undefined });
  });
});

describe('the JSON log of the app', () => {
  let t: TestApp;
  let lines: any[];
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    lines = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    // The same dependencies, with a log written to this stream and every request "slow"
    // (a thousandth of a millisecond: a 401 from a warm PostgreSQL can take less than 1 ms).
    const deps = { ...t.deps, config: { ...t.deps.config, logSlowRequestMs: 0.001 } };
    app = await buildApp(deps, { logger: { ...loggerOptions({ logLevel: 'info', logFormat: 'json' }), stream } });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('writes one line for a slow request, with its route pattern, and none of its credentials', async () => {
    const s = await t.supplier();
    lines.length = 0;
    const secret = 'sec_not-the-right-one-but-still-secret';
    const res = await app.inject({ method: 'POST', url: '/login', headers: { 'x-api-key': s.apiKey }, payload: { clientId: s.clientId, clientSecret: secret } });
    expect(res.statusCode).toBe(401);
    await new Promise((r) => setTimeout(r, 50));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'slow request', method: 'POST', route: '/login', statusCode: 401, reqId: res.headers['x-request-id'] });
    const text = JSON.stringify(lines);
    expect(text).not.toContain(s.apiKey);
    expect(text).not.toContain(secret);
  });

  it('redacts credentials, secrets and codes wherever a log call would include them', async () => {
    lines.length = 0;
    app.log.info(
      {
        req: { headers: { authorization: 'Bearer tok_abc', 'x-api-key': 'key_abc', cookie: 'c=1' } },
        body: { clientSecret: 'sec_abc', code: '482913', password: 'pw_abc' },
        code: '771204',
        clientSecret: 'sec_top',
        err: { code: 'ECONNREFUSED' },
      },
      'something happened',
    );
    expect(lines).toHaveLength(1);
    const text = JSON.stringify(lines[0]);
    for (const secret of ['tok_abc', 'key_abc', 'c=1', 'sec_abc', '482913', 'pw_abc', '771204', 'sec_top']) expect(text).not.toContain(secret);
    expect(lines[0].body.code).toBe('[redacted]');
    // An error's code is not a secret: it stays.
    expect(lines[0].err.code).toBe('ECONNREFUSED');
  });
});
