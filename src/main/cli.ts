// One entry point for every process: `serve` (API and worker, what `npm start` runs),
// `api`, `worker`, `migrate`, and the operators' commands, which call the same services
// as the admin API without HTTP.
import { parseArgs } from 'node:util';
import { buildApp } from '../app.ts';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { migrateToLatest } from '../db/migrator.ts';
import { createDeps, openDeps, type Deps } from '../deps.ts';
import * as suppliers from '../modules/suppliers/suppliers.service.ts';
import { createDemoSupplierIfEmpty } from './bootstrap.ts';
import { drainOnSignals, type Stoppable } from './lifecycle.ts';
import { startWorker } from './worker.ts';

const USAGE = `usage: surtido <command> [options]

  serve                               API and worker in one process (npm start)
  api                                 the API only
  worker                              the workers only (batches and image downloads)
  migrate                             apply database migrations and exit
  supplier create --code C --name N   create a supplier
  supplier list                       list suppliers
  credentials issue --supplier ID [--scopes s1,s2]
  credentials revoke --client CLIENT_ID
  webhook set --supplier ID --url URL [--disabled]
  webhook rotate --supplier ID
  settings set --supplier ID --minimum-order AMOUNT|none

Settings come from the environment (see README): DATABASE_URL, DATA_DIR, PORT, HOST, ADMIN_TOKEN ...`;

async function runService(config: Config, withApi: boolean, withWorker: boolean) {
  const deps = await openDeps(config);
  const app = await buildApp(deps);
  const log = (msg: string) => console.error(`surtido: ${msg}`);
  const parts: Stoppable[] = [];
  if (withApi) {
    await app.listen({ port: config.port, host: config.host });
    parts.push({ name: 'api', stop: () => app.close() });
  }
  if (withWorker) {
    const worker = startWorker(deps, app.log);
    parts.push({ name: 'worker', stop: () => worker.stop() });
  }
  parts.push({ name: 'database', stop: () => deps.close() });
  drainOnSignals(parts, { timeoutMs: config.shutdownTimeoutMs, log });

  const banner = [`Surtido ${withApi && withWorker ? 'API and worker' : withApi ? 'API' : 'worker'} running on ${deps.database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'}`];
  if (withApi) banner.push(`  API            http://${config.host}:${app.server.address() && typeof app.server.address() === 'object' ? (app.server.address() as { port: number }).port : config.port}`, `  docs           ${config.publicUrl}/docs`);
  if (config.adminTokenGenerated && withApi) banner.push(`  admin token    ${config.adminToken}  (generated for this run; set ADMIN_TOKEN to keep one)`);
  const demo = await createDemoSupplierIfEmpty(deps);
  if (demo) banner.push(demo);
  console.log(banner.join('\n'));
}

async function withDeps<T>(config: Config, fn: (deps: Deps) => Promise<T>) {
  const database = await openDatabase(config);
  try {
    await migrateToLatest(database.db);
    const deps = await createDeps(config, database);
    console.log(JSON.stringify(await fn(deps), null, 2));
  } finally {
    await database.close();
  }
}

function requireOption(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new ConfigError(`--${name} is required`);
  return value;
}

function supplierId(values: Record<string, unknown>): number {
  const id = Number(requireOption(values, 'supplier'));
  if (!Number.isInteger(id) || id < 1) throw new ConfigError('--supplier must be a supplier id (a whole number)');
  return id;
}

export async function main(argv: string[]) {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      code: { type: 'string' },
      name: { type: 'string' },
      supplier: { type: 'string' },
      scopes: { type: 'string' },
      client: { type: 'string' },
      url: { type: 'string' },
      disabled: { type: 'boolean' },
      'minimum-order': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, sub] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  switch (`${command}${sub ? ` ${sub}` : ''}`) {
    case 'serve':
      return runService(config, true, true);
    case 'api':
      return runService(config, true, false);
    case 'worker':
      return runService(config, false, true);
    case 'migrate': {
      const database = await openDatabase(config);
      try {
        const applied = await migrateToLatest(database.db);
        console.log(applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date');
      } finally {
        await database.close();
      }
      return;
    }
    case 'supplier create':
      return withDeps(config, (d) => suppliers.createSupplier(d.db, { code: requireOption(values, 'code'), name: requireOption(values, 'name') }));
    case 'supplier list':
      return withDeps(config, (d) => suppliers.listSuppliers(d.db));
    case 'credentials issue':
      return withDeps(config, (d) => suppliers.issueCredentials(d.db, supplierId(values), values.scopes?.split(',').map((s) => s.trim()).filter(Boolean)));
    case 'credentials revoke':
      return withDeps(config, (d) => suppliers.revokeCredentials(d.db, requireOption(values, 'client')));
    case 'webhook set':
      return withDeps(config, (d) => suppliers.configureWebhook(d.db, supplierId(values), { baseUrl: requireOption(values, 'url'), enabled: !values.disabled }));
    case 'webhook rotate':
      return withDeps(config, (d) => suppliers.rotateWebhookSecret(d.db, supplierId(values)));
    case 'settings set': {
      const raw = requireOption(values, 'minimum-order');
      const minimumOrder = raw === 'none' ? null : Number(raw);
      if (minimumOrder !== null && !(Number.isFinite(minimumOrder) && minimumOrder >= 0)) throw new ConfigError('--minimum-order must be an amount or none');
      return withDeps(config, (d) => suppliers.updateSettings(d.db, supplierId(values), { minimumOrder }));
    }
    default:
      throw new ConfigError(`unknown command "${positionals.join(' ')}"\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(`surtido: ${error.message}`);
  } else if (error?.code && error?.status) {
    console.error(`surtido: ${error.code}: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
