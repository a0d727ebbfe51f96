import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

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
    const c = loadConfig({ NODE_ENV: 'production', ADMIN_TOKEN: 'a-long-enough-admin-token' });
    expect(c).toMatchObject({ allowPrivateAddresses: false, demoSupplier: false, adminTokenGenerated: false });
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
