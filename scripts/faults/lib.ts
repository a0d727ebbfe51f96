// What the fault and scale-out scripts share: the machine they ran on, a scratch
// PostgreSQL database, a throwaway PostgreSQL cluster (for the script that restarts the
// server), the service's real processes (`src/main/cli.ts`), PostgreSQL restarts that
// always leave the server running, and an aligned table.
// They are scripts, not tests: each prints its figures and exits non-zero when anything
// was lost or applied twice (see docs/faults.md and docs/scaling.md).
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, waitForReady as readyz } from '../../support/net.ts';
import { sleep } from '../../support/wait.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** Whose service runs: this checkout, or SERVICE_ROOT (another checkout: the code before a fix, to compare). */
export const SERVICE_ROOT = process.env.SERVICE_ROOT ? path.resolve(process.env.SERVICE_ROOT) : ROOT;
export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/test';

export const log = (message: string) => console.error(`[${new Date().toISOString().slice(11, 23)}] ${message}`);

/**
 * The PostgreSQL server the scripts use: the throwaway cluster when the script started one
 * (startThrowawayCluster), else FAULT_DATABASE_URL, else DATABASE_URL, else the local one.
 */
export function serverUrl(): string {
  return throwaway?.url || process.env.FAULT_DATABASE_URL || process.env.DATABASE_URL || DEFAULT_SERVER_URL;
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

/**
 * A PostgreSQL cluster of the script's own: `initdb` into a temporary folder, listening
 * on 127.0.0.1 at a free port, trust authentication, controlled with that folder's
 * `pg_ctl`. While it exists, serverUrl(), postgresOutage() and ensurePostgresRunning()
 * act on it and never on the machine's shared server. remove() stops it and deletes the
 * folder (also at process exit, if the script never got to it).
 */
export interface ThrowawayCluster {
  url: string;
  port: number;
  dir: string;
  /** The server binaries used, e.g. /usr/lib/postgresql/15/bin. */
  bin: string;
  ctl(action: 'restart' | 'stop' | 'start'): Promise<void>;
  running(): boolean;
  remove(): void;
}

let throwaway: ThrowawayCluster | undefined;

/** The highest installed PostgreSQL's server binaries: /usr/lib/postgresql/<version>/bin. */
export function postgresBinaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = (fs.existsSync(root) ? fs.readdirSync(root) : [])
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')) && fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number.parseFloat(a) - Number.parseFloat(b));
  if (!versions.length) throw new Error(`no PostgreSQL server binaries (initdb, pg_ctl) under ${root}/*/bin`);
  return path.join(root, versions.at(-1)!, 'bin');
}

/** initdb and postgres refuse to run as root: as root, they run as the `postgres` system user. */
const asRoot = () => process.getuid?.() === 0;
const asServerUser = (cmd: string, args: string[]): [string, string[]] => (asRoot() ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]);

