// Downloads never reach loopback, private, link-local or metadata addresses unless
// ALLOW_PRIVATE_ADDRESSES allows them: not by an IP in the URL, not by a name that
// resolves to one, not by a redirect. Refused downloads never connect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusePrivateAddresses } from '../../src/lib/outbound-addresses.ts';
import { retryDelaySeconds } from '../../src/modules/images/images.worker.ts';
import { createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { batch, getJson, makeImage, redirect, serve, startImageServer, untilSettled, type ImageServer } from './helpers.ts';

describe('the address rules', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.255.0.9', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:7f00:1', 'a loopback address'],
    ['0.0.0.0', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['10.1.2.3', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['100.64.0.1', 'a private address'],
    ['fd12:3456::1', 'a private address'],
    ['::ffff:10.0.0.1', 'a private address'],
    ['169.254.1.1', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['169.254.169.254', 'a cloud metadata address'],
    ['fd00:ec2::254', 'a cloud metadata address'],
    ['100.100.100.200', 'a cloud metadata address'],
    ['224.0.0.1', 'a reserved address'],
    ['255.255.255.255', 'a reserved address'],
    ['::7f00:1', 'an IPv4-compatible address embedding 127.0.0.1 (a loopback address)'],
    ['::ffff:8.8.8.8', 'an IPv4-mapped address'],
    ['::ffff:0:7f00:1', 'an IPv4-translated address embedding 127.0.0.1 (a loopback address)'],
    ['64:ff9b::7f00:1', 'a NAT64 address embedding 127.0.0.1 (a loopback address)'],
    ['64:ff9b::a9fe:a9fe', 'a NAT64 address embedding 169.254.169.254 (a cloud metadata address)'],
    ['64:ff9b::808:808', 'a NAT64 address'],
    ['64:ff9b:1::a00:1', 'a NAT64 address embedding 10.0.0.1 (a private address)'],
    ['2002:7f00:1::1', 'a 6to4 address embedding 127.0.0.1 (a loopback address)'],
    ['2002:c0a8:101::1', 'a 6to4 address embedding 192.168.1.1 (a private address)'],
    ['2002:808:808::1', 'a 6to4 address'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'a Teredo address embedding 127.0.0.1 (a loopback address)'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'a Teredo address'],
    ['fec0::1', 'a site-local address'],
    ['2a00:1450::5efe:a00:1', 'an ISATAP address embedding 10.0.0.1 (a private address)'],
    ['fe80::1%eth0', 'a link-local address'],
    ['4000::1', 'a reserved address'],
    ['168.63.129.16', 'a cloud metadata address'],
  ])('refuses %s as %s', (address, kind) => {
    expect(refusePrivateAddresses(address)).toBe(`${address} is ${kind}`);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2606:4700::1111', '2a00:1450::200:5efe:808:808'])('allows the public address %s', (address) => {
    expect(refusePrivateAddresses(address)).toBeUndefined();
  });

  it('retries transient failures after 30 s, 2, 8 and 32 minutes, then hourly', () => {
    expect([1, 2, 3, 4, 5, 9].map(retryDelaySeconds)).toEqual([30, 120, 480, 1920, 3600, 3600]);
  });
});

