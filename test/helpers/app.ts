// Builds the real app (real Fastify, real database, real worker) for a test file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { MemoryNotifier } from '../../src/lib/notifier.ts';
import { BatchWorker } from '../../src/modules/batch/batch.worker.ts';
import { createImageWorker, type ImageWorker, type ImageWorkerOptions } from '../../src/modules/images/images.worker.ts';
import { createMessageWorker, createWebhookDispatcher } from '../../src/main/worker.ts';
import type { MessageWorker, MessageWorkerOptions } from '../../src/modules/messages/messages.worker.ts';
import type { DispatcherOptions, WebhookDispatcher } from '../../src/modules/webhooks/webhooks.dispatcher.ts';
import type { Send } from '../../support/net.ts';
import { createSupplier, issueCredentials, logIn, runBatch, submitBatch, waitForBatches } from '../../support/service.ts';
import { freshDatabase, type TestDatabase } from './database.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

/** What production requires besides NODE_ENV (docs/operations.md#production): the secrets a test's production app is given. */
export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  ADMIN_TOKEN,
  JWT_SECRET: 'test-jwt-secret-for-production-0123456789',
  METRICS_TOKEN: 'test-metrics-token-0123456789',
} as const;

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
  /** What the app sent to people (sign-in codes, event messages), unless built with `notifier: false`. */
  notifier: MemoryNotifier;
  /** The message outbox's worker (always running). */
  messages: MessageWorker;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  admin(method: InjectOptions['method'], url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  supplier(code?: string, scopes?: string[]): Promise<TestSupplier>;
  /** Another credential of the same supplier (only `scopes`), logged in; `scope` is what POST /login granted. */
  credential(s: TestSupplier, scopes: string[]): Promise<TestSupplier & { scope: string }>;
  /** POSTs a batch request as the supplier (202 expected); answers the batch ids. */
  submitBatch(s: TestSupplier, url: string, body: unknown): Promise<string[]>;
  /** Waits until every batch is finished and returns their status bodies. */
  waitForBatches(s: TestSupplier, ids: string[], timeoutMs?: number): Promise<any[]>;
  /** submitBatch, then waitForBatches: the ids and their final status bodies. */
  runBatch(s: TestSupplier, url: string, body: unknown): Promise<{ ids: string[]; statuses: any[] }>;
  close(): Promise<void>;
}

let supplierSeq = 0;

export type TestAppOptions = {
  env?: Record<string, string>;
  clock?: Clock;
  worker?: boolean;
  /** Runs the image worker too (with a short poll; DATA_DIR a fresh temporary folder unless set). */
  images?: boolean | Partial<ImageWorkerOptions>;
  /** Runs the webhook dispatcher too (the app's clock; overrides such as `random` or `onAttempt`). */
  dispatcher?: boolean | Partial<DispatcherOptions>;
  /** false: the notifier `npm start` would pick for the settings (t.notifier then records nothing). */
  notifier?: false;
  /** Fastify's logger (e.g. `{ level: 'trace', stream }` to capture every line). */
  logger?: object;
  /** Overrides for the message worker (e.g. a short `backoff`). */
  messages?: Partial<MessageWorkerOptions>;
  /** The web apps' build folder the app serves (default: the current build). */
  webBuildDir?: string;
  /** The app's database (default: a fresh one, freshDatabase()); the app closes it. */
  database?: TestDatabase;
};

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = options.images && !options.env?.DATA_DIR ? fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-images-')) : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    ADMIN_TOKEN,
    // Workers are woken when work is accepted; the poll finds the rest (a retry come due, a
    // lease run out). Every 20 ms, an idle app's four workers took a third to a half of a core
    // in every file (docs/benchmarks.md, "The test suite's time").
    WORKER_POLL_MS: '100',
    RATE_LIMIT_RPS: '100000',
    RATE_LIMIT_BURST: '100000',
    // Many sign-ins come from one test address; test/hardening/limits.test.ts sets its own.
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    // Tests write fast as one person or supplier; test/hardening/user-limits.test.ts sets its own.
    STORE_WRITE_RATE_LIMIT_PER_MINUTE: '100000',
    MEMBER_INVITATIONS_PER_HOUR: '100000',
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    ...options.env,
  });
  const database = options.database ?? (await freshDatabase());
  const notifier = new MemoryNotifier();
  const deps = await createDeps(config, database, { clock: options.clock, ...(options.notifier === false ? {} : { notifier }) });
  const app = await buildApp(deps, { logger: options.logger ?? false, webBuildDir: options.webBuildDir });
  await app.ready();
  let worker: BatchWorker | undefined;
  if (options.worker !== false) {
    worker = new BatchWorker(deps.db, deps.batches, {
      concurrency: 2,
      pollMs: config.workerPollMs,
      leaseSeconds: config.batchLeaseSeconds,
      logger: { info() {}, warn() {}, error: (obj, msg) => console.error(msg, obj) },
      metrics: deps.metrics,
      onChunk: () => deps.storeCache.forget(),
    });
    deps.onWorkAccepted('batches', () => worker!.wake());
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
    deps.onWorkAccepted('webhooks', () => dispatcher!.wake());
    dispatcher.start();
  }

  const quiet = { info() {}, warn() {}, error: (obj: object, msg: string) => console.error(msg, obj) };
  const messages = createMessageWorker(deps, quiet, { pollMs: 100, ...options.messages });
  deps.onWorkAccepted('messages', () => messages.wake());
  messages.start();

  const request = (o: InjectOptions) => app.inject(o);
  const send = injectSend(app);
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
    messages,
    request,
    admin,
    async supplier(code, scopes) {
      const { id, code: supplierCode, apiKey, clientId, clientSecret, token, headers } = await createSupplier(send, ADMIN_TOKEN, code ?? `SUP-${++supplierSeq}`, { scopes });
      return { id, code: supplierCode, apiKey, clientId, clientSecret, token, headers };
    },
    async credential(s, scopes) {
      const { apiKey, clientId, clientSecret } = await issueCredentials(send, ADMIN_TOKEN, s.id, scopes);
      const { token, scope, headers } = await logIn(send, { apiKey, clientId, clientSecret });
      return { ...s, apiKey, clientId, clientSecret, token, scope, headers };
    },
    submitBatch: (s, url, body) => submitBatch(send, s.headers, url, body),
    waitForBatches: (s, ids, timeoutMs = 120_000) => waitForBatches(send, s.headers, ids, { timeoutMs, everyMs: 20 }),
    runBatch: (s, url, body) => runBatch(send, s.headers, url, body, { timeoutMs: 120_000, everyMs: 20 }),
    async close() {
      await worker?.stop();
      await images?.close();
      await dispatcher?.stop();
      await messages.stop();
      await app.close();
      await deps.close();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}

/** The support helpers' `Send` over Fastify's inject (no port, no network). */
export function injectSend(app: FastifyInstance): Send {
  return async (method, url, body, headers) => {
    const res = await app.inject({ method: method as InjectOptions['method'], url, payload: body as never, headers });
    let parsed: unknown;
    try {
      parsed = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      parsed = res.body; // not JSON (a page, a metrics text)
    }
    return { status: res.statusCode, body: parsed };
  };
}

/** Sends a request as the supplier. */
export function as(t: TestApp, s: TestSupplier, method: InjectOptions['method'], url: string, payload?: unknown, headers: Record<string, string> = {}) {
  return t.request({ method, url, payload: payload as never, headers: { ...s.headers, ...headers } });
}
