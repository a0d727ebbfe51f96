import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('CURRENCY and LOCALE settings', () => {
  it('default to COP and es-CO', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.currency).toBe('COP');
    expect(config.locale).toBe('es-CO');
  });
  it('take an ISO 4217 code and a BCP 47 tag (canonicalised)', () => {
    const config = loadConfig({ NODE_ENV: 'test', CURRENCY: 'USD', LOCALE: 'en-us' });
    expect(config.currency).toBe('USD');
    expect(config.locale).toBe('en-US');
  });
  it('refuse malformed values, naming the setting', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', CURRENCY: 'pesos' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'test', CURRENCY: 'pesos' })).toThrow(/CURRENCY/);
    expect(() => loadConfig({ NODE_ENV: 'test', LOCALE: 'not a locale!' })).toThrow(/LOCALE/);
  });
});
