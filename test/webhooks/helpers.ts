// A real HTTP receiver for webhook tests (127.0.0.1, a port of its own) that verifies
// every call with the `standardwebhooks` package, a clock the tests move, and the
// supplier, store and person a ticket needs.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import { sleep, waitUntil } from '../../support/wait.ts';
import { as, createTestApp, type TestApp, type TestAppOptions, type TestSupplier } from '../helpers/app.ts';
import { OffsetClock } from '../helpers/clock.ts';

export { OffsetClock, waitUntil };


export interface Received {
  method: string;
  /** The path below the supplier's prefix: /webhooks/... */
  path: string;
  prefix: string;
  headers: Record<string, string>;
  body: string;
  json: any;
  /** Real time of arrival (ms since epoch). */
  at: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (the dispatcher's timeout ends the attempt). */
  hang?: boolean;
  /** Answer after this long. */
  delayMs?: number;
}

/** Programs a prefix's answers: given the call and how many calls the prefix had before it. */
export type Responder = (call: Received, n: number) => Reply;

export class Receiver {
  readonly calls: Received[] = [];
  private readonly responders = new Map<string, Responder>();
  private readonly hanging = new Set<http.ServerResponse>();
  private server!: http.Server;
  port = 0;

  async start() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const url = req.url ?? '/';
        const match = /^\/s\/([^/]+)(\/.*)$/.exec(url);
        const prefix = match?.[1] ?? '';
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        const call: Received = { method: req.method ?? '', path: match?.[2] ?? url, prefix, headers: req.headers as Record<string, string>, body, json, at: Date.now() };
        const n = this.calls.filter((c) => c.prefix === prefix).length;
        this.calls.push(call);
        const reply: Reply = (this.responders.get(prefix) ?? (() => ({ status: 200, body: 'ok' })))(call, n);
        if (reply.hang) {
          this.hanging.add(res);
          return;
        }
        const send = () => {
          res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
          res.end(reply.body ?? '');
        };
        if (reply.delayMs) setTimeout(send, reply.delayMs);
        else send();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  baseUrl(prefix: string) {
    return `http://127.0.0.1:${this.port}/s/${prefix}`;
  }

  respond(prefix: string, responder: Responder) {
    this.responders.set(prefix, responder);
  }

  callsOf(prefix: string) {
    return this.calls.filter((c) => c.prefix === prefix);
  }

  async waitForCalls(prefix: string, count: number, timeoutMs = 10_000): Promise<Received[]> {
    await waitUntil(`${count} calls to ${prefix}`, () => this.callsOf(prefix).length >= count, timeoutMs);
    return this.callsOf(prefix);
  }

  async close() {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Verifies a call with the standardwebhooks package, as a supplier would; the package
 * checks the timestamp against Date.now(), which here is the test clock's.
 */
export function verify(call: Received, secret: string, clock: OffsetClock) {
  const realNow = Date.now;
  const clockNow = clock.now().getTime();
  Date.now = () => clockNow;
  try {
    return new Webhook(secret).verify(call.body, call.headers);
  } finally {
    Date.now = realNow;
  }
}

/** Lets the dispatcher poll a few times: for asserting that nothing is sent. */
export const settle = (ms = 150) => sleep(ms);

/** A file's receiver and the test app that delivers to it (made in that order; closed together by `close`). */
export async function appAndReceiver(options: TestAppOptions = {}) {
  const receiver = await new Receiver().start();
  const t = await createTestApp(options);
  return { t, receiver, close: async () => void (await Promise.all([t.close(), receiver.close()])) };
}

/** A PENDING order of the store (through the history import), for tickets that name one; answers its id. */
export async function orderOf(t: TestApp, s: TestSupplier, storeCode: string): Promise<number> {
  const externalId = `T-${++orderSeq}`;
  const {
    statuses: [status],
  } = await t.runBatch(s, '/order/bulk-import', {
    orders: [{ externalId, storeInternalCode: storeCode, createdAt: '2026-11-20', status: 'PENDING', products: [{ internalCode: 'P-1', units: 1, quantity: 1, unitPrice: 100 }] }],
  });
  expect(status).toMatchObject({ completed: 1 });
  const orders = (await as(t, s, 'GET', `/order?storeInternalCode=${storeCode}`)).json().data as { id: number; externalId: string }[];
  return orders.find((o) => o.externalId === externalId)!.id;
}
let orderSeq = 0;

/** Points the supplier's webhook at the receiver under its own prefix; answers the secret. */
export async function configureWebhook(t: TestApp, s: TestSupplier, receiver: Receiver, enabled = true): Promise<string> {
  const res = await t.admin('PUT', `/admin/suppliers/${s.id}/webhook`, { baseUrl: receiver.baseUrl(s.code), enabled });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().secret;
}

let personSeq = 0;

export interface TestStore {
  storeId: number;
  code: string;
  /** Headers of a signed-in person of the store. */
  headers: Record<string, string>;
}

/** A store of the supplier with one person signed in to it. */
export async function storeWithPerson(t: TestApp, s: TestSupplier, code = 'S-1', email = `person${++personSeq}-${s.code}@example.com`): Promise<TestStore> {
  await t.runBatch(s, '/batch/store', { upsert: [{ internalCode: code, name: `Tienda ${code}` }] });
  const added = await as(t, s, 'POST', `/store/${code}/add/user`, { users: [{ email, name: 'Ana' }] });
  expect(added.statusCode, added.body).toBe(200);
  const token = await t.admin('POST', '/admin/store-users/token', { email });
  expect(token.statusCode, token.body).toBe(200);
  const headers = { authorization: `Bearer ${token.json().access_token}` };
  const me = await t.request({ method: 'GET', url: '/app/me', headers });
  const store = me.json().stores.find((x: { internalCode: string; supplier: { code: string } }) => x.internalCode === code && x.supplier.code === s.code);
  return { storeId: store.id, code, headers };
}

export function app(t: TestApp, store: TestStore, method: 'GET' | 'POST', url: string, payload?: unknown) {
  return t.request({ method, url, payload: payload as never, headers: store.headers });
}

/** The supplier's deliveries, newest first. */
export async function deliveries(t: TestApp, s: TestSupplier, query = '') {
  const res = await as(t, s, 'GET', `/webhook/deliveries${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as any[];
}
