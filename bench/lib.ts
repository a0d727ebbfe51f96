// Small helpers for benchmarks: a scratch PostgreSQL database, the service started in
// process on a real port, a JSON HTTP client, COPY from a stream and an aligned table.
// Benchmarks measure their own baselines in the same run: machines differ.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openPostgres, postgresPool } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { createDeps, type Deps } from '../src/deps.ts';
import { startWorker } from '../src/main/worker.ts';
import { boundHeapGrowth } from '../src/main/lifecycle.ts';
import { freePort, waitForReady, type Send } from '../support/net.ts';
import * as api from '../support/service.ts';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Node's flags for the service, as `npm start`, `npm run api` and `npm run worker` give
 * them (package.json): a larger young generation, because every batch request parses and
 * stores tens of thousands of short-lived objects (docs/benchmarks.md). A benchmark that
 * runs the service, in its own process or in this one, runs it with these.
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=32'];

export function serverUrl(): string {
  return process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
}

export function databaseUrlFor(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A positive whole number from the environment, or the fallback. */
export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return value;
}

export interface ScratchDatabase {
  name: string;
  url: string;
  /** Drops the database (idempotent). */
  drop(): Promise<void>;
}

/** CREATE DATABASE surtido_bench_<random> on the server of `baseUrl`; drop() removes it. */
export async function createScratchDatabase(baseUrl: string): Promise<ScratchDatabase> {
  const name = `surtido_bench_${randomBytes(5).toString('hex')}`;
  const admin = postgresPool(baseUrl, 1);
  admin.on('error', () => {}); // an idle admin connection dropped by the server is not fatal
  try {
    await admin.query(`create database ${name}`);
  } catch (error) {
    await admin.end();
    throw error;
  }
  let dropped = false;
  return {
    name,
    url: databaseUrlFor(baseUrl, name),
    async drop() {
      if (dropped) return;
      dropped = true;
      // BENCH_KEEP_DATABASE=1 leaves it for a look at plans and statistics afterwards.
      if (process.env.BENCH_KEEP_DATABASE === '1') {
        console.log(`[bench] kept database ${name}`);
        await admin.end();
        return;
      }
      try {
        await admin.query(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/**
 * How the service runs: `one process` is `npm start` (API and worker in this process);
 * `apart` is the PostgreSQL deployment README and docs/scaling.md describe (`npm run api`
 * here, and `npm run worker` as a process of its own on the same database). Apart, the
 * worker's chunks never wait for this process's event loop, which parsing and validating a
 * 50,000-item request holds for about a tenth of a second at a time (docs/benchmarks.md).
 */
export type Topology = 'one process' | 'apart';

/** BENCH_TOPOLOGY (`apart` or `one-process`) when set, else the benchmark's own choice. */
export function topologyFromEnv(fallback: Topology): Topology {
  const raw = process.env.BENCH_TOPOLOGY;
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'apart') return 'apart';
  if (raw === 'one-process') return 'one process';
  throw new Error(`BENCH_TOPOLOGY must be apart or one-process, got "${raw}"`);
}

export interface RunningService {
  deps: Deps;
  app: FastifyInstance;
  topology: Topology;
  baseUrl: string;
  adminToken: string;
  /** Stops the worker, closes the app and the database handle (idempotent). */
  stop(): Promise<void>;
}

/** Service settings a benchmark run may override from its own environment (for experiments). */
const TUNABLES = ['DATABASE_PREPARED_STATEMENTS', 'DATABASE_POOL_SIZE', 'BATCH_SIZE', 'BATCH_CHUNK_SIZE', 'WORKER_CONCURRENCY', 'WORKER_POLL_MS', 'MAX_BATCH_REQUEST_ITEMS', 'BODY_LIMIT_BYTES', 'BATCH_BODY_LIMIT_BYTES'];

/** The real service (API and worker) over a migrated database, the API listening on 127.0.0.1 at a free port. */
export async function startService(databaseUrl: string, topology: Topology = 'one process'): Promise<RunningService> {
  boundHeapGrowth(); // the service's memory policy, as cli.ts sets it
  const adminToken = `bench-admin-${randomBytes(12).toString('hex')}`;
  const tuned = Object.fromEntries(TUNABLES.flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : [])));
  const env = {
    NODE_ENV: 'development',
    ADMIN_TOKEN: adminToken,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_RPS: '1000000',
    RATE_LIMIT_BURST: '1000000',
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    STORE_WRITE_RATE_LIMIT_PER_MINUTE: '1000000',
    DEMO_SUPPLIER: 'false',
    ...tuned,
  };
  const config = loadConfig({ ...env, PORT: '0' });
  const database = openPostgres(databaseUrl, { preparedStatements: config.databasePreparedStatements });
  let deps: Deps;
  try {
    await migrateToLatest(database.db);
    deps = await createDeps(config, database);
  } catch (error) {
    await database.close();
    throw error;
  }
  const app = await buildApp(deps);
  const worker = topology === 'apart' ? await startWorkerProcess(env) : startWorker(deps, app.log);
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      await worker.stop();
      await app.close();
      await deps.close();
    })());
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await stop();
    throw error;
  }
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the service is not listening on a TCP port');
  return { deps, app, topology, baseUrl: `http://127.0.0.1:${address.port}`, adminToken, stop };
}

