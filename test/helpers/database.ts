import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { openPostgres, pgliteParsers, postgresPool, wrapPGlite, type Database } from '../../src/db/database.ts';
import { databaseUrlFor } from './global-setup.ts';

export const onPostgres = () => Boolean(process.env.DATABASE_URL);

/** A fresh, migrated database of its own for the calling test file. */
export async function freshDatabase(): Promise<Database & { url?: string }> {
  const base = process.env.DATABASE_URL;
  if (base) {
    // Named after the run (the template's pid), so a run's teardown drops only its own.
    const template = inject('postgresTemplate');
    const name = `surtido_t_${template.replace('surtido_tpl_', '')}_${randomBytes(6).toString('hex')}`;
    const admin = postgresPool(base, 1);
    await admin.query(`create database ${name} template ${template}`);
    const url = databaseUrlFor(base, name);
    const database = openPostgres(url);
    return {
      ...database,
      url,
      async close() {
        await database.close();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const template = new Blob([fs.readFileSync(inject('pgliteTemplate'))]);
  const client = await PGlite.create({ loadDataDir: template, parsers: pgliteParsers });
  return wrapPGlite(client);
}