export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  if (throwaway) throw new Error('a throwaway cluster is already running');
  const bin = postgresBinaries();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-pg-'));
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    if (throwaway === cluster) throwaway = undefined;
    try {
      if (fs.existsSync(path.join(data, 'postmaster.pid'))) {
        const [cmd, args] = asServerUser(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
        execFileSync(cmd, args, { cwd: dir, stdio: 'pipe' });
      }
    } catch (error) {
      log(`stopping the throwaway cluster failed: ${(error as Error).message}`);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', remove); // the last resort: the script's cleanup normally removes it first
  const pgCtlArgs = (action: 'restart' | 'stop' | 'start') =>
    action === 'stop' ? ['-D', data, '-m', 'fast', '-w', 'stop'] : ['-D', data, '-l', logFile, '-m', 'fast', '-w', '-t', '60', action];
  /** Asynchronous, so the load goes on while PostgreSQL stops and starts. */
  const ctlAsync = (action: 'restart' | 'stop' | 'start') => {
    const [cmd, args] = asServerUser(path.join(bin, 'pg_ctl'), pgCtlArgs(action));
    return new Promise<void>((resolve, reject) =>
      execFile(cmd, args, { cwd: dir }, (error, _stdout, stderr) => (error ? reject(new Error(`pg_ctl ${action}: ${stderr || error.message}`)) : resolve())),
    );
  };
  const port = await freePort();
  const cluster: ThrowawayCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    bin,
    ctl: ctlAsync,
    running() {
      const [cmd, args] = asServerUser(path.join(bin, 'pg_ctl'), ['-D', data, 'status']);
      try {
        execFileSync(cmd, args, { cwd: dir, stdio: 'pipe' });
        return true;
      } catch {
        return false;
      }
    },
    remove,
  };
  try {
    if (asRoot()) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
    const [initCmd, initArgs] = asServerUser(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    execFileSync(initCmd, initArgs, { cwd: dir, stdio: 'pipe' });
    // In postgresql.conf, so every restart and start keeps them.
    const settings = [`listen_addresses = '127.0.0.1'`, `port = ${port}`, `unix_socket_directories = '${dir}'`, `max_connections = 200`];
    const [appendCmd, appendArgs] = asServerUser('sh', ['-c', 'cat >> "$0"', path.join(data, 'postgresql.conf')]);
    execFileSync(appendCmd, appendArgs, { cwd: dir, input: `\n# fault script's throwaway cluster\n${settings.join('\n')}\n`, stdio: ['pipe', 'pipe', 'pipe'] });
    await ctlAsync('start');
  } catch (error) {
    const serverLog = fs.existsSync(logFile) ? `\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}` : '';
    remove();
    throw new Error(`starting a throwaway PostgreSQL cluster failed: ${(error as { stderr?: Buffer }).stderr?.toString() || (error as Error).message}${serverLog}`);
  }
  throwaway = cluster;
  return cluster;
}

const pgVersion = () => fs.readdirSync('/etc/postgresql').sort().at(-1)!;
/** Asynchronous, so the load goes on while PostgreSQL stops and starts. */
const clusterCtl = (action: 'restart' | 'stop' | 'start') =>
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

/** Makes sure the server runs (called in every finally: other engineers use it too; a throwaway cluster, so its scratch database can be dropped). */
export function ensurePostgresRunning() {
  if (throwaway) {
    if (!throwaway.running()) {
      log('the throwaway PostgreSQL cluster is not running: starting it');
      const [cmd, args] = asServerUser(path.join(throwaway.bin, 'pg_ctl'), ['-D', path.join(throwaway.dir, 'data'), '-l', path.join(throwaway.dir, 'server.log'), '-w', '-t', '60', 'start']);
      execFileSync(cmd, args, { cwd: throwaway.dir, stdio: 'pipe' });
    }
    return;
  }
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
 * Takes PostgreSQL down for about `downMs` (0: a restart, a fast shutdown and start) and
 * brings it back, always: the server is started again even if stopping threw. Acts on the
 * throwaway cluster when there is one (`pg_ctl restart -m fast`, `pg_ctl stop -m fast`,
 * `pg_ctl start`), else on the machine's Debian cluster (`pg_ctlcluster`). Answers when it
 * went down and when it answered again.
 */
export async function postgresOutage(t0: number, downMs: number): Promise<Outage> {
  const downAt = Date.now() - t0;
  const ctl = throwaway ? throwaway.ctl : clusterCtl;
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

/** Waits until the service answers GET /readyz; fails at once when `p` has exited. */
export async function waitForReady(baseUrl: string, p?: ServiceProcess, timeoutMs = 60_000) {
  await readyz(baseUrl, { gone: () => (p && !p.alive() ? `${p.name} exited: ${p.output().slice(-2000)}` : undefined), timeoutMs, everyMs: 100 });
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
    STORE_WRITE_RATE_LIMIT_PER_MINUTE: '1000000',
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
