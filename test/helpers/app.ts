// Builds the real app (real Fastify, real database, real worker) for a test file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { MemoryNotifier } from '../../src/lib/notifier.ts';
import { BatchWorker } from '../../src/modules/batch/batch.worker.ts';
import { createImageWorker, type ImageWorker, type ImageWorkerOptions } from '../../src/modules/images/images.worker.ts';
import { createWebhookDispatcher } from '../../src/main/worker.ts';
import type { DispatcherOptions, WebhookDispatcher } from '../../src/modules/webhooks/webhooks.dispatcher.ts';
import { freshDatabase } from './database.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestSupplier {
  id: number;
  code: string;
  apiKey: string;
  clientId: string;
  clientSecret: string;
  token: string;
  headers: Record<string, string>;
}

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  config: Config;
  worker: BatchWorker | undefined;
  /** The image worker, when the app was built with `images`. */
  images: ImageWorker | undefined;
  /** The webhook dispatcher, when the app was built with `dispatcher`. */
  dispatcher: WebhookDispatcher | undefined;
  /** What the app sent to people (sign-in codes). */
  notifier: MemoryNotifier;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  admin(method: InjectOptions['method'], url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  supplier(code?: string, scopes?: string[]): Promise<TestSupplier>;
  /** Waits until every batch is finished and returns their status bodies. */
  waitForBatches(s: TestSupplier, ids: string[], timeoutMs?: number): Promise<any[]>;
  close(): Promise<void>;
}

let supplierSeq = 0;

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    clock?: Clock;
    worker?: boolean;
    /** Runs the image worker too (with a short poll; DATA_DIR a fresh temporary folder unless set). */
    images?: boolean | Partial<ImageWorkerOptions>;
    /** Runs the webhook dispatcher too (the app's clock; overrides such as `random` or `onAttempt`). */
    dispatcher?: boolean | Partial<DispatcherOptions>;
  } = {},
): Promise<TestApp> {
  const dataDir = options.images && !options.env?.DATA_DIR ? fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-images-')) : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    ADMIN_TOKEN,
    WORKER_POLL_MS: '20',
    RATE_LIMIT_RPS: '100000',
    RATE_LIMIT_BURST: '100000',
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    ...options.env,
  });
  const database = await freshDatabase();
  const notifier = new MemoryNotifier();
  const deps = await createDeps(config, database, { clock: options.clock, notifier });
  const app = await buildApp(deps, { logger: false });
  await app.ready();
  let worker: BatchWorker | undefined;
  if (options.worker !== false) {
    worker = new BatchWorker(deps.db, deps.batches, {
      concurrency: 2,
      pollMs: config.workerPollMs,
      leaseSeconds: config.batchLeaseSeconds,
      retentionDays: config.batchRetentionDays,
      logger: { info() {}, warn() {}, error: (obj, msg) => console.error(msg, obj) },
    });
    deps.onWorkAccepted(() => worker!.wake());
    worker.start();
  }
  let images: ImageWorker | undefined;
  if (options.images) {
    const logger = { info() {}, warn() {}, error: (obj: object, msg: string) => console.error(msg, obj) };
    images = createImageWorker(deps.db, config, logger, options.images === true ? {} : options.images);
    images.start();
  }

  let dispatcher: WebhookDispatcher | undefined;
  if (options.dispatcher) {
    const logger = { info() {}, warn() {}, error: (obj: object, msg: string) => console.error(msg, obj) };
    dispatcher = createWebhookDispatcher(deps, logger, options.dispatcher === true ? {} : options.dispatcher);
    deps.onWorkAccepted(() => dispatcher!.wake());
    dispatcher.start();
  }

  const request = (o: InjectOptions) => app.inject(o);
  const admin = (method: InjectOptions['method'], url: string, payload?: unknown) =>
    app.inject({ method, url, payload: payload as never, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

  const t: TestApp = {
    app,
    deps,
    config,
    worker,
    images,
    dispatcher,
    notifier,
    request,
    admin,
    async supplier(code, scopes) {
      const supplierCode = code ?? `SUP-${++supplierSeq}`;
      const created = await admin('POST', '/admin/suppliers', { code: supplierCode, name: `Supplier ${supplierCode}` });
      expect(created.statusCode, created.body).toBe(200);
      const { id } = created.json();
      const issued = await admin('POST', `/admin/suppliers/${id}/credentials`, scopes ? { scopes } : {});
      expect(issued.statusCode, issued.body).toBe(200);
      const { apiKey, clientId, clientSecret } = issued.json();
      const login = await request({ method: 'POST', url: '/login', headers: { 'x-api-key': apiKey }, payload: { clientId, clientSecret } });
      expect(login.statusCode, login.body).toBe(200);
      const token = login.json().access_token;
      return { id, code: supplierCode, apiKey, clientId, clientSecret, token, headers: { 'x-api-key': apiKey, authorization: `Bearer ${token}` } };
    },
    async waitForBatches(s, ids, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const statuses = await Promise.all(ids.map((id) => request({ method: 'GET', url: `/batch/${id}/status`, headers: s.headers })));
        const bodies = statuses.map((r) => r.json());
        if (bodies.every((b) => b.status !== 'processing')) return bodies;
        if (Date.now() > deadline) throw new Error(`batches not finished: ${JSON.stringify(bodies)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      await worker?.stop();
      await images?.close();
      await dispatcher?.stop();
      await app.close();
      await deps.close();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}

/** Sends a request as the supplier. */
export function as(t: TestApp, s: TestSupplier, method: InjectOptions['method'], url: string, payload?: unknown, headers: Record<string, string> = {}) {
  return t.request({ method, url, payload: payload as never, headers: { ...s.headers, ...headers } });
}