/**
 * The service as a child process over a new scratch database (`cli.ts serve`: API and
 * worker in one process, as `npm start` runs it), so that a memory figure is the
 * service's alone; `settings` are added to its environment. Ready once /readyz answers;
 * stop() ends it and drops the database.
 */
export async function startServiceProcess(log: (message: string) => void, settings: Record<string, string> = {}) {
  const scratch = await createScratchDatabase(serverUrl());
  log(`database ${scratch.name}`);
  const port = await freePort();
  const adminToken = `bench-admin-${randomBytes(12).toString('hex')}`;
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, '--import', 'tsx', 'src/main/cli.ts', 'serve'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: scratch.url, PORT: String(port), ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn', DEMO_SUPPLIER: 'false', RATE_LIMIT_RPS: '1000000', RATE_LIMIT_BURST: '1000000', ...settings },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    await scratch.drop();
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForReady(baseUrl, { gone: () => (child.exitCode !== null ? 'the service exited' : undefined), timeoutMs: 60_000, everyMs: 100 });
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, adminToken, pid: child.pid!, databaseUrl: scratch.url, stop };
}

/** VmHWM (the peak resident set) and VmRSS of a process, in MiB (Linux). */
export function memoryOf(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { peakMb: kib('VmHWM') / 1024, rssMb: kib('VmRSS') / 1024 };
}

/**
 * `npm run worker` on the same database, as a child process with the service's Node flags
 * (and BENCH_WORKER_NODE_FLAGS, space-separated, e.g. `--cpu-prof --cpu-prof-dir=prof` to
 * profile it), ready once it prints its banner; stop() sends SIGTERM and waits until it has
 * given back what it held. It learns of new batches as any worker apart: by the NOTIFY of
 * the accepting transaction, else at its next poll (WORKER_POLL_MS).
 */
const workerFlags = () => (process.env.BENCH_WORKER_NODE_FLAGS ?? '').split(' ').filter(Boolean);

async function startWorkerProcess(env: Record<string, string>): Promise<{ stop(): Promise<void> }> {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...workerFlags(), '--import', 'tsx', path.join(import.meta.dirname, '../src/main/cli.ts'), 'worker'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (data: Buffer) => {
      out += data.toString();
      if (out.includes('running on')) resolve();
    });
    void exited.then((code) => reject(new Error(`the worker process exited (${code}) before it started: ${out.slice(-500)}`)));
  });
  child.stdout.resume();
  return {
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface HttpResult {
  status: number;
  body: any;
  /** Milliseconds from sending the request to its response headers. */
  ms: number;
}

/**
 * One JSON request; `expect` names the status that must come back (anything else throws
 * with the body). A `rawBody` given as bytes is sent as it is through node:http: a bulk
 * benchmark encodes its request bodies before its clock starts, since the client's
 * encoding is not the service's cost (fetch would encode a string body to UTF-8 and copy
 * bytes into a stream on the clock, 50 – 100 ms for a 14 MB body on this thread, which
 * also runs the API).
 */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string | Buffer; headers?: Record<string, string>; expect?: number } = {},
): Promise<HttpResult> {
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = { ...options.headers };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  const response = Buffer.isBuffer(payload) ? await sendBytes(baseUrl + path, method, headers, payload) : await fetch(baseUrl + path, { method, headers, body: payload });
  const ms = performance.now() - started;
  const text = await response.text();
  const body = text === '' ? undefined : JSON.parse(text);
  if (options.expect !== undefined && response.status !== options.expect) {
    throw new Error(`${method} ${path} answered ${response.status}, expected ${options.expect}: ${text.slice(0, 500)}`);
  }
  return { status: response.status, body, ms };
}

/** A request whose body is bytes already, answered once its headers arrive (as fetch is). */
function sendBytes(url: string, method: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; text(): Promise<string> }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers: { ...headers, 'content-length': String(body.length) } }, (response) => {
      const chunks: Buffer[] = [];
      const ended = new Promise<string>((done, failed) => {
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
        response.on('error', failed);
      });
      resolve({ status: response.statusCode ?? 0, text: () => ended });
    });
    request.on('error', reject);
    request.end(body);
  });
}

export interface Supplier {
  id: number;
  headers: Record<string, string>;
}

