// The supplier's side of the webhooks: a small HTTP server standing in for the ERP's
// endpoint. It does what a real receiver must: read the raw body, verify it with the
// SDK's verifyWebhook (Standard Webhooks signature, timestamp within five minutes),
// answer 400 to anything that does not verify and 200 to what does, and deduplicate on
// the event id (delivery is at least once).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from 'surtido/client';

export interface ReceivedCall {
  path: string;
  /** The headers as they arrived (webhook-id, webhook-timestamp, webhook-signature, x-event-type ...). */
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  /** The verified event, or why verification failed. */
  event: WebhookEvent | undefined;
  error: string | undefined;
}

export class WebhookReceiver {
  readonly calls: ReceivedCall[] = [];
  private readonly seenIds = new Set<string>();
  private readonly waiters: (() => void)[] = [];
  private secret: string | undefined;
  private server: http.Server | undefined;
  baseUrl = '';

  async start(host = '127.0.0.1'): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        const call: ReceivedCall = { path: req.url ?? '/', headers: req.headers, rawBody, event: undefined, error: undefined };
        let status = 200;
        try {
          if (!this.secret) throw new WebhookVerificationError('no secret configured yet');
          // Verify the body exactly as received: re-serialised JSON would not match the signature.
          call.event = verifyWebhook(this.secret, rawBody, req.headers);
        } catch (error) {
          call.error = (error as Error).message;
          status = error instanceof WebhookVerificationError ? 400 : 500;
        }
        // A repeated event id is a retry of something already handled: acknowledge it, do nothing.
        const duplicate = call.event !== undefined && this.seenIds.has(call.event.id);
        if (call.event) this.seenIds.add(call.event.id);
        if (!duplicate) this.calls.push(call);
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'invalid signature');
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, host, resolve);
    });
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://${host}:${port}/erp`;
    return this;
  }

  /** The `whsec_...` secret the admin API answered when the webhook was configured. */
  useSecret(secret: string) {
    this.secret = secret;
  }

  /** Waits for the first verified call of this event type that `match` accepts. */
  async waitFor<T extends WebhookEvent['type']>(
    type: T,
    match: (event: Extract<WebhookEvent, { type: T }>) => boolean = () => true,
    timeoutMs = 20_000,
  ): Promise<ReceivedCall & { event: Extract<WebhookEvent, { type: T }> }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.calls.find((c) => c.event?.type === type && match(c.event as Extract<WebhookEvent, { type: T }>));
      if (found) return found as ReceivedCall & { event: Extract<WebhookEvent, { type: T }> };
      const refused = this.calls.find((c) => c.error);
      if (refused) throw new Error(`a webhook call to ${refused.path} did not verify: ${refused.error}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type} webhook arrived within ${timeoutMs / 1000} s`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async stop() {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