describe('downloads with ALLOW_PRIVATE_ADDRESSES=false', () => {
  let server: ImageServer;
  let png: Buffer;
  beforeAll(async () => {
    png = await makeImage(200, 100, 'png');
    server = await startImageServer();
    server.route('/ok.png', serve(png, 'image/png'));
    server.route('/to-metadata', redirect('http://169.254.169.254/latest/meta-data/iam/'));
    server.route('/to-private', redirect('http://10.20.30.40/logo.png', 301));
    server.route('/to-ipv6-loopback', redirect(`http://[::1]:${server.port}/ok.png`, 308));
    server.route('/to-ok', redirect('/ok.png'));
  });
  afterAll(() => server.close());

  async function settle(t: TestApp, s: TestSupplier, code: string, url: string) {
    await batch(t, s, '/batch/brand', [{ internalCode: code, name: code, image: url }]);
    return untilSettled(() => getJson(t, s, `/brand/${code}`), (b) => b.imageStatus);
  }

  it('refuses a loopback URL, by address or by a name resolving to it, without connecting', async () => {
    const t = await createTestApp({ images: true, env: { ALLOW_PRIVATE_ADDRESSES: 'false' } });
    try {
      const s = await t.supplier();
      const before = server.hits('/ok.png');
      const byAddress = await settle(t, s, 'B-IP', server.url('/ok.png'));
      expect(byAddress).toMatchObject({ imageStatus: 'failed', imageUrls: null, imageError: 'refused: 127.0.0.1 is a loopback address' });
      const byName = await settle(t, s, 'B-NAME', `http://localhost:${server.port}/ok.png`);
      expect(byName).toMatchObject({ imageStatus: 'failed', imageUrls: null });
      expect(byName.imageError).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1) is a loopback address$/);
      const v6 = await settle(t, s, 'B-V6', `http://[::ffff:127.0.0.1]:${server.port}/ok.png`);
      expect(v6.imageError).toBe('refused: ::ffff:7f00:1 is a loopback address');
      // IPv6 forms a translator or relay would carry to 127.0.0.1: NAT64, 6to4, Teredo.
      const nat64 = await settle(t, s, 'B-NAT64', `http://[64:ff9b::7f00:1]:${server.port}/ok.png`);
      expect(nat64.imageError).toBe('refused: 64:ff9b::7f00:1 is a NAT64 address embedding 127.0.0.1 (a loopback address)');
      const sixToFour = await settle(t, s, 'B-6TO4', `http://[2002:7f00:1::1]:${server.port}/ok.png`);
      expect(sixToFour.imageError).toBe('refused: 2002:7f00:1::1 is a 6to4 address embedding 127.0.0.1 (a loopback address)');
      const teredo = await settle(t, s, 'B-TEREDO', `http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${server.port}/ok.png`);
      expect(teredo.imageError).toMatch(/^refused: 2001:0:4136:e378:8000:63bf:80ff:fffe is a Teredo address/);
      const compatible = await settle(t, s, 'B-COMPAT', `http://[::127.0.0.1]:${server.port}/ok.png`);
      expect(compatible.imageError).toMatch(/^refused: ::7f00:1 is /);
      expect(server.hits('/ok.png')).toBe(before);
    } finally {
      await t.close();
    }
  });

  it('checks every redirect hop again', async () => {
    // The test server stands in for the public internet: this worker lets it through
    // (127.0.0.1 only) and applies the real rules to every other address.
    const t = await createTestApp({
      images: { policy: (address) => (address === '127.0.0.1' ? undefined : refusePrivateAddresses(address)) },
      env: { ALLOW_PRIVATE_ADDRESSES: 'false' },
    });
    try {
      const s = await t.supplier();
      expect(await settle(t, s, 'B-OK', server.url('/to-ok'))).toMatchObject({ imageStatus: 'ready' });
      expect(await settle(t, s, 'B-META', server.url('/to-metadata'))).toMatchObject({
        imageStatus: 'failed',
        imageError: 'refused: 169.254.169.254 is a cloud metadata address',
      });
      expect(await settle(t, s, 'B-PRIV', server.url('/to-private'))).toMatchObject({ imageStatus: 'failed', imageError: 'refused: 10.20.30.40 is a private address' });
      const before = server.hits('/ok.png');
      expect(await settle(t, s, 'B-LOOP6', server.url('/to-ipv6-loopback'))).toMatchObject({ imageStatus: 'failed', imageError: 'refused: ::1 is a loopback address' });
      expect(server.hits('/ok.png')).toBe(before);
    } finally {
      await t.close();
    }
  });
});
