// What the fault and scale-out scripts share: the machine they ran on, a scratch
// PostgreSQL database, the service's real processes (`src/main/cli.ts`), PostgreSQL
// restarts that always leave the server running, and an aligned table.
// They are scripts, not tests: each prints its figures and exits non-zero when anything
// was lost or applied twice (see docs/faults.md and docs/scaling.md).
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** Whose service runs: this checkout, or SERVICE_ROOT (another checkout: the code before a fix, to compare). */
export const SERVICE_ROOT = process.env.SERVICE_ROOT ? path.resolve(process.env.SERVICE_ROOT) : ROOT;
export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/test';

export const log = (message: string) => console.error(`[${new Date().toISOString().slice(11, 23)}] ${message}`);
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The PostgreSQL server the scripts use: FAULT_DATABASE_URL, else DATABASE_URL, else the local one. */
export function serverUrl(): string {
  return process.env.FAULT_DATABASE_URL || process.env.DATABASE_URL || DEFAULT_SERVER_URL;
}

function databaseUrlFor(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Date, cores, Node and PostgreSQL versions: printed with every result. */
export function machine(): Record<string, string> {
  const run = (cmd: string, args: string[]) => {
    try {
      return execFileSync(cmd, args, { encoding: 'utf8' }).trim();
    } catch {
      return 'n/a';
    }
  };
  return {
    date: new Date().toISOString().slice(0, 10),
    nproc: run('nproc', []),
    node: process.version,
    psql: run('psql', ['--version']),
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
  };
}

export function printMachine() {
  const m = machine();
  console.log(`date ${m.date}; nproc ${m.nproc}; node ${m.node}; ${m.psql}; ${m.memory}`);
}

// ---------------------------------------------------------------- scratch database

export interface Scratch {
  name: string;
  url: string;
  /** A small pool on the scratch database, for the checks. */
  pool: pg.Pool;
  drop(): Promise<void>;
}

/** CREATE DATABASE <prefix>_<random>; drop() removes it (with force: a killed process may still hold a connection). */
export async function createScratch(prefix: 'surtido_fault' | 'surtido_scale'): Promise<Scratch> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const base = serverUrl();
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = databaseUrlFor(base, name);
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  pool.on('error', () => {}); // a restart drops idle connections; the next query reconnects
  let dropped = false;
  return {
    name,
    url,
    pool,
    async drop() {
      if (dropped) return;
      dropped = true;
      await pool.end().catch(() => {});
      await untilPostgresAnswers(30_000).catch(() => {});
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** A query that survives the server restarting under it: retried until it answers. */
export async function query<T extends pg.QueryResultRow = any>(pool: pg.Pool, text: string, values: unknown[] = []): Promise<T[]> {
  for (let tries = 0; ; tries++) {
    try {
      return (await pool.query<T>(text, values)).rows;
    } catch (error) {
      if (tries >= 50 || (error as { code?: string }).code?.match(/^(42|23|22)/)) throw error;
      await sleep(200);
    }
  }
}

// ---------------------------------------------------------------- PostgreSQL control

const pgVersion = () => fs.readdirSync('/etc/postgresql').sort().at(-1)!;
/** Asynchronous, so the load goes on while PostgreSQL stops and starts. */
const ctl = (action: 'restart' | 'stop' | 'start') =>
  new Promise<void>((resolve, reject) =>
    execFile('pg_ctlcluster', ['--skip-systemctl-redirect', pgVersion(), 'main', action], (error, _stdout, stderr) =>
      error ? reject(new Error(`pg_ctlcluster ${action}: ${stderr || error.message}`)) : resolve(),
    ),
  );

export async function untilPostgresAnswers(timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const c = new pg.Client({ connectionString: serverUrl(), connectionTimeoutMillis: 1000 });
    c.on('error', () => {});
    try {
      await c.connect();
      await c.query('select 1');
      await c.end();
      return;
    } catch (error) {
      await c.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not answer within ${timeoutMs} ms: ${(error as Error).message}`);
      await sleep(100);
    }
  }
}

/** Makes sure the server runs (called in every finally: other engineers use it too). */
export function ensurePostgresRunning() {
  const args = (action: string) => ['--skip-systemctl-redirect', pgVersion(), 'main', action];
  try {
    execFileSync('pg_ctlcluster', args('status'), { stdio: 'pipe' });
  } catch {
    log('PostgreSQL is not running: starting it');
    execFileSync('pg_ctlcluster', args('start'), { stdio: 'pipe' });
  }
}

export interface Outage {
  kind: string;
  /** ms since the run's start. */
  downAt: number;
  upAt: number;
}

/**
 * Takes PostgreSQL down for about `downMs` (0: `pg_ctlcluster restart`, a fast shutdown
 * and start) and brings it back, always: the server is started again even if stopping
 * threw. Answers when it went down and when it answered again.
 */
export async function postgresOutage(t0: number, downMs: number): Promise<Outage> {
  const downAt = Date.now() - t0;
  try {
    if (downMs === 0) {
      await ctl('restart');
    } else {
      await ctl('stop');
      await sleep(downMs);
      await ctl('start');
    }
  } finally {
    ensurePostgresRunning();
  }
  await untilPostgresAnswers(30_000);
  return { kind: downMs === 0 ? 'restart' : `stop ${downMs / 1000} s, start`, downAt, upAt: Date.now() - t0 };
}

// ---------------------------------------------------------------- service processes

export interface ServiceProcess {
  name: string;
  proc: ChildProcess;
  /** The last 256 KiB of its stdout and stderr. */
  output(): string;
  exited: Promise<number | null>;
  /** Count of log lines matching: the service logs an unexpected error as "unhandled error". */
  count(pattern: RegExp): number;
  alive(): boolean;
}

const OUTPUT_LIMIT = 256 * 1024;

export function startProcess(name: string, command: 'api' | 'worker' | 'serve', env: Record<string, string>): ServiceProcess {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', command], {
    cwd: SERVICE_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const counts = new Map<string, number>();
  // Counted from the start, whatever the output buffer keeps: an unexpected error is logged so.
  const patterns: RegExp[] = [/unhandled error/];
  const take = (data: Buffer) => {
    const text = data.toString('utf8');
    for (const p of patterns) counts.set(p.source, (counts.get(p.source) ?? 0) + (text.match(new RegExp(p.source, 'g'))?.length ?? 0));
    out += text;
    if (out.length > OUTPUT_LIMIT) out = out.slice(-OUTPUT_LIMIT);
  };
  proc.stdout!.on('data', take);
  proc.stderr!.on('data', take);
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return {
    name,
    proc,
    output: () => out,
    exited,
    count(pattern) {
      if (!patterns.some((p) => p.source === pattern.source)) {
        patterns.push(pattern);
        counts.set(pattern.source, out.match(new RegExp(pattern.source, 'g'))?.length ?? 0);
      }
      return counts.get(pattern.source) ?? 0;
    },
    alive: () => proc.exitCode === null && proc.signalCode === null,
  };
}

/** SIGTERM, then SIGKILL after the deadline. */
export async function stopProcess(p: ServiceProcess, timeoutMs = 15_000) {
  if (!p.alive()) return;
  p.proc.kill('SIGTERM');
  const timer = setTimeout(() => p.proc.kill('SIGKILL'), timeoutMs);
  await p.exited;
  clearTimeout(timer);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await sleep(everyMs);
  }
}

export async function waitForReady(baseUrl: string, p?: ServiceProcess, timeoutMs = 60_000) {
  await waitFor(
    `${baseUrl}/readyz`,
    async () => {
      if (p && !p.alive()) throw new Error(`${p.name} exited: ${p.output().slice(-2000)}`);
      return (await fetch(`${baseUrl}/readyz`)).ok ? true : undefined;
    },
    timeoutMs,
  );
}

/** Settings every script gives the service: no demo data, limits out of the way of the load. */
export function serviceEnv(databaseUrl: string, adminToken: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'development',
    DATABASE_URL: databaseUrl,
    ADMIN_TOKEN: adminToken,
    DEMO_SUPPLIER: 'false',
    ALLOW_PRIVATE_ADDRESSES: 'true', // the webhook receiver listens on 127.0.0.1
    RATE_LIMIT_RPS: '100000',
    RATE_LIMIT_BURST: '100000',
    LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
    ...extra,
  };
}

/** Runs `migrate` once, so processes started together do not race to create the schema. */
export async function migrate(env: Record<string, string>) {
  const m = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', 'migrate'], { cwd: SERVICE_ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: 'pipe' });
  let out = '';
  m.stdout.on('data', (d) => (out += d));
  m.stderr.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => m.on('exit', resolve));
  if (code !== 0) throw new Error(`migrate failed: ${out}`);
}

// ---------------------------------------------------------------- figures

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const fmtMs = (ms: number) => (Number.isNaN(ms) ? 'n/a' : ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
export const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');

/** A markdown table (docs take it verbatim), aligned as printed: columns of figures right, text left. */
export function table(header: string[], rows: (string | number)[][]): string {
  const cells = rows.map((r) => r.map((c) => (typeof c === 'number' ? fmtInt(c) : c)));
  const all = [header, ...cells];
  const widths = header.map((_, i) => Math.max(3, ...all.map((r) => (r[i] ?? '').length)));
  const figure = (s: string) => /^[-+≥≤~]?[\d.,]+( ?[a-zµ%×]+)?$/i.test(s) || s === 'n/a' || s === '-' || s === '';
  const right = header.map((_, i) => i > 0 && cells.length > 0 && cells.every((r) => figure(r[i] ?? '')));
  const line = (r: string[]) => `| ${r.map((cell, i) => (right[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (right[i] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...cells.map(line)].join('\n');
}

/** One verdict line per invariant; the script exits 1 when any is false. */
export class Verdicts {
  private readonly rows: [string, string, boolean][] = [];
  check(what: string, detail: string | number, ok: boolean) {
    this.rows.push([what, typeof detail === 'number' ? fmtInt(detail) : detail, ok]);
  }
  get ok() {
    return this.rows.every((r) => r[2]);
  }
  print() {
    console.log(table(['invariant', 'measured', 'verdict'], this.rows.map(([w, d, ok]) => [w, d, ok ? 'ok' : 'FAILED'])));
  }
}

/**
 * Runs a script's body with cleanup however it ends (an error or Ctrl-C): the body
 * registers what to undo; PostgreSQL is always left running.
 */
export async function runScript(name: string, body: (onCleanup: (fn: () => Promise<void> | void) => void) => Promise<boolean>) {
  const cleanups: (() => Promise<void> | void)[] = [];
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      ensurePostgresRunning();
      for (const fn of cleanups.reverse()) {
        try {
          await fn();
        } catch (error) {
          log(`cleanup failed: ${(error as Error).message}`);
        }
      }
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  let ok = false;
  try {
    ok = await body((fn) => void cleanups.push(fn));
  } catch (error) {
    console.error(`${name} failed:`, error);
  } finally {
    await cleanup();
  }
  process.exit(ok ? 0 : 1);
}
