// Backup and restore of the embedded database (docs/operations.md, "Backup and restore").
// A backup is one tar file:
//   surtido-backup.json   what it is: format, version, when, the last migration applied
//   database.sql          a plain SQL dump (pg_dump of PGlite's PostgreSQL 17, through
//                         @electric-sql/pglite-tools), with the settings PostgreSQL 15
//                         refuses taken out: `restore` loads it into an empty PGlite folder,
//                         and `psql` loads it into a PostgreSQL 15 or newer database
//   images/...            the stored image files, as under DATA_DIR/images
// Backups of format version 1 (PGlite's own copy of its data folder, pglite.tar.gz) still
// restore into PGlite.
// Both commands take the data folder's lock (data-dir-lock.ts): a backup of a folder the
// service is running on is refused with a message saying to stop the service first.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgDump } from '@electric-sql/pglite-tools/pg_dump';
import * as tar from 'tar';
import { lockDataDir } from './data-dir-lock.ts';
import { pgliteParsers } from './database.ts';

export const BACKUP_FORMAT = 'surtido-backup';
export const BACKUP_VERSION = 2;
const MANIFEST = 'surtido-backup.json';
/** The SQL dump (version 2). */
export const DUMP_FILE = 'database.sql';
/** PGlite's data-folder copy (version 1, still restored). */
const DATA_DIR_FILE = 'pglite.tar.gz';

/**
 * Settings pg_dump 17 writes at the top of a dump that PostgreSQL 15 does not know (and
 * so refuses, stopping `psql -v ON_ERROR_STOP=1`): `transaction_timeout` came in 17.
 */
const SETTINGS_POSTGRES_15_REFUSES = ['transaction_timeout'];

/**
 * The dump with the settings PostgreSQL 15 refuses taken out. Only the preamble, before the
 * first object, is touched: rows further down are data and stay byte for byte.
 */
export function portableDump(dump: string): string {
  const firstObject = dump.search(/^-- Name: /m);
  const preamble = firstObject === -1 ? dump : dump.slice(0, firstObject);
  const refused = new RegExp(`^SET (${SETTINGS_POSTGRES_15_REFUSES.join('|')}) = [^\n]*\n`, 'gm');
  return preamble.replace(refused, '') + (firstObject === -1 ? '' : dump.slice(firstObject));
}

export class BackupError extends Error {}

interface Manifest {
  format: string;
  version: number;
  createdAt: string;
  database: 'pglite';
  /** Version 2 and later: the SQL dump's file name (always database.sql). */
  dump?: string;
  lastMigration: string | null;
  images: boolean;
}

function lockOrExplain(dataDir: string, what: string) {
  try {
    return lockDataDir(dataDir);
  } catch (error) {
    throw new BackupError(`${error instanceof Error ? error.message : String(error)}\n${what} needs the embedded database stopped: stop the service (npm start, api or worker) on this DATA_DIR first, then run it again.`);
  }
}

/** Writes a backup of DATA_DIR (database and stored images) to `file`. */
export async function backupDataDir(dataDir: string, file: string): Promise<Manifest> {
  const databaseDir = path.join(dataDir, 'pglite');
  if (!fs.existsSync(databaseDir)) throw new BackupError(`there is no embedded database in ${dataDir} (DATA_DIR) to back up`);
  const release = lockOrExplain(dataDir, 'A backup');
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-backup-'));
  try {
    const client = await PGlite.create({ dataDir: databaseDir, parsers: pgliteParsers });
    let lastMigration: string | null = null;
    try {
      const migrations = await client.query<{ name: string }>(`select name from kysely_migration order by name desc limit 1`).catch(() => ({ rows: [] as { name: string }[] }));
      lastMigration = migrations.rows[0]?.name ?? null;
      // A plain SQL dump without owners or grants, so any role of another server can load it.
      const dump = await pgDump({ pg: client, args: ['--no-owner', '--no-privileges'], fileName: DUMP_FILE });
      fs.writeFileSync(path.join(staging, DUMP_FILE), portableDump(await dump.text()));
    } finally {
      await client.close();
    }
    const images = fs.existsSync(path.join(dataDir, 'images'));
    const manifest: Manifest = { format: BACKUP_FORMAT, version: BACKUP_VERSION, createdAt: new Date().toISOString(), database: 'pglite', dump: DUMP_FILE, lastMigration, images };
    fs.writeFileSync(path.join(staging, MANIFEST), JSON.stringify(manifest, null, 2));
    const partial = `${file}.partial`;
    // Owner-only from the first byte: the backup holds every row, secrets included.
    fs.writeFileSync(partial, '', { mode: 0o600 });
    fs.chmodSync(partial, 0o600);
    await tar.c({ file: partial, cwd: staging, portable: true }, [MANIFEST, DUMP_FILE]);
    if (images) await tar.r({ file: partial, cwd: dataDir, portable: true }, ['images']);
    // Renamed into place once complete: a crash never leaves a file that looks like a backup.
    fs.renameSync(partial, file);
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    release();
  }
}

/** Restores a backup into DATA_DIR, which must hold no database yet. */
export async function restoreDataDir(dataDir: string, file: string): Promise<Manifest> {
  if (!fs.existsSync(file)) throw new BackupError(`no backup file at ${file}`);
  const databaseDir = path.join(dataDir, 'pglite');
  if (fs.existsSync(databaseDir) && fs.readdirSync(databaseDir).length > 0) {
    throw new BackupError(`${dataDir} (DATA_DIR) already holds a database: restore into an empty folder, or move this one away first`);
  }
  const release = lockOrExplain(dataDir, 'A restore');
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-restore-'));
  try {
    await tar.x({ file, cwd: staging, strict: true });
    const manifestPath = path.join(staging, MANIFEST);
    const manifest = fs.existsSync(manifestPath) ? (JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest) : undefined;
    if (manifest?.format !== BACKUP_FORMAT) throw new BackupError(`${file} is not a Surtido backup`);
    if (manifest.version > BACKUP_VERSION) throw new BackupError(`${file} is a backup of format version ${manifest.version}; this version reads up to ${BACKUP_VERSION}`);
    const fresh = !fs.existsSync(databaseDir);
    try {
      if (manifest.version >= 2) {
        const dump = path.join(staging, DUMP_FILE);
        if (!fs.existsSync(dump)) throw new BackupError(`${file} holds no ${DUMP_FILE}`);
        const client = await PGlite.create({ dataDir: databaseDir, parsers: pgliteParsers });
        try {
          // One simple query: the whole dump applies in one implicit transaction, or none of it.
          await client.exec(fs.readFileSync(dump, 'utf8'));
        } finally {
          await client.close();
        }
      } else {
        const copy = new Blob([fs.readFileSync(path.join(staging, DATA_DIR_FILE))]);
        const client = await PGlite.create({ dataDir: databaseDir, loadDataDir: copy, parsers: pgliteParsers });
        await client.query('select 1');
        await client.close();
      }
    } catch (error) {
      // A failed restore leaves the folder as it found it, so it can be run again.
      if (fresh) fs.rmSync(databaseDir, { recursive: true, force: true });
      else for (const entry of fs.readdirSync(databaseDir)) fs.rmSync(path.join(databaseDir, entry), { recursive: true, force: true });
      throw error;
    }
    if (fs.existsSync(path.join(staging, 'images'))) {
      fs.cpSync(path.join(staging, 'images'), path.join(dataDir, 'images'), { recursive: true, force: false, errorOnExist: false });
    }
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    release();
  }
}
