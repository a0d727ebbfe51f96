// The pure parts of webhooks, without a database: the retry schedule, Retry-After,
// signing (checked with the standardwebhooks package) and the address policy.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../src/modules/suppliers/suppliers.service.ts';
import { refusePrivateAddresses } from '../../src/lib/outbound-addresses.ts';
import { holdsMask, maskedUrl, webhookUrl } from '../../src/modules/webhooks/webhooks.url.ts';
import { afterAttempt, parseRetryAfter, RETRY_DELAYS_MS, retryDelayMs } from '../../src/modules/webhooks/webhooks.schedule.ts';
import { activeSecrets, webhookHeaders } from '../../src/modules/webhooks/webhooks.signing.ts';

const H = 3600_000;

describe('retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then gives up after the 10th attempt', () => {
    expect(RETRY_DELAYS_MS).toEqual([5_000, 300_000, 1_800_000, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H]);
    const exact = Array.from({ length: 10 }, (_, i) => retryDelayMs(i + 1, 10, () => 0.5));
    expect(exact).toEqual([...RETRY_DELAYS_MS, undefined]);
    expect(retryDelayMs(1, 1)).toBeUndefined();
  });

  it('jitters each delay by at most ±20 %', () => {
    for (let i = 1; i <= 9; i++) {
      const base = RETRY_DELAYS_MS[i - 1]!;
      expect(retryDelayMs(i, 10, () => 0)).toBe(Math.round(base * 0.8));
      expect(retryDelayMs(i, 10, () => 0.999999)).toBeLessThanOrEqual(Math.round(base * 1.2));
      for (let k = 0; k < 50; k++) {
        const d = retryDelayMs(i, 10)!;
        expect(d).toBeGreaterThanOrEqual(base * 0.8 - 1);
        expect(d).toBeLessThanOrEqual(base * 1.2 + 1);
      }
    }
  });

  it('reads Retry-After as seconds or an HTTP date, capped at 24 h', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 01:00:00 GMT', now)).toBe(H);
    expect(parseRetryAfter('999999', now)).toBe(24 * H);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
  });

  it('decides the next state after an attempt', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const mid = () => 0.5;
    const result = (statusCode: number | null, retryAfter?: string) => ({ ok: statusCode !== null && statusCode < 300 && statusCode >= 200, statusCode, error: statusCode === null ? 'ECONNREFUSED' : null, retryAfter });
    expect(afterAttempt({ attempts: 0, maxAttempts: 10, result: result(201), finishedAt: at }, mid)).toMatchObject({ status: 'delivered', lastError: null });
    expect(afterAttempt({ attempts: 0, maxAttempts: 10, result: result(500), finishedAt: at }, mid)).toEqual({
      status: 'pending',
      nextAttemptAt: new Date(at.getTime() + 5_000),
      lastError: 'the receiver answered 500',
      disableWebhook: false,
    });
    expect(afterAttempt({ attempts: 0, maxAttempts: 10, result: result(null), finishedAt: at }, mid).lastError).toBe('ECONNREFUSED');
    // 3xx is a failure like any other answer that is not 2xx.
    expect(afterAttempt({ attempts: 0, maxAttempts: 10, result: result(301), finishedAt: at }, mid).status).toBe('pending');
    expect(afterAttempt({ attempts: 9, maxAttempts: 10, result: result(500), finishedAt: at }, mid).status).toBe('failed');
    // Retry-After: at least that long, only for 429 and 503.
    expect(afterAttempt({ attempts: 0, maxAttempts: 10, result: result(429, '600'), finishedAt: at }, mid).nextAttemptAt).toEqual(new Date(at.getTime() + 600_000));
    expect(afterAttempt({ attempts: 3, maxAttempts: 10, result: result(503, '60'), finishedAt: at }, mid).nextAttemptAt).toEqual(new Date(at.getTime() + 2 * H));
    expect(afterAttempt({ attempts: 0, maxAttempts: 10, result: result(500, '600'), finishedAt: at }, mid).nextAttemptAt).toEqual(new Date(at.getTime() + 5_000));
    expect(afterAttempt({ attempts: 0, maxAttempts: 10, result: result(503, '9999999'), finishedAt: at }, mid).nextAttemptAt).toEqual(new Date(at.getTime() + 24 * H));
    // 410: disable; sent again as soon as the webhook is enabled.
    expect(afterAttempt({ attempts: 0, maxAttempts: 10, result: result(410), finishedAt: at }, mid)).toMatchObject({ status: 'pending', nextAttemptAt: at, disableWebhook: true });
  });
});

