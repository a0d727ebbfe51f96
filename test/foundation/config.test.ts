import { describe, expect, it } from 'vitest';
import { developmentConveniences, loadConfig } from '../../src/config.ts';
import { PRODUCTION_ENV } from '../helpers/app.ts';

describe('settings', () => {
  it('have the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      env: 'development',
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      allowPrivateAddresses: true,
      publicUrl: 'http://127.0.0.1:3000',
      timezone: 'UTC',
      rateLimitRps: 100,
      rateLimitBurst: 200,
      tokenTtlSeconds: 3600,
      bodyLimitBytes: 1024 * 1024,
      batchBodyLimitBytes: 32 * 1024 * 1024,
      signInBodyLimitBytes: 4096,
      requestTimeoutMs: 60_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
      connectionTimeoutMs: 120_000,
      trustProxy: false,
      authRateLimitPerMinute: 30,
      rateLimitMaxKeys: 10_000,
      maxBatchRequestItems: 50_000,
      batchSize: 5_000,
      adminTokenGenerated: true,
      demoSupplier: true,
    });
    expect(c.dataDir.endsWith('/data')).toBe(true);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('turn off development conveniences in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow('ADMIN_TOKEN is required when NODE_ENV=production');
    const c = loadConfig(PRODUCTION_ENV);
    expect(c).toMatchObject({ allowPrivateAddresses: false, demoSupplier: false, adminTokenGenerated: false });
    expect(c.messaging.devMailbox).toBe(false);
    expect(developmentConveniences(c)).toEqual([]);
  });

  it('NODE_ENV is production, development or test; unset is development', () => {
    expect(loadConfig({}).env).toBe('development');
    expect(loadConfig({ NODE_ENV: '' }).env).toBe('development');
    expect(loadConfig({ NODE_ENV: 'test' }).env).toBe('test');
    for (const value of ['Production', 'prod', 'staging', 'development ']) {
      expect(() => loadConfig({ ...PRODUCTION_ENV, NODE_ENV: value }), value).toThrow(`NODE_ENV must be one of production, development, test, got "${value}"`);
    }
  });

  it('production requires JWT_SECRET, so no copy of the database holds a key that signs tokens', () => {
    const { JWT_SECRET: _, ...withoutKey } = PRODUCTION_ENV;
    expect(() => loadConfig(withoutKey)).toThrow(/^JWT_SECRET is required when NODE_ENV=production/);
    expect(() => loadConfig({ ...PRODUCTION_ENV, JWT_SECRET: 'short' })).toThrow(/^JWT_SECRET must be at least 32 characters/);
    // Development and test keep the key generated once and kept in the database.
    expect(loadConfig({}).jwtSecret).toBeUndefined();
  });

  it('production never serves /metrics open on the public port: METRICS_TOKEN or METRICS_PORT is required', () => {
    const { METRICS_TOKEN: _, ...open } = PRODUCTION_ENV;
    expect(() => loadConfig(open)).toThrow(/^METRICS_TOKEN or METRICS_PORT is required when NODE_ENV=production/);
    expect(loadConfig({ ...open, METRICS_PORT: '9464' })).toMatchObject({ metricsPort: 9464, metricsToken: undefined });
    expect(loadConfig(PRODUCTION_ENV).metricsToken).toBe(PRODUCTION_ENV.METRICS_TOKEN);
    expect(loadConfig({}).metricsToken).toBeUndefined();
  });

  it('production refuses a development convenience asked for by name', () => {
    for (const name of ['ALLOW_PRIVATE_ADDRESSES', 'DEMO_SUPPLIER', 'DEV_MAILBOX']) {
      expect(() => loadConfig({ ...PRODUCTION_ENV, [name]: 'true' }), name).toThrow(`${name}=true is a development convenience, refused when NODE_ENV=production`);
      expect(loadConfig({ ...PRODUCTION_ENV, [name]: 'false' }).env, name).toBe('production');
    }
  });

  it('development has its conveniences on by default, test only what the suite needs', () => {
    expect(developmentConveniences(loadConfig({}))).toEqual(['generated admin token', 'demo supplier', '/dev/mailbox', 'codes in the log', 'private addresses']);
    expect(developmentConveniences(loadConfig({ ADMIN_TOKEN: 'a-long-enough-admin-token', DEMO_SUPPLIER: 'false', DEV_MAILBOX: 'false', ALLOW_PRIVATE_ADDRESSES: 'false', SMTP_URL: 'smtp://mail.example:587', MAIL_FROM: 'a@example.com', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 'x', TWILIO_SMS_FROM: '+1555' }))).toEqual([]);
    const test = loadConfig({ NODE_ENV: 'test', ADMIN_TOKEN: 'a-long-enough-admin-token' });
    expect(test).toMatchObject({ demoSupplier: false, allowPrivateAddresses: true });
    expect(test.messaging.devMailbox).toBe(false);
  });

  it('SMTP_REQUIRE_TLS is on in production unless the operator turns it off', () => {
    const smtp = { SMTP_URL: 'smtp://mail.example:587', MAIL_FROM: 'a@example.com' };
    expect(loadConfig({ ...PRODUCTION_ENV, ...smtp }).messaging.smtp).toMatchObject({ requireTls: true });
    expect(loadConfig({ ...PRODUCTION_ENV, ...smtp, SMTP_REQUIRE_TLS: 'false' }).messaging.smtp).toMatchObject({ requireTls: false });
    expect(loadConfig(smtp).messaging.smtp).toMatchObject({ requireTls: false });
    expect(loadConfig({ ...smtp, SMTP_REQUIRE_TLS: 'true' }).messaging.smtp).toMatchObject({ requireTls: true });
    expect(() => loadConfig({ ...smtp, SMTP_REQUIRE_TLS: 'sometimes' })).toThrow(/^SMTP_REQUIRE_TLS/);
    // Alone it asks for a channel that is not there.
    expect(() => loadConfig({ SMTP_REQUIRE_TLS: 'true' })).toThrow(/^SMTP_URL and MAIL_FROM are required when SMTP_REQUIRE_TLS is set/);
  });

  it('stop the start with a message naming a malformed setting', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^PORT must be a whole number/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/^DATABASE_URL/);
    expect(() => loadConfig({ TIMEZONE: 'Mars/Olympus' })).toThrow(/^TIMEZONE/);
    expect(() => loadConfig({ ALLOW_PRIVATE_ADDRESSES: 'maybe' })).toThrow(/^ALLOW_PRIVATE_ADDRESSES/);
    expect(() => loadConfig({ RATE_LIMIT_RPS: '0' })).toThrow(/^RATE_LIMIT_RPS/);
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow(/^PUBLIC_URL/);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/^TRUST_PROXY=true/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1, proxy.internal' })).toThrow(/^TRUST_PROXY .*"proxy.internal"/);
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '70000' })).toThrow(/^HEADERS_TIMEOUT_MS/);
  });

  it('read PUBLIC_URL, TIMEZONE and the rate limit as given', () => {
    const c = loadConfig({ PUBLIC_URL: 'https://cdn.example.com/', TIMEZONE: 'America/Bogota', RATE_LIMIT_RPS: '5', RATE_LIMIT_BURST: '9', HOST: '0.0.0.0', PORT: '8080' });
    expect(c).toMatchObject({ publicUrl: 'https://cdn.example.com', timezone: 'America/Bogota', rateLimitRps: 5, rateLimitBurst: 9, host: '0.0.0.0', port: 8080 });
  });

  it('read TRUST_PROXY as none, a hop count, or addresses and CIDR ranges', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 2001:db8::1,loopback' }).trustProxy).toEqual(['10.0.0.0/8', '2001:db8::1', 'loopback']);
  });
});
