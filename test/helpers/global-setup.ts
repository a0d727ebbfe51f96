// Migrates one template database per run; every test file then gets its own fresh copy
// of it (a PGlite snapshot, or CREATE DATABASE ... TEMPLATE on PostgreSQL), so files
// never share state and never depend on each other's order.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { TestProject } from 'vitest/node';
import { postgresPool } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

export function databaseUrlFor(base: string, database: string) {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

export default async function setup(project: TestProject) {
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
  const client = await PGlite.create();
  const db = new Kysely<any>({ dialect: new PGliteDialect(client) });
  await migrateToLatest(db);
  const dump = await client.dumpDataDir('none');
  await db.destroy();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-test-')), 'template.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  project.provide('postgresTemplate', '');
  return () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