/** The support helpers' `Send` over `call` (fetch to the service's port). */
const sendTo =
  (baseUrl: string): Send =>
  (method, path, body, headers) =>
    call(baseUrl, method, path, { body, headers });

/** A supplier with every scope, logged in: the headers carry its API key and bearer token. */
export async function createSupplier(service: Pick<RunningService, 'baseUrl' | 'adminToken'>, code: string): Promise<Supplier> {
  const { id, headers } = await api.createSupplier(sendTo(service.baseUrl), service.adminToken, code, { name: `Bench ${code}` });
  return { id, headers };
}

export type BatchStatusBody = api.BatchStatus;

/** Polls every batch's status until none is 'processing' (support/service.ts), every 25 ms for at most 30 minutes unless told. */
export function waitForBatches(service: Pick<RunningService, 'baseUrl'>, supplier: Supplier, ids: string[], options: { pollMs?: number; timeoutMs?: number } = {}): Promise<BatchStatusBody[]> {
  return api.waitForBatches(sendTo(service.baseUrl), supplier.headers, ids, { everyMs: options.pollMs ?? 25, timeoutMs: options.timeoutMs ?? 30 * 60_000 });
}

/** COPY ... FROM STDIN fed from an iterable of text chunks; returns the rows PostgreSQL reports. */
export async function copyIn(pool: pg.Pool, statement: string, chunks: Iterable<string>): Promise<number> {
  const client = await pool.connect();
  try {
    const stream = client.query(copyFrom(statement));
    await pipeline(Readable.from(chunks), stream);
    return stream.rowCount;
  } finally {
    client.release();
  }
}

/** Columns aligned: text left, numbers right. */
export function table(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const numeric = (s: string) => s === 'n/a' || /^[-+≥≤~]?[\d.,]+\s*[a-z/%×]*$/i.test(s);
  const line = (r: string[]) =>
    r
      .map((cell, i) => (i > 0 && numeric(cell) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** [start, end) ranges of `size` covering 0 .. total (a load sent in requests or COPY chunks of `size`). */
export function ranges(total: number, size: number): [number, number][] {
  const out: [number, number][] = [];
  for (let start = 0; start < total; start += size) out.push([start, Math.min(start + size, total)]);
  return out;
}

export const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');
export const fmtMs = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Throws unless every batch was processed and every one of its items completed. */
export function checkBatches(what: string, statuses: BatchStatusBody[]) {
  const bad = statuses.filter((s) => s.status !== 'processed' || s.failed !== 0 || s.completed !== s.total);
  if (bad.length > 0) throw new Error(`${what}: ${bad.length} batch(es) did not process cleanly: ${JSON.stringify(bad.slice(0, 3))}`);
}

export interface BenchRun {
  scratch: ScratchDatabase;
  service: RunningService;
  /** A small pool on the scratch database, for baselines and checks. */
  pool: pg.Pool;
}

/**
 * Tries a CHECKPOINT so one phase's dirty pages (a load's, say) are not flushed, nor its
 * WAL volume made to force a checkpoint, on the next phase's clock; needs superuser or
 * pg_checkpoint.
 */
export async function checkpoint(pool: pg.Pool, log: (message: string) => void) {
  await pool.query('checkpoint').catch((error: Error) => log(`CHECKPOINT skipped (${error.message}); timings may be noisier`));
}

/**
 * Runs a benchmark on a scratch database with the service started on it, and cleans up
 * however the run ends (an error, or Ctrl-C).
 */
export async function withBenchService<T>(log: (message: string) => void, run: (bench: BenchRun) => Promise<T>, topology: Topology = 'one process'): Promise<T> {
  let scratch: ScratchDatabase | undefined;
  let service: RunningService | undefined;
  let pool: pg.Pool | undefined;
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await service?.stop().catch((error) => log(`stopping the service failed: ${error}`));
      await pool?.end().catch(() => {});
      await scratch?.drop().catch((error) => log(`dropping ${scratch?.name} failed: ${error}`));
    })());
  process.once('SIGINT', () => {
    log('interrupted; cleaning up');
    void cleanup().finally(() => process.exit(130));
  });
  try {
    scratch = await createScratchDatabase(serverUrl());
    log(`database ${scratch.name} on ${new URL(scratch.url).host}`);
    service = await startService(scratch.url, topology);
    pool = postgresPool(scratch.url, 2);
    pool.on('error', () => {});
    const config = service.deps.config;
    log(`service at ${service.baseUrl} (${topology === 'apart' ? 'API here, worker in a process of its own' : 'API and worker in this process'}): batch size ${config.batchSize}, chunk ${config.batchChunkSize}, worker concurrency ${config.workerConcurrency}`);
    return await run({ scratch, service, pool });
  } finally {
    await cleanup();
  }
}
