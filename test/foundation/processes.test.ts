// The service as operators run it: separate processes, signals, the CLI, the data-folder lock.
import { describe, expect, it } from 'vitest';
import { postgresPool } from '../../src/db/database.ts';
import { DEMO_OWNER } from '../../src/main/bootstrap.ts';
import { createSupplier, waitForBatches } from '../../support/service.ts';
import { PRODUCTION_ENV } from '../helpers/app.ts';
import { onPostgres } from '../helpers/database.ts';
import { freePort, http, processScope, waitFor, waitForReady } from '../helpers/process.ts';

const ADMIN = 'process-test-admin-token-01';
const { start, storage } = processScope('proc');
const { NODE_ENV: _production, ...PRODUCTION_SECRETS } = PRODUCTION_ENV;


describe('processes', () => {
  it('starts on an empty database with a demo supplier, and drains on SIGTERM', async () => {
    const port = await freePort();
    const env = { ...(await storage()), PORT: String(port), NODE_ENV: 'development' };
    const service = start(['serve'], env);
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForReady(baseUrl, service);
    const out = await waitFor('the demo credentials', async () => (/client secret\s+(\S+)/.test(service.output()) ? service.output() : undefined));
    const apiKey = /API key\s+(\S+)/.exec(out)![1]!;
    const clientId = /client id\s+(\S+)/.exec(out)![1]!;
    const clientSecret = /client secret\s+(\S+)/.exec(out)![1]!;
    const adminToken = /admin token\s+(\S+)/.exec(out)![1]!;
    const api = http(baseUrl);
    const login = await api('POST', '/login', { clientId, clientSecret }, { 'x-api-key': apiKey });
    expect(login.status).toBe(200);
    expect((await api('GET', '/admin/suppliers', undefined, { authorization: `Bearer ${adminToken}` })).body).toEqual([
      expect.objectContaining({ code: 'DEMO' }),
    ]);
    expect((await api('GET', '/healthz')).status).toBe(200);
    // The demo's owner signs in to the console with the code the development log shows.
    expect(out).toContain(`/console/ as ${DEMO_OWNER}`);
    // The start says which development conveniences are on.
    expect(out).toMatch(/development    generated admin token, demo supplier, \/dev\/mailbox, codes in the log, private addresses/);
    expect((await api('POST', '/console/auth/code', { email: DEMO_OWNER })).status).toBe(202);
    const code = await waitFor('the console code in the log', async () =>
      service.output().split('\n').filter((line) => line.includes(`message for ${DEMO_OWNER}`)).map((line) => /\b(\d{6})\b/.exec(line)?.[1]).find(Boolean),
    );
    const session = await api('POST', '/console/auth/token', { email: DEMO_OWNER, code });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    const me = await api('GET', '/console/me', undefined, { authorization: `Bearer ${session.body.access_token}` });
    expect(me.body).toMatchObject({ email: DEMO_OWNER, memberships: [{ supplier: { code: 'DEMO' }, role: 'owner' }] });

    service.proc.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    expect(service.output()).toMatch(/SIGTERM: draining/);

    // A restart on the same database creates no second demo supplier.
    const again = start(['serve'], env);
    await waitForReady(baseUrl, again);
    expect(again.output()).not.toMatch(/Created the demo supplier/);
    again.proc.kill('SIGINT');
    expect(await again.exited).toBe(0);
  });

  it('finishes its start (the demo supplier and catalog) before draining a SIGTERM sent the moment it is ready', async () => {
    // The demo is written after the port opens; a signal then used to close the database
    // under it, so the process failed (exit 1) or left a demo without its catalog.
    const port = await freePort();
    const env = { ...(await storage({ migrated: true })), PORT: String(port), NODE_ENV: 'development' };
    const service = start(['serve'], env);
    await waitForReady(`http://127.0.0.1:${port}`, service, undefined, 10);
    service.proc.kill('SIGTERM');
    expect(await service.exited, service.output()).toBe(0);
    expect(service.output()).toMatch(/Loaded a demo catalog/);
    expect(service.output()).toMatch(/SIGTERM: draining/);

    // A worker alone writes the demo supplier too: the same signal, the same clean exit.
    const metricsPort = await freePort();
    const worker = start(['worker'], { ...(await storage({ migrated: true })), NODE_ENV: 'development', METRICS_PORT: String(metricsPort) });
    await waitFor('the worker\'s metrics port', async () => {
      if (worker.proc.exitCode !== null) throw new Error(worker.output());
      return (await fetch(`http://127.0.0.1:${metricsPort}/metrics`).catch(() => undefined))?.status === 200 ? true : undefined;
    }, 60_000, 5);
    worker.proc.kill('SIGTERM');
    expect(await worker.exited, worker.output()).toBe(0);
  });

  it('refuses to start with a NODE_ENV it does not know, or in production without JWT_SECRET', async () => {
    // `Production` used to be read as development: demo supplier, codes in the log and all.
    const wrong = start(['serve'], { ...(await storage()), PORT: String(await freePort()), NODE_ENV: 'Production', ...PRODUCTION_SECRETS });
    expect(await wrong.exited).toBe(1);
    expect(wrong.output()).toContain('surtido: NODE_ENV must be one of production, development, test, got "Production"');
    expect(wrong.output()).not.toMatch(/Created the demo supplier|running on/);
    const { JWT_SECRET: _, ...withoutKey } = PRODUCTION_SECRETS;
    const keyless = start(['serve'], { ...(await storage()), PORT: String(await freePort()), NODE_ENV: 'production', ...withoutKey });
    expect(await keyless.exited).toBe(1);
    expect(keyless.output()).toContain('surtido: JWT_SECRET is required when NODE_ENV=production');
  });

  it.skipIf(onPostgres())('refuses a second process on the same PGlite data folder with a clear message', async () => {
    const env = { ...(await storage({ migrated: true })), ADMIN_TOKEN: ADMIN };
    const port = await freePort();
    const first = start(['serve'], { ...env, PORT: String(port) });
    await waitForReady(`http://127.0.0.1:${port}`, first);
    const second = start(['serve'], { ...env, PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`already in use by process ${first.proc.pid}`);
    const cli = start(['supplier', 'list'], env);
    expect(await cli.exited).toBe(1);
    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // The lock went with the process: the folder opens again.
    const third = start(['supplier', 'list'], env);
    expect(await third.exited).toBe(0);
  });

  // Fifteen CLI processes one after another, each starting Node and opening the database
  // (on PGlite, loading it): about 3 s each on a 2-core machine (an operator's command loads
  // the database and its one module, not the service), three times that beside the browser
  // tests, past the suite's 60 s.
  it('runs migrations and the operators\' commands from the CLI', { timeout: 180_000 }, async () => {
    const env = { ...(await storage()), ADMIN_TOKEN: ADMIN };
    const run = async (...args: string[]) => {
      const child = start(args, env);
      const code = await child.exited;
      return { code, out: child.output() };
    };
    expect((await run('migrate')).out).toMatch(/applied: 0001_foundation|up to date/);
    expect((await run('migrate')).out).toMatch(/up to date/);
    const created = await run('supplier', 'create', '--code', 'CLI-1', '--name', 'From the CLI');
    expect(created.code).toBe(0);
    const supplier = JSON.parse(created.out);
    expect(supplier).toMatchObject({ code: 'CLI-1', name: 'From the CLI' });
    const issued = JSON.parse((await run('credentials', 'issue', '--supplier', String(supplier.id), '--scopes', 'supplier/catalog.read,supplier/batch.read')).out);
    expect(issued).toMatchObject({ scopes: ['supplier/catalog.read', 'supplier/batch.read'] });
    const webhook = JSON.parse((await run('webhook', 'set', '--supplier', String(supplier.id), '--url', 'https://erp.example/api')).out);
    expect(webhook).toMatchObject({ baseUrl: 'https://erp.example/api', enabled: true, secret: expect.stringMatching(/^whsec_/) });
    expect(JSON.parse((await run('credentials', 'revoke', '--client', issued.clientId)).out)).toEqual({ clientId: issued.clientId, revoked: true });
    // Operators and members: the people who sign in to the console.
    expect(JSON.parse((await run('operator', 'add', '--email', 'Ops@Example.com')).out)).toMatchObject({ email: 'ops@example.com' });
    const again = await run('operator', 'add', '--email', 'ops@example.com');
    expect(again.code).toBe(1);
    expect(again.out).toContain('ops@example.com is already an operator');
    expect(JSON.parse((await run('operator', 'list')).out)).toEqual([expect.objectContaining({ email: 'ops@example.com' })]);
    const owner = JSON.parse((await run('member', 'add', '--supplier', String(supplier.id), '--email', 'owner@cli.example', '--role', 'owner')).out);
    expect(owner).toMatchObject({ email: 'owner@cli.example', role: 'owner' });
    const badRole = await run('member', 'add', '--supplier', String(supplier.id), '--email', 'x@cli.example', '--role', 'boss');
    expect(badRole.code).toBe(1);
    expect(badRole.out).toContain('--role must be one of owner, manager, agent, viewer');
    expect(JSON.parse((await run('supplier', 'disable', '--supplier', String(supplier.id))).out)).toMatchObject({ id: supplier.id, enabled: false });
    expect(JSON.parse((await run('supplier', 'list')).out)).toEqual([expect.objectContaining({ code: 'CLI-1', enabled: false })]);
    const missing = await run('credentials', 'issue');
    expect(missing.code).toBe(1);
    expect(missing.out).toContain('--supplier is required');
    const badEnv = start(['migrate'], { ...env, PORT: 'eighty' });
    expect(await badEnv.exited).toBe(1);
    expect(badEnv.output()).toContain('PORT must be a whole number');
  });

  it.runIf(onPostgres())('wakes a worker apart as soon as another process accepts a batch, not at its next poll', { timeout: 60_000 }, async () => {
    // A poll of a minute: only the NOTIFY sent with the accepted batches can wake the worker in time.
    const env = { ...(await storage()), ADMIN_TOKEN: ADMIN, WORKER_POLL_MS: '60000' };
    const port = await freePort();
    const api = start(['api'], { ...env, PORT: String(port) });
    await waitForReady(`http://127.0.0.1:${port}`, api);
    const worker = start(['worker'], env);
    await waitFor('the worker to start', async () => (worker.output().includes('running on') ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 500)); // past its first look for work
    const call = http(`http://127.0.0.1:${port}`);
    const { headers } = await createSupplier(call, ADMIN, 'WAKE', { name: 'Wake' });
    const accepted = await call('POST', '/batch/brand', [{ internalCode: 'B', name: 'B' }], headers);
    expect(accepted.status).toBe(202);
    const [status] = await waitForBatches(call, headers, accepted.body.batchId, { timeoutMs: 15_000, everyMs: 50 });
    expect(status).toMatchObject({ status: 'processed', completed: 1 });
    worker.proc.kill('SIGTERM');
    api.proc.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  });

  it.runIf(onPostgres())('starts while another process creates the demo supplier on the same empty database, without a second demo', { timeout: 60_000 }, async () => {
    // Processes started together on an empty database all find it empty. One used to lose
    // the race for the code DEMO and exit 1 ("a supplier with code DEMO exists"). Here the
    // other process is this test: its insert stays uncommitted until the service waits on it.
    const port = await freePort();
    const database = await storage();
    const env = { ...database, PORT: String(port), NODE_ENV: 'development', ADMIN_TOKEN: ADMIN };
    const other = postgresPool(database.DATABASE_URL!, 2);
    const first = await other.connect();
    try {
      await first.query('begin');
      await first.query(`insert into suppliers (code, name) values ('DEMO', 'Demo Distribuciones')`);
      const service = start(['api'], env);
      await waitForReady(`http://127.0.0.1:${port}`, service);
      await waitFor('the service to wait on the uncommitted demo supplier', async () =>
        (await other.query(`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)).rowCount ? true : undefined,
      );
      await first.query('commit');
      await waitFor('the start to finish', async () => {
        if (service.proc.exitCode !== null) throw new Error(`exited ${service.proc.exitCode}: ${service.output()}`);
        return service.output().includes('running on') ? true : undefined;
      }, 15_000);
      expect(service.output()).not.toMatch(/Created the demo supplier/);
      const suppliers = await http(`http://127.0.0.1:${port}`)('GET', '/admin/suppliers', undefined, { authorization: `Bearer ${ADMIN}` });
      expect(suppliers.body).toEqual([expect.objectContaining({ code: 'DEMO' })]);
      service.proc.kill('SIGTERM');
      expect(await service.exited, service.output()).toBe(0);
    } finally {
      first.release();
      await other.end();
    }
  });

  it.runIf(onPostgres())('applies every item exactly once with several API and worker processes', { timeout: 300_000 }, async () => {
    const env = { ...(await storage()), ADMIN_TOKEN: ADMIN, BATCH_SIZE: '500', BATCH_CHUNK_SIZE: '50', WORKER_POLL_MS: '20', RATE_LIMIT_RPS: '100000', RATE_LIMIT_BURST: '100000' };
    const ports = [await freePort(), await freePort()];
    const apis = ports.map((port) => start(['api'], { ...env, PORT: String(port) }));
    for (const [i, port] of ports.entries()) await waitForReady(`http://127.0.0.1:${port}`, apis[i]);
    for (let i = 0; i < 3; i++) start(['worker'], env);

    const suppliers = await Promise.all(
      [0, 1, 2, 3].map(async (n) => {
        const api = http(`http://127.0.0.1:${ports[n % 2]}`);
        const { id, headers } = await createSupplier(api, ADMIN, `MW-${n}`, { name: `MW ${n}` });
        return { id, headers, api, call: (m: string, u: string, b?: unknown) => api(m, u, b, headers) };
      }),
    );
    const allIds: string[][] = [];
    await Promise.all(
      suppliers.map(async (s, n) => {
        await s.call('PUT', '/category', { internalCode: 'C', name: 'C' });
        await s.call('POST', '/batch/brand', [{ internalCode: 'B', name: 'B' }]);
        await s.call('POST', '/batch/product', { upsert: Array.from({ length: 200 }, (_, i) => ({ internalCode: `P${i}`, name: 'P', brandInternalCode: 'B', categoryInternalCode: 'C' })) });
        await s.call('POST', '/pricelist', { internalCode: 'PL' });
        const ids: string[] = [];
        for (let round = 1; round <= 4; round++) {
          const products = Array.from({ length: 1000 }, (_, i) => ({ priceListInternalCode: 'PL', productInternalCode: `P${i % 200}`, units: 1 + Math.floor(i / 200), price: round * 10 + n }));
          ids.push(...(await s.call('POST', '/batch/pricelist', { upsert: { products } })).body.batchId);
        }
        allIds[n] = ids;
      }),
    );
    for (const [n, s] of suppliers.entries()) {
      const statuses = await waitForBatches(s.api, s.headers, allIds[n]!, { timeoutMs: 120_000, everyMs: 50 });
      for (const st of statuses) expect(st).toMatchObject({ status: 'processed', total: 500, processed: 500, completed: 500, failed: 0 });
      // Acceptance order per supplier: each batch started after the previous one finished.
      for (let i = 1; i < statuses.length; i++) expect(Date.parse(statuses[i]!.startedAt!)).toBeGreaterThanOrEqual(Date.parse(statuses[i - 1]!.finishedAt!));
      const prices = (await s.call('GET', '/pricelist/PL')).body.products;
      expect(prices).toHaveLength(1000);
      expect(new Set(prices.map((p: { price: number }) => p.price))).toEqual(new Set([40 + n]));
    }
    for (const api of apis) api.proc.kill('SIGTERM');
  });
});
