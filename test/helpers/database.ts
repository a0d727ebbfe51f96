import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { inject } from 'vitest';
import { openPostgres, pgliteParsers, postgresPool, wrapPGlite, type Database } from '../../src/db/database.ts';
import { databaseUrlFor } from './global-setup.ts';

const require = createRequire(import.meta.url);

export const onPostgres = () => Boolean(process.env.DATABASE_URL);

export interface TestDatabase extends Database {
  /** On PostgreSQL: the database's address. */
  url?: string;
  /** On PGlite: the database as it is now, a data folder's tar that `freshDatabase({ from })` starts another from. */
  dump?(): Promise<Blob>;
}

/**
 * A fresh database of its own for the calling test file: the run's migrated template, or on
 * PGlite `from`, a dump of another test database (a world set up once and used by several
 * files, each with its own copy).
 */
export async function freshDatabase(options: { from?: Blob } = {}): Promise<TestDatabase> {
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
  const { template, pgliteWasmModule, fsBundle } = await pgliteParts();
  const client = await PGlite.create({ loadDataDir: options.from ?? template, pgliteWasmModule, fsBundle, parsers: pgliteParsers, startParams: TEST_START_PARAMS });
  return { ...wrapPGlite(client), dump: () => client.dumpDataDir('none') };
}

/**
 * A test database starts with 16 MB of shared buffers rather than PostgreSQL's 128 MB: a test
 * file's data is a few megabytes, and PGlite allocates and sets up the whole buffer pool in
 * its WebAssembly memory at every start (with the template's 1 MB WAL segments,
 * test/helpers/global-setup.ts, a start took 134 - 161 ms of CPU instead of 338 - 391 ms;
 * docs/benchmarks.md, "The test suite's time"). The rest are PGlite's own start parameters.
 */
const TEST_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * What every PGlite of this worker starts from, read and compiled once: the migrated
 * template (a data folder's tar), PostgreSQL's WebAssembly module and its file bundle.
 * PGlite otherwise reads and compiles them for each database, over a second of CPU each
 * time on a 2-core machine, in every file (a worker runs its files in one process).
 */
let parts: Promise<{ template: Blob; pgliteWasmModule: WebAssembly.Module; fsBundle: Blob }> | undefined;
function pgliteParts() {
  parts ??= (async () => {
    const dist = path.dirname(require.resolve('@electric-sql/pglite'));
    return {
      template: new Blob([fs.readFileSync(inject('pgliteTemplate'))]),
      pgliteWasmModule: await WebAssembly.compile(fs.readFileSync(path.join(dist, 'pglite.wasm'))),
      fsBundle: new Blob([fs.readFileSync(path.join(dist, 'pglite.data'))]),
    };
  })();
  return parts;
}

/** Counts the statements sent through a database it is plugged into (`db.withPlugin(counter)`), to hold a path to set-based SQL. */
export class StatementCounter implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs) {
    this.count++;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result;
  }
}