describe('signing', () => {
  it('signs as Standard Webhooks does, and with both secrets during a rotation', () => {
    const now = new Date();
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const secrets = activeSecrets({ secret: current, previousSecret: previous, previousSecretExpiresAt: new Date(now.getTime() + 1000) }, now);
    expect(secrets).toEqual([current, previous]);
    const body = JSON.stringify({ id: 1, name: 'Café ñ' });
    const headers = webhookHeaders({ webhookId: 'msg_1', eventType: 'ticket.created', body, secrets, timestamp: now });
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual({ id: 1, name: 'Café ñ' });
    expect(new Webhook(previous).verify(body, headers)).toEqual({ id: 1, name: 'Café ñ' });
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow();
    expect(activeSecrets({ secret: current, previousSecret: previous, previousSecretExpiresAt: new Date(now.getTime() - 1) }, now)).toEqual([current]);
  });

  it('joins the base URL and the path', () => {
    expect(webhookUrl('https://erp.example/api/', '/webhooks/order')).toBe('https://erp.example/api/webhooks/order');
    expect(webhookUrl('https://erp.example', '/webhooks/ping')).toBe('https://erp.example/webhooks/ping');
    // The path goes before the query, never after it; the fragment is dropped.
    expect(webhookUrl('https://h/x?token=t', '/webhooks/ping')).toBe('https://h/x/webhooks/ping?token=t');
    expect(webhookUrl('https://u:p@h/x/?a=1&b=2#f', '/webhooks/order')).toBe('https://u:p@h/x/webhooks/order?a=1&b=2');
  });

  it('masks the password, a lone user name and the query values of a URL, and knows a masked one', () => {
    expect(maskedUrl('https://user:pa%40ss@erp.example/x?token=t&v=2&flag#f')).toBe('https://user:***@erp.example/x?token=***&v=***&***#f');
    expect(maskedUrl('https://tok@erp.example/')).toBe('https://***@erp.example/');
    expect(maskedUrl('https://erp.example/hooks')).toBe('https://erp.example/hooks');
    expect(maskedUrl(null)).toBeNull();
    expect(maskedUrl('not a url')).toBe('***');
    for (const masked of ['https://user:***@h/x', 'https://***@h/', 'https://h/x?token=***', 'https://h/x?a=1&***']) expect(holdsMask(masked), masked).toBe(true);
    for (const plain of ['https://user:p@h/x', 'https://h/x?token=t', 'https://h/***', 'https://h/x?a=****']) expect(holdsMask(plain), plain).toBe(false);
  });
});

describe('address policy', () => {
  it('refuses loopback, private, link-local and metadata addresses and allows public ones', () => {
    expect(refusePrivateAddresses('169.254.169.254')).toMatch(/metadata/);
    expect(refusePrivateAddresses('fd00:ec2::254')).toMatch(/metadata/);
    expect(refusePrivateAddresses('127.0.0.1')).toMatch(/loopback/);
    expect(refusePrivateAddresses('::1')).toMatch(/loopback/);
    expect(refusePrivateAddresses('::ffff:127.0.0.1')).toMatch(/loopback/);
    expect(refusePrivateAddresses('10.1.2.3')).toMatch(/private/);
    expect(refusePrivateAddresses('172.20.0.1')).toMatch(/private/);
    expect(refusePrivateAddresses('192.168.1.1')).toMatch(/private/);
    expect(refusePrivateAddresses('fd12::1')).toMatch(/private/);
    expect(refusePrivateAddresses('169.254.10.10')).toMatch(/link-local/);
    expect(refusePrivateAddresses('fe80::1')).toMatch(/link-local/);
    expect(refusePrivateAddresses('0.0.0.0')).toMatch(/unspecified/);
    expect(refusePrivateAddresses('8.8.8.8')).toBeUndefined();
    expect(refusePrivateAddresses('2001:4860:4860::8888')).toBeUndefined();
    expect(refusePrivateAddresses('172.32.0.1')).toBeUndefined();
  });
});
