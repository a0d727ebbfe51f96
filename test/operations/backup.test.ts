// Backup and restore of the embedded database with its stored images, through the CLI:
// refused while the service runs on the folder, then taken from the stopped service,
// restored into an empty folder, and the restored service answers the same reads. The
// backup's SQL dump also loads with psql into a fresh PostgreSQL database (the server
// the suite uses, PostgreSQL 15), and the service started on that answers the same reads.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import * as tar from 'tar';
import { describe, expect, it } from 'vitest';
import { portableDump } from '../../src/db/backup.ts';
import { onPostgres } from '../helpers/database.ts';
import { databaseUrlFor } from '../helpers/global-setup.ts';
import { freePort, http, processScope, runCli, waitForReady } from '../helpers/process.ts';

const scope = processScope('backup');
/** What the first test backed up and read, for the PostgreSQL load after it. */
let backupFile: string | undefined;
let readsBefore: unknown;
let credentials: { apiKey: string; clientId: string; clientSecret: string } | undefined;
const ADMIN = 'backup-admin-token-0123456789';
const HASH = 'a'.repeat(64);

/** The PostgreSQL server the dump is loaded into: the suite's (DATABASE_URL's server), else the local one. */
const POSTGRES = process.env.BACKUP_CHECK_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const psql = spawnSync('psql', ['--version']).status === 0;
const postgresUp = await (async () => {
  const client = new pg.Client({ connectionString: POSTGRES, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
})();

async function serve(dataDir: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const child = scope.start(['serve'], { NODE_ENV: 'development', DEMO_SUPPLIER: 'false', SHUTDOWN_TIMEOUT_MS: '120000', ADMIN_TOKEN: ADMIN, PORT: String(port), DATA_DIR: dataDir, ...env });
  const base = `http://127.0.0.1:${port}`;
  // A fresh embedded database takes a while to create and migrate on a busy machine.
  await waitForReady(base, child, 180_000, 200);
  return { child, call: http(base), base };
}

async function stop(child: ReturnType<typeof runCli>) {
  child.proc.kill('SIGTERM');
  expect(await child.exited, child.output()).toBe(0);
}

async function cli(args: string[], env: Record<string, string>) {
  const child = runCli(args, { ADMIN_TOKEN: ADMIN, ...env });
  return { code: await child.exited, output: child.output() };
}

describe.skipIf(onPostgres())('backup and restore (embedded database)', () => {
  it('restores a backup into an empty folder and the service answers the same reads', { timeout: 600_000 }, async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-backup-test-'));
    scope.onCleanup(() => fs.rmSync(root, { recursive: true, force: true }));
    // The source starts from a copy of the run's migrated database, as a service that ran
    // before leaves it: the backup is tested here, not a first start on an empty folder
    // (test/foundation/processes.test.ts), which made this file's slowest child.
    const source = (await scope.storage({ migrated: true })).DATA_DIR!;
    const target = path.join(root, 'target');
    const file = path.join(root, 'surtido.backup');

    const running = await serve(source);
    const admin = { authorization: `Bearer ${ADMIN}` };
    const supplier = await running.call('POST', '/admin/suppliers', { code: 'BK', name: 'Backed up' }, admin);
    const issued = await running.call('POST', `/admin/suppliers/${supplier.body.id}/credentials`, {}, admin);
    const { apiKey, clientId, clientSecret } = issued.body;
    const login = await running.call('POST', '/login', { clientId, clientSecret }, { 'x-api-key': apiKey });
    const headers = { 'x-api-key': apiKey, authorization: `Bearer ${login.body.access_token}` };
    expect((await running.call('POST', '/pricelist', { internalCode: 'PL-1', name: 'Main' }, headers)).status).toBe(200);
    // A stored image file, as the image worker leaves it.
    fs.mkdirSync(path.join(source, 'images', HASH.slice(0, 2), HASH), { recursive: true });
    fs.writeFileSync(path.join(source, 'images', HASH.slice(0, 2), HASH, 'original.png'), 'png bytes');

    const reads = async (call: typeof running.call) => {
      const token = (await call('POST', '/login', { clientId, clientSecret }, { 'x-api-key': apiKey })).body.access_token;
      const h = { 'x-api-key': apiKey, authorization: `Bearer ${token}` };
      return {
        suppliers: (await call('GET', '/admin/suppliers', undefined, admin)).body,
        priceList: (await call('GET', '/pricelist/PL-1', undefined, h)).body,
        audit: (await call('GET', '/admin/audit', undefined, admin)).body.data.map((e: any) => [e.operation, e.entityId]),
      };
    };
    const before = await reads(running.call);

    // The folder is in use: the backup says to stop the service, and writes nothing.
    const refused = await cli(['backup', file], { DATA_DIR: source });
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/stop the service/);
    expect(fs.existsSync(file)).toBe(false);

    await stop(running.child);
    const backup = await cli(['backup', file], { DATA_DIR: source });
    expect(backup.code, backup.output).toBe(0);

    // A plain SQL dump inside, without the settings PostgreSQL 15 refuses.
    const listed: string[] = [];
    await tar.t({ file, onReadEntry: (entry) => void listed.push(entry.path) });
    expect(listed).toEqual(expect.arrayContaining(['surtido-backup.json', 'database.sql']));
    expect(listed).not.toContain('pglite.tar.gz');
    await tar.x({ file, cwd: root, filter: (p) => p === 'database.sql' });
    const dump = fs.readFileSync(path.join(root, 'database.sql'), 'utf8');
    expect(dump).toMatch(/^CREATE TABLE public\.suppliers/m);
    expect(dump).not.toMatch(/transaction_timeout/);
    backupFile = file;
    readsBefore = before;
    credentials = { apiKey, clientId, clientSecret };

    const restore = await cli(['restore', file], { DATA_DIR: target });
    expect(restore.code, restore.output).toBe(0);
    // A folder that already holds a database is not overwritten.
    const again = await cli(['restore', file], { DATA_DIR: target });
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/already holds a database/);

    const restored = await serve(target);
    expect(await reads(restored.call)).toEqual(before);
    const image = await fetch(`${restored.base}/images/${HASH}/original.png`);
    expect(image.status).toBe(200);
    expect(await image.text()).toBe('png bytes');
    await stop(restored.child);
  });

  it.skipIf(!psql || !postgresUp)('loads the same backup into a fresh PostgreSQL database with psql, and the service answers the same reads from it', { timeout: 600_000 }, async () => {
    expect(backupFile, 'the backup of the first test').toBeDefined();
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-backup-pg-'));
    scope.onCleanup(() => fs.rmSync(root, { recursive: true, force: true }));
    await tar.x({ file: backupFile!, cwd: root });
    const name = `backup_check_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: POSTGRES });
    await admin.connect();
    scope.onCleanup(async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    });
    const version = (await admin.query<{ server_version: string }>('show server_version')).rows[0]!.server_version;
    await admin.query(`create database ${name}`);
    const url = databaseUrlFor(POSTGRES, name);

    // As an operator would: psql, stopping at the first error, all or nothing.
    const loaded = spawnSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--single-transaction', '-f', path.join(root, 'database.sql'), url], { encoding: 'utf8' });
    expect(loaded.status, `psql into PostgreSQL ${version}: ${loaded.stderr}`).toBe(0);
    expect(loaded.stderr).not.toMatch(/ERROR/);
    const migrations = execFileSync('psql', ['-X', '-At', '-c', 'select count(*) from kysely_migration', url], { encoding: 'utf8' }).trim();
    expect(Number(migrations)).toBeGreaterThan(10);

    // The service on that database answers the reads the embedded one did (images from the backup's folder).
    const service = await serve(root, { DATABASE_URL: url });
    const { apiKey, clientId, clientSecret } = credentials!;
    const call = service.call;
    const token = (await call('POST', '/login', { clientId, clientSecret }, { 'x-api-key': apiKey })).body.access_token;
    const h = { 'x-api-key': apiKey, authorization: `Bearer ${token}` };
    const adminHeaders = { authorization: `Bearer ${ADMIN}` };
    expect({
      suppliers: (await call('GET', '/admin/suppliers', undefined, adminHeaders)).body,
      priceList: (await call('GET', '/pricelist/PL-1', undefined, h)).body,
      audit: (await call('GET', '/admin/audit', undefined, adminHeaders)).body.data.map((e: any) => [e.operation, e.entityId]),
    }).toEqual(readsBefore);
    // Identity columns went on from the restored values: a new write does not collide.
    expect((await call('POST', '/pricelist', { internalCode: 'PL-2', name: 'After' }, h)).status).toBe(200);
    const image = await fetch(`${service.base}/images/${HASH}/original.png`);
    expect(await image.text()).toBe('png bytes');
    await stop(service.child);
  });

  it('refuses a file that is not a backup', { timeout: 120_000 }, async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-backup-test-'));
    scope.onCleanup(() => fs.rmSync(root, { recursive: true, force: true }));
    fs.writeFileSync(path.join(root, 'junk'), 'not a tar');
    const result = await cli(['restore', path.join(root, 'junk')], { DATA_DIR: path.join(root, 'data') });
    expect(result.code).toBe(1);
  });
});

describe('the dump made portable', () => {
  it('drops the settings PostgreSQL 15 refuses from the preamble only, leaving data byte for byte', () => {
    const dump = [
      'SET statement_timeout = 0;',
      'SET transaction_timeout = 0;',
      "SET client_encoding = 'UTF8';",
      '',
      '--',
      '-- Name: notes; Type: TABLE; Schema: public; Owner: -',
      '--',
      "INSERT INTO public.notes VALUES (1, 'a line that reads\nSET transaction_timeout = 0;\nas data');",
      '',
    ].join('\n');
    const portable = portableDump(dump);
    expect(portable.split('\n').slice(0, 3)).toEqual(['SET statement_timeout = 0;', "SET client_encoding = 'UTF8';", '']);
    expect(portable.slice(portable.indexOf('-- Name:'))).toBe(dump.slice(dump.indexOf('-- Name:')));
  });
});

describe.runIf(onPostgres())('backup with PostgreSQL', () => {
  it('points to pg_dump and pg_restore', { timeout: 120_000 }, async () => {
    const result = await cli(['backup', '/tmp/never-written'], { DATABASE_URL: process.env.DATABASE_URL! });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/pg_dump/);
  });
});
