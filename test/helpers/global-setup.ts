// Migrates one template database per run; every test file then gets its own fresh copy
// of it (a PGlite snapshot, or CREATE DATABASE ... TEMPLATE on PostgreSQL), so files
// never share state and never depend on each other's order. On PGlite the same template
// is also written once as a data folder, which a test's child process gets a copy of
// (test/helpers/process.ts) instead of running initdb and every migration itself.
//
// The web apps are built here once, before any file starts: the browser tests, the page
// tests and every `serve` child need the build, and when the sources changed since the
// last one (or in a fresh copy of the repository, as CI runs) each of them would build
// its own at the same time, minutes of CPU on a 2-core machine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { TestProject } from 'vitest/node';
import { postgresPool } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { ensureWebBuild } from '../../src/main/web-build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** A migrated PGlite data folder (DATA_DIR/pglite) to copy; empty on PostgreSQL. */
    pgliteDataDir: string;
    postgresTemplate: string;
    /**
     * On PGlite, a folder (not yet made) where the first browser test file to need it keeps
     * the demo shop it set up, for the others to start from (web/e2e/harness.ts); empty on
     * PostgreSQL.
     */
    shopSnapshot: string;
  }
}

export function databaseUrlFor(base: string, database: string) {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

export default async function setup(project: TestProject) {
  await ensureWebBuild((message) => console.log(`test setup: ${message}`));
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `surtido_tpl_${process.pid}`;
    const admin = postgresPool(url, 1);
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: postgresPool(databaseUrlFor(url, name), 1) }) });
    await migrateToLatest(db);
    await db.destroy();
    project.provide('postgresTemplate', name);
    project.provide('pgliteTemplate', '');
    project.provide('pgliteDataDir', '');
    project.provide('shopSnapshot', '');
    return async () => {
      // Drop what this run's files left (they drop their own; a crashed file may not have),
      // and nothing of another run on the same server.
      const { rows } = await admin.query(`select datname from pg_database where starts_with(datname, $1) or datname = $2`, [
        `surtido_t_${process.pid}_`,
        name,
      ]);
      for (const row of rows) await admin.query(`drop database if exists ${row.datname} with (force)`);
      await admin.end();
    };
  }
  // WAL segments of 1 MB rather than 16: the snapshot every test file's database is
  // loaded from holds the current segment whole, and copying 16 MB of it into each PGlite
  // was a third of a start's CPU (docs/benchmarks.md, "The test suite's time").
  const client = await PGlite.create({ initDbStartParams: ['--wal-segsize=1'] });
  const db = new Kysely<any>({ dialect: new PGliteDialect(client) });
  await migrateToLatest(db);
  const dump = await client.dumpDataDir('none');
  // A test file's database needs only the one database it opens ("postgres"): without the
  // template0 and template1 databases the snapshot holds 400 files, not 1,000, and a file's
  // PGlite starts in about 0.35 s rather than 0.45 s (docs/benchmarks.md, "The test suite's
  // time"). The data folder below keeps all three, as the service makes it.
  await client.exec(`update pg_database set datistemplate = false where datname in ('template0', 'template1')`);
  for (const statement of ['drop database template0', 'drop database template1', 'checkpoint']) await client.exec(statement);
  const slim = await client.dumpDataDir('none');
  await db.destroy();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-test-'));
  const file = path.join(folder, 'template.tar');
  fs.writeFileSync(file, Buffer.from(await slim.arrayBuffer()));
  // The same snapshot as a data folder, as the service opens it (src/db/database.ts
  // openPGlite) and writes it: owner-only files and folders (restrictNewFiles).
  const dataDir = path.join(folder, 'data');
  const umask = process.umask(0o077);
  try {
    fs.mkdirSync(dataDir);
    const onDisk = await PGlite.create({ dataDir: path.join(dataDir, 'pglite'), loadDataDir: dump });
    await onDisk.close();
  } finally {
    process.umask(umask);
  }
  project.provide('pgliteTemplate', file);
  project.provide('pgliteDataDir', dataDir);
  project.provide('postgresTemplate', '');
  project.provide('shopSnapshot', path.join(folder, 'shop'));
  return () => fs.rmSync(folder, { recursive: true, force: true });
}
