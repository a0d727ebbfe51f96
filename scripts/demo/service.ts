// Where the demo runs: by default the real service (API and worker, exactly what
// `npm start` runs) started inside this process on a fresh temporary PGlite folder, or
// on PostgreSQL when DATABASE_URL is set; or a service already running elsewhere when
// SURTIDO_URL and its ADMIN_TOKEN are given.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { createDeps } from '../../src/deps.ts';
import type { Notifier } from '../../src/lib/notifier.ts';
import { startWorker } from '../../src/main/worker.ts';
import { sleep } from '../../support/wait.ts';

export interface Target {
  baseUrl: string;
  adminToken: string;
  /** One line: what runs where. */
  description: string;
  /** True when this process started the service (and stops it at the end). */
  own: boolean;
  /**
   * The sign-in code last sent to a phone or email, when the demo runs the service: its
   * notifier stands in for the SMS. Undefined for a service running elsewhere.
   */
  signInCode: ((to: string) => Promise<string | undefined>) | undefined;
  stop(): Promise<void>;
}

export async function startOwnService(databaseUrl: string | undefined): Promise<Target> {
  const dataDir = databaseUrl ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-demo-'));
  const removeDataDir = () => dataDir && fs.rmSync(dataDir, { recursive: true, force: true });
  const adminToken = `demo-admin-${randomBytes(16).toString('hex')}`;
  // Only these settings: the demo must behave the same whatever the shell exports.
  const config = loadConfig({
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
    ADMIN_TOKEN: adminToken,
    DEMO_SUPPLIER: 'false',
    // The demo's webhook receiver listens on 127.0.0.1.
    ALLOW_PRIVATE_ADDRESSES: 'true',
    WORKER_POLL_MS: '100',
    LOG_LEVEL: 'error',
  });

  const codes = new Map<string, string>();
  const notifier: Notifier = {
    canSend: () => true,
    async send({ to, variables }) {
      if (variables?.code) codes.set(to, variables.code);
      return 'demo';
    },
  };

  const database = await openDatabase(config).catch((error) => {
    removeDataDir();
    throw error;
  });
  let stopService = async () => {
    await database.close();
    removeDataDir();
  };
  try {
    await migrateToLatest(database.db);
    const deps = await createDeps(config, database, { notifier });
    const app = await buildApp(deps);
    const worker = startWorker(deps, app.log);
    stopService = async () => {
      await worker.stop();
      await app.close();
      await deps.close();
      removeDataDir();
    };
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('the service is not listening on a TCP port');
    let stopped: Promise<void> | undefined;
    return {
      baseUrl: `http://127.0.0.1:${address.port}`,
      adminToken,
      description: `started in this process (API and worker) on ${databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${dataDir}`}`,
      own: true,
      // The code is sent just after the answer: wait a moment for it.
      signInCode: async (to) => {
        for (let i = 0; i < 250 && !codes.has(to); i++) await sleep(20);
        return codes.get(to);
      },
      stop: () => (stopped ??= stopService()),
    };
  } catch (error) {
    await stopService();
    throw error;
  }
}

export async function connectToService(url: string, adminToken: string | undefined): Promise<Target> {
  if (!adminToken) throw new Error('SURTIDO_URL needs ADMIN_TOKEN too: the demo creates its own supplier and sets its webhook through the admin API');
  const baseUrl = url.replace(/\/+$/, '');
  const ready = await fetch(`${baseUrl}/readyz`).catch((error: Error) => {
    throw new Error(`cannot reach ${baseUrl}: ${error.message}`);
  });
  if (!ready.ok) throw new Error(`${baseUrl}/readyz answered ${ready.status}`);
  return { baseUrl, adminToken, description: `already running at ${baseUrl}`, own: false, signInCode: undefined, stop: async () => {} };
}
