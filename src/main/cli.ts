// One entry point for every process: `serve` (API and worker, what `npm start` runs),
// `api`, `worker`, `migrate`, and the operators' commands, which call the same services
// as the admin API without HTTP.
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { ConfigError, developmentConveniences, loadConfig, type Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { BackupError, backupDataDir, restoreDataDir } from '../db/backup.ts';
import { dataDirWarning, DataDirLockedError, restrictNewFiles } from '../db/data-dir-lock.ts';
import { migrateToLatest } from '../db/migrator.ts';
import type { DB, MemberRole } from '../db/types.ts';
import type { Deps } from '../deps.ts';
import { MEMBER_ROLES } from '../modules/auth/scopes.ts';
import type { Stoppable } from './lifecycle.ts';

const USAGE = `usage: surtido <command> [options]

  serve                               API and worker in one process (npm start)
  api                                 the API only
  worker                              the workers only (batches and image downloads)
  migrate                             apply database migrations and exit
  supplier create --code C --name N   create a supplier
  supplier list                       list suppliers
  supplier disable|enable --supplier ID   its credentials, console sessions and stores stop (or start again)
  member add --supplier ID --email EMAIL --role owner|manager|agent|viewer
  operator add --email EMAIL          a platform operator (signs in to the console at /console)
  operator remove --email EMAIL       no longer an operator; their console sessions end at once
  operator list
  credentials issue --supplier ID [--scopes s1,s2]
  credentials revoke --client CLIENT_ID
  webhook set --supplier ID --url URL [--disabled]
  webhook rotate --supplier ID
  settings set --supplier ID --minimum-order AMOUNT|none
  backup FILE                         the embedded database and stored images to FILE (service stopped)
  restore FILE                        a backup into an empty DATA_DIR (docs/operations.md)

Settings come from the environment (see README): DATABASE_URL, DATA_DIR, PORT, HOST, ADMIN_TOKEN ...`;

// The service's parts (the app, its workers, tracing, metrics, the shop's build) are loaded
// only by the commands that run the service: an operator's command (`operator list`,
// `supplier create` …) loads the database and its one module, and starts in half the time.
async function runService(config: Config, withApi: boolean, withWorker: boolean, buildWeb = false) {
  const [{ buildApp }, { openDeps }, { boundHeapGrowth, closeApi, drainOnSignals }, { startWorker }, { startMetricsServer }, { startTracing }, { ensureWebBuild }] = await Promise.all([
    import('../app.ts'),
    import('../deps.ts'),
    import('./lifecycle.ts'),
    import('./worker.ts'),
    import('../observability/metrics-server.ts'),
    import('../observability/tracing.ts'),
    import('./web-build.ts'),
  ]);
  boundHeapGrowth();
  const log = (msg: string) => console.error(`surtido: ${msg}`);
  // `npm start` builds the shop when its sources changed; `npm run api` serves the build there is.
  if (withApi && buildWeb) await ensureWebBuild(log).catch((error) => log(`the shop could not be built (the API runs without it): ${error instanceof Error ? error.message : error}`));
  // After the shop's build (its files are for serving), before DATA_DIR's first file.
  restrictNewFiles();
  // Before anything else, so the database and the app are built traced (nothing is loaded when off).
  const tracing = await startTracing(config);
  const deps = await openDeps(config, { tracing });
  const app = await buildApp(deps);
  const parts: Stoppable[] = [];
  if (withApi) {
    await app.listen({ port: config.port, host: config.host });
    parts.push({ name: 'api', stop: () => closeApi(app) });
  }
  // API processes serve /metrics on PORT unless METRICS_PORT is set; a worker alone needs METRICS_PORT.
  const metricsServer = config.metricsPort === undefined ? undefined : await startMetricsServer(deps.metrics, { port: config.metricsPort, host: config.host, token: config.metricsToken });
  if (metricsServer) parts.push({ name: 'metrics', stop: () => metricsServer.close() });
  if (withWorker) {
    const worker = startWorker(deps, app.log);
    parts.push({ name: 'worker', stop: () => worker.stop() });
  }
  parts.push({ name: 'database', stop: () => deps.close() });
  if (tracing) parts.push({ name: 'tracing', stop: () => tracing.shutdown() });
  // A signal during the rest of the start (the demo supplier's few writes, its catalog's
  // batches) waits for it before anything closes, so it never runs on a closed database.
  let starting: Promise<unknown> = Promise.resolve();
  parts.unshift({ name: 'start-up', stop: () => starting.then(() => undefined, () => undefined) });
  drainOnSignals(parts, { timeoutMs: config.shutdownTimeoutMs, log });
  starting = announce(config, deps, app, { withApi, withWorker, tracing: tracing !== undefined, metricsPort: metricsServer?.port });
  await starting;
}

/** The demo supplier when the database is empty, then the banner and the sign-in warning. */
async function announce(config: Config, deps: Deps, app: FastifyInstance, { withApi, withWorker, tracing, metricsPort }: { withApi: boolean; withWorker: boolean; tracing: boolean; metricsPort?: number }) {
  const [{ findWebBuild }, { createDemoSupplierIfEmpty }, { signInWarning }] = await Promise.all([import('./web-build.ts'), import('./bootstrap.ts'), import('../modules/store-app/store-app.sign-in.ts')]);
  const banner = [`Surtido ${withApi && withWorker ? 'API and worker' : withApi ? 'API' : 'worker'} running on ${deps.database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'}`];
  if (withApi) banner.push(`  API            http://${config.host}:${app.server.address() && typeof app.server.address() === 'object' ? (app.server.address() as { port: number }).port : config.port}`, `  docs           ${config.publicUrl}/docs`);
  if (withApi) banner.push(findWebBuild() ? `  shop           ${config.publicUrl}/shop/` : '  shop           not built (run npm run build:web)');
  if (metricsPort !== undefined) banner.push(`  metrics        http://${config.host}:${metricsPort}/metrics`);
  else if (withApi) banner.push(`  metrics        ${config.publicUrl}/metrics`);
  else banner.push('  metrics        off (set METRICS_PORT to serve /metrics from this worker)');
  if (tracing) banner.push(`  tracing        OTLP/HTTP to ${config.otlpEndpoint}`);
  if (config.adminTokenGenerated && withApi) banner.push(`  admin token    ${config.adminToken}  (generated for this run; set ADMIN_TOKEN to keep one)`);
  // Which development conveniences are on, so a deployment that meant production sees it at once.
  banner.push(`  development    ${developmentConveniences(config).join(', ') || 'none'} (NODE_ENV=${config.env})`);
  const demo = await createDemoSupplierIfEmpty(deps, withApi && withWorker ? app : undefined);
  if (demo) banner.push(demo);
  console.log(banner.join('\n'));
  const warning = withApi ? signInWarning(deps.notifier) : undefined;
  if (warning) console.error(`surtido: warning: ${warning}`);
}

/** An operator's command: the database, migrated, given to `fn` (which loads its own module); its answer printed as JSON. */
async function withDatabase<T>(config: Config, fn: (db: Kysely<DB>) => Promise<T>) {
  const database = await openDatabase(config);
  try {
    await migrateToLatest(database.db);
    console.log(JSON.stringify(await fn(database.db), null, 2));
  } finally {
    await database.close();
  }
}
const suppliersModule = () => import('../modules/suppliers/suppliers.service.ts');
const membersModule = () => import('../modules/members/members.service.ts');
const operatorsModule = () => import('../modules/console/console.service.ts');

function requireOption(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new ConfigError(`--${name} is required`);
  return value;
}

function roleOf(values: Record<string, unknown>): MemberRole {
  const role = requireOption(values, 'role');
  if (!(MEMBER_ROLES as readonly string[]).includes(role)) throw new ConfigError(`--role must be one of ${MEMBER_ROLES.join(', ')}`);
  return role as MemberRole;
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
      email: { type: 'string' },
      role: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, sub] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  // Every command but serve (which builds the shop first) makes its files owner-only from here on.
  if (command !== 'serve') restrictNewFiles();
  const wide = dataDirWarning(config.dataDir);
  if (wide) console.error(`surtido: warning: ${wide}`);
  if (command === 'backup' || command === 'restore') {
    if (config.databaseUrl) throw new ConfigError(`${command} is for the embedded database (DATA_DIR); with DATABASE_URL use pg_dump and pg_restore (docs/operations.md)`);
    if (!sub) throw new ConfigError(`usage: surtido ${command} FILE`);
    const file = path.resolve(sub);
    const manifest = command === 'backup' ? await backupDataDir(config.dataDir, file) : await restoreDataDir(config.dataDir, file);
    if (config.s3) console.error('surtido: images are stored in S3 (S3_BUCKET): back the bucket up separately; only DATA_DIR/images is in this file');
    console.log(`${command === 'backup' ? 'backed up' : 'restored'} ${config.dataDir} ${command === 'backup' ? 'to' : 'from'} ${file} (last migration ${manifest.lastMigration ?? 'none'})`);
    return;
  }
  switch (`${command}${sub ? ` ${sub}` : ''}`) {
    case 'serve':
      return runService(config, true, true, true);
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
      return withDatabase(config, async (db) => (await suppliersModule()).createSupplier(db, { code: requireOption(values, 'code'), name: requireOption(values, 'name') }));
    case 'supplier list':
      return withDatabase(config, async (db) => (await suppliersModule()).listSuppliers(db));
    case 'supplier disable':
    case 'supplier enable':
      return withDatabase(config, async (db) => (await suppliersModule()).setSupplierStatus(db, supplierId(values), sub === 'enable'));
    case 'member add':
      return withDatabase(config, async (db) => (await membersModule()).inviteMember(db, supplierId(values), { email: requireOption(values, 'email'), role: roleOf(values) }, `${config.publicUrl}/console/`));
    case 'operator add':
      return withDatabase(config, async (db) => (await operatorsModule()).addOperator(db, requireOption(values, 'email')));
    case 'operator remove':
      return withDatabase(config, async (db) => (await operatorsModule()).removeOperator(db, requireOption(values, 'email')));
    case 'operator list':
      return withDatabase(config, async (db) => (await operatorsModule()).listOperators(db));
    case 'credentials issue':
      return withDatabase(config, async (db) => (await suppliersModule()).issueCredentials(db, supplierId(values), values.scopes?.split(',').map((s) => s.trim()).filter(Boolean)));
    case 'credentials revoke':
      return withDatabase(config, async (db) => (await suppliersModule()).revokeCredentials(db, requireOption(values, 'client')));
    case 'webhook set':
      return withDatabase(config, async (db) => (await suppliersModule()).configureWebhook(db, supplierId(values), { baseUrl: requireOption(values, 'url'), enabled: !values.disabled }));
    case 'webhook rotate':
      return withDatabase(config, async (db) => (await suppliersModule()).rotateWebhookSecret(db, supplierId(values)));
    case 'settings set': {
      const raw = requireOption(values, 'minimum-order');
      const minimumOrder = raw === 'none' ? null : Number(raw);
      if (minimumOrder !== null && !(Number.isFinite(minimumOrder) && minimumOrder >= 0)) throw new ConfigError('--minimum-order must be an amount or none');
      return withDatabase(config, async (db) => (await suppliersModule()).updateSettings(db, supplierId(values), { minimumOrder }));
    }
    default:
      throw new ConfigError(`unknown command "${positionals.join(' ')}"\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof BackupError) {
    console.error(`surtido: ${error.message}`);
  } else if (error?.code && error?.status) {
    console.error(`surtido: ${error.code}: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
