// A supplier's webhook receiver on 127.0.0.1 that misbehaves on purpose: it answers,
// hangs, resets the connection, answers slowly or trickles its answer, per call, as a
// policy decides. It verifies every signature with the `standardwebhooks` package and
// keeps, per webhook-id, whether an answer 2xx was fully sent: the record the scripts
// compare with the outbox ("no event lost").
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type Behaviour =
  | { kind: 'ok'; delayMs?: number }
  /** Reads the request and never answers: the dispatcher's timeout ends the attempt. */
  | { kind: 'hang' }
  /** Destroys the connection as soon as the request arrived (ECONNRESET / socket hang up). */
  | { kind: 'reset' }
  /** Sends 200 headers at once, then a byte every 200 ms for this long before ending. */
  | { kind: 'trickle'; forMs: number }
  | { kind: 'status'; status: number; headers?: Record<string, string> };

export interface Call {
  prefix: string;
  webhookId: string;
  eventType: string;
  /** How many calls of this webhook-id came before this one. */
  n: number;
  at: number;
}

export type Policy = (call: Call) => Behaviour;

interface Seen {
  prefix: string;
  eventType: string;
  calls: number;
  firstAt: number;
  ackedAt: number | undefined;
  badSignatures: number;
}

export class Receiver {
  /** Per webhook-id. */
  readonly seen = new Map<string, Seen>();
  private readonly secrets = new Map<string, Webhook>();
  private readonly policies = new Map<string, Policy>();
  private readonly open = new Set<http.ServerResponse>();
  private server!: http.Server;
  port = 0;
  calls = 0;
  behaviours = new Map<string, number>();

  async start() {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** The base URL to configure for a supplier: its calls carry the prefix. */
  baseUrl(prefix: string) {
    return `http://127.0.0.1:${this.port}/s/${prefix}`;
  }

  configure(prefix: string, secret: string, policy: Policy = () => ({ kind: 'ok' })) {
    this.secrets.set(prefix, new Webhook(secret));
    this.policies.set(prefix, policy);
  }

  setPolicy(prefix: string, policy: Policy) {
    this.policies.set(prefix, policy);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    let gone = false;
    // Closed before the answer was sent: the dispatcher stopped listening (its deadline, or a reset).
    res.once('close', () => {
      if (!res.writableFinished) gone = true;
    });
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const prefix = /^\/s\/([^/]+)\//.exec(req.url ?? '')?.[1] ?? '';
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = req.headers as Record<string, string>;
      const webhookId = headers['webhook-id'] ?? '';
      const eventType = headers['x-event-type'] ?? '';
      const at = Date.now();
      let seen = this.seen.get(webhookId);
      if (!seen) this.seen.set(webhookId, (seen = { prefix, eventType, calls: 0, firstAt: at, ackedAt: undefined, badSignatures: 0 }));
      const n = seen.calls++;
      this.calls++;
      try {
        this.secrets.get(prefix)?.verify(body, headers);
      } catch {
        seen.badSignatures++;
      }
      const behaviour = (this.policies.get(prefix) ?? (() => ({ kind: 'ok' }) as Behaviour))({ prefix, webhookId, eventType, n, at });
      this.behaviours.set(behaviour.kind, (this.behaviours.get(behaviour.kind) ?? 0) + 1);
      const s = seen;
      const answer = (status: number, extra: Record<string, string> = {}) => {
        if (gone || res.destroyed) return; // the dispatcher gave up on this attempt
        res.once('finish', () => {
          if (status >= 200 && status < 300 && !gone) s.ackedAt ??= Date.now();
        });
        res.writeHead(status, { 'content-type': 'text/plain', ...extra });
        res.end('ok');
      };
      switch (behaviour.kind) {
        case 'ok':
          if (behaviour.delayMs) setTimeout(() => answer(200), behaviour.delayMs);
          else answer(200);
          return;
        case 'status':
          answer(behaviour.status, behaviour.headers);
          return;
        case 'hang':
          this.open.add(res);
          res.once('close', () => this.open.delete(res));
          return;
        case 'reset':
          req.socket.destroy();
          return;
        case 'trickle': {
          this.open.add(res);
          res.once('close', () => this.open.delete(res));
          res.writeHead(200, { 'content-type': 'text/plain' });
          const started = Date.now();
          const tick = setInterval(() => {
            if (gone || res.destroyed) return clearInterval(tick);
            if (Date.now() - started >= behaviour.forMs) {
              clearInterval(tick);
              res.end('.'); // too late: the dispatcher's deadline has passed; never counted as acknowledged
              return;
            }
            res.write('.');
          }, 200);
          return;
        }
      }
    });
  }

  /** Webhook-ids answered 2xx, in full, while the dispatcher still listened. */
  acked(prefix?: string): Set<string> {
    const ids = new Set<string>();
    for (const [id, s] of this.seen) if (s.ackedAt !== undefined && (prefix === undefined || s.prefix === prefix)) ids.add(id);
    return ids;
  }

  badSignatures(): number {
    let n = 0;
    for (const s of this.seen.values()) n += s.badSignatures;
    return n;
  }

  async close() {
    for (const res of this.open) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
