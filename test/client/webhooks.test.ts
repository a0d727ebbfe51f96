// verifyWebhook against the platform's real signed calls (POST /webhook/test sends a ping
// to a receiver here), also across a secret rotation. The service's clock is the real
// one: the signature's timestamp must be within five minutes of now.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSurtidoClient, verifyWebhook, WebhookVerificationError, type WebhookEvent } from 'surtido/client';
import { startService, type RunningService } from './helpers.ts';

let service: RunningService;

beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());

async function sdk() {
  const credentials = await service.credentials();
  return { client: createSurtidoClient({ baseUrl: service.baseUrl, ...credentials }), credentials };
}

describe('verifyWebhook', () => {
  it("checks the platform's signed calls, also across a secret rotation", async () => {
    const received: { body: string; headers: http.IncomingHttpHeaders }[] = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const { client, credentials } = await sdk();
      const port = (receiver.address() as AddressInfo).port;
      const set = await service.t.admin('PUT', `/admin/suppliers/${credentials.supplierId}/webhook`, { baseUrl: `http://127.0.0.1:${port}/erp`, enabled: true });
      const oldSecret: string = set.json().secret;

      const ping = await client.post('/webhook/test');
      expect(ping.status).toBe('delivered');
      const event: WebhookEvent = verifyWebhook(oldSecret, received[0]!.body, received[0]!.headers);
      expect(event.type).toBe('ping');
      expect(event.id).toMatch(/^msg_/);
      if (event.type === 'ping') expect(event.payload).toMatchObject({ type: 'ping' });

      expect(() => verifyWebhook(oldSecret, received[0]!.body.replace('ping', 'pong'), received[0]!.headers)).toThrow(WebhookVerificationError);
      expect(() => verifyWebhook(oldSecret, received[0]!.body, { ...received[0]!.headers, 'webhook-signature': undefined })).toThrow(WebhookVerificationError);

      const rotated = await service.t.admin('POST', `/admin/suppliers/${credentials.supplierId}/webhook/rotate-secret`);
      const newSecret: string = rotated.json().secret;
      await client.post('/webhook/test');
      const call = received[1]!;
      expect(verifyWebhook(newSecret, call.body, call.headers).type).toBe('ping');
      expect(verifyWebhook([newSecret, oldSecret], call.body, new Headers(call.headers as Record<string, string>)).type).toBe('ping');
      const unrelated = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
      expect(() => verifyWebhook(unrelated, call.body, call.headers)).toThrow(WebhookVerificationError);
    } finally {
      receiver.close();
    }
  });
});
