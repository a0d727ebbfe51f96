// Runs the real service as child processes (`node --import tsx src/main/cli.ts ...`)
// for the tests that kill, signal or lock them.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, inject } from 'vitest';
import { waitForReady as readyz } from '../../support/net.ts';
import { freshDatabase, onPostgres } from './database.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Child {
  proc: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/**
 * `--liftoff-only`: V8 compiles PGlite's WebAssembly (PostgreSQL) with its baseline compiler
 * alone. A test's child lives seconds; optimizing the module it runs was a third of the CPU of
 * a short command (`supplier list`: 1.9 -> 1.2 s) and a quarter of a service's start (3.8 ->
 * 2.9 s), and the child-process files took 83 s instead of 96 (docs/benchmarks.md, "The test
 * suite's time"). It changes how fast the code runs, never what it does; the service as
 * operators start it keeps V8's defaults.
 */
export function runCli(args: string[], env: Record<string, string>): Child {
  const proc = spawn(process.execPath, ['--liftoff-only', '--import', 'tsx', 'src/main/cli.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, output: () => out, exited };
}

export { freePort } from '../../support/net.ts';
export { waitFor } from '../../support/wait.ts';
/** A small HTTP client for a running service: `(method, url, body?, headers?)` answers status, body and headers. */
export { overHttp as http } from '../../support/net.ts';

/**
 * Waits for a child's /readyz. A child that exits fails the wait at once (with its output),
 * so the generous default only matters to a slow start: a process compiling its TypeScript
 * on a loaded 2-core CI machine once took more than 30 s to answer.
 */
export const waitForReady = (baseUrl: string, child?: Child, timeoutMs = 120_000, everyMs?: number) =>
  readyz(baseUrl, { gone: () => (child && child.proc.exitCode !== null ? `exited: ${child.output()}` : undefined), timeoutMs, everyMs });

/**
 * The processes and scratch state of one test file, all ended and removed after it:
 * `start` runs the CLI as a child; `storage` gives a service its own database (a fresh
 * PostgreSQL database when the suite runs there, else a PGlite folder: empty, or with
 * `migrated` a copy of the run's migrated template, so the child skips initdb and every
 * migration, seconds of a 2-core machine per start); `killableWorker`
 * starts a service whose worker a test can kill: on PostgreSQL the API runs apart and
 * each call starts a worker process, on PGlite each call starts the whole service on one
 * data folder (only one process may hold it).
 */
export function processScope(prefix: string) {
  const children: Child[] = [];
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of children) if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  const start = (args: string[], env: Record<string, string>) => {
    const child = runCli(args, env);
    children.push(child);
    return child;
  };

  /**
   * On PostgreSQL always a clone of the migrated template; on PGlite an empty folder unless
   * `migrated`. A DATA_DIR of its own either way: the child's stored images go there, not
   * into the checkout's default `./data`.
   */
  async function storage(options: { migrated?: boolean } = {}): Promise<Record<string, string>> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `surtido-${prefix}-`));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    if (onPostgres()) {
      const database = await freshDatabase();
      cleanups.push(() => database.close());
      return { DATABASE_URL: database.url!, DATA_DIR: dataDir };
    }
    if (options.migrated) fs.cpSync(path.join(inject('pgliteDataDir'), 'pglite'), path.join(dataDir, 'pglite'), { recursive: true });
    return { DATA_DIR: dataDir };
  }

  /** Starts a killable worker each call (on a migrated database); `env` names its storage (DATABASE_URL on PostgreSQL). */
  async function killableWorker(settings: Record<string, string>): Promise<(() => Child) & { env: Record<string, string> }> {
    const env = { ...settings, ...(await storage({ migrated: true })) };
    if (onPostgres()) {
      start(['api'], env);
      return Object.assign(() => start(['worker'], env), { env });
    }
    return Object.assign(() => start(['serve'], env), { env });
  }

  /** Runs after the file, before the scratch state goes. */
  const onCleanup = (cleanup: () => Promise<void> | void) => void cleanups.push(cleanup);

  return { start, storage, killableWorker, onCleanup };
}
