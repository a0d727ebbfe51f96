// npm run fault:postgres: PostgreSQL restarted under load.
//
// The script starts a throwaway PostgreSQL cluster of its own: `initdb` (trust
// authentication) into a temporary folder with the server binaries of the highest
// installed PostgreSQL (/usr/lib/postgresql/<version>/bin), listening on 127.0.0.1 at a
// free port; as root, initdb and the server run as the `postgres` system user. The
// cluster is stopped and its folder removed however the run ends (failure, Ctrl-C). The
// machine's shared server is never touched.
//
// An API process and a worker process on a scratch database in that cluster; four
// suppliers send price list batches, reads, orders and tickets (whose webhooks go to a
// local receiver) for LOAD_SECONDS (default 60). PostgreSQL is restarted twice during the
// load with that cluster's `pg_ctl`: once with `pg_ctl restart -m fast`, once stopped
// (`pg_ctl stop -m fast`) for OUTAGE_SECONDS (default 4) and started again. The service is
// never restarted.
//
// What must hold: while the database is away requests fail fast with 503 and
// Retry-After (never a 500, never a hang); the service recovers by itself; every accepted
// batch is applied, each item exactly once, in order per supplier; every event reaches
// the receiver. Exits 1 otherwise.
//
// OUTAGES=restart (or stop) runs only that one; FAULTS=off runs the load alone.
// SERVICE_ROOT=<another checkout> runs that code. FAULT_SHARED_SERVER=1 opts out of the
// throwaway cluster: the run then uses FAULT_DATABASE_URL (else DATABASE_URL, else
// postgres://postgres@127.0.0.1:5432/test) and restarts the machine's Debian cluster with
// `pg_ctlcluster`, as root, disturbing everyone else who uses it.
import pg from 'pg';
import { sleep } from '../../support/wait.ts';
import { LoadClient } from './client.ts';
import { checkBatches, checkEvents, checkLosses, createSupplier, drain, every, faultSetup, lossTable, openTicket, placeOrder, read, sendBatch, type SupplierFixture } from './fixture.ts';
import { fmtMs, log, percentile, postgresOutage, printMachine, runScript, serverUrl, startProcess, startThrowawayCluster, stopProcess, table, Verdicts, waitForReady, type Outage } from './lib.ts';

const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const OUTAGE_SECONDS = Number(process.env.OUTAGE_SECONDS ?? 4);
const SUPPLIERS = 4;
const UNITS = 10; // 1,000 items per batch
const OUTAGES = (process.env.OUTAGES ?? 'restart,stop').split(',');
const SHARED_SERVER = process.env.FAULT_SHARED_SERVER === '1';

/** Can a new connection run `select 1` now? (What the server itself is doing, apart from the service.) */
async function postgresAnswers(): Promise<boolean> {
  const c = new pg.Client({ connectionString: serverUrl(), connectionTimeoutMillis: 500 });
  c.on('error', () => {});
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

await runScript('fault:postgres', async (onCleanup) => {
  printMachine();
  if (SHARED_SERVER) {
    log(`FAULT_SHARED_SERVER=1: restarting the machine's shared server (${serverUrl()}) with pg_ctlcluster`);
  } else {
    const cluster = await startThrowawayCluster();
    onCleanup(() => cluster.remove()); // registered first: runs last, after the scratch database is dropped
    log(`throwaway PostgreSQL cluster (${cluster.bin}) on 127.0.0.1:${cluster.port} in ${cluster.dir}`);
  }
  const { scratch, adminToken, env, receiver, port, baseUrl } = await faultSetup(onCleanup, { WORKER_POLL_MS: '100' }, { audit: true });
  const api = startProcess('api', 'api', { ...env, PORT: String(port) });
  const worker = startProcess('worker', 'worker', env);
  onCleanup(() => Promise.all([stopProcess(api), stopProcess(worker)]).then(() => {}));
  await waitForReady(baseUrl, api);
  log(`database ${scratch.name}; api pid ${api.proc.pid}, worker pid ${worker.proc.pid}; receiver on ${receiver.port}`);

  const setup = new LoadClient([baseUrl]);
  const suppliers: SupplierFixture[] = [];
  for (let i = 0; i < SUPPLIERS; i++) suppliers.push(await createSupplier(setup, adminToken, `PGR${i}`, receiver));
  log(`${SUPPLIERS} suppliers ready; load for ${LOAD_SECONDS} s`);

  const c = new LoadClient([baseUrl]);
  const until = c.t0 + LOAD_SECONDS * 1000;
  const probes: { at: number; ok: boolean }[] = [];
  const dbProbes: { at: number; ok: boolean }[] = [];
  const loops: Promise<void>[] = [];
  for (const s of suppliers) {
    let version = 0;
    loops.push(every(c, 2000, until, () => sendBatch(c, s, ++version, UNITS)));
    loops.push(every(c, 400, until, (n) => placeOrder(c, s, n)));
    loops.push(every(c, 1000, until, (n) => openTicket(c, s, n)));
    loops.push(every(c, 50, until, (n) => read(c, s, n)));
  }
  loops.push(
    every(c, 100, until, async () => {
      const at = Date.now() - c.t0;
      const ok = await fetch(`${baseUrl}/readyz`).then((r) => r.ok, () => false);
      probes.push({ at, ok });
    }),
  );
  loops.push(
    every(c, 100, until, async () => {
      const at = Date.now() - c.t0;
      dbProbes.push({ at, ok: await postgresAnswers() });
    }),
  );
  const outages: Outage[] = [];
  const faults = (async () => {
    if (process.env.FAULTS === 'off') return; // a trial of the load alone
    await sleep(LOAD_SECONDS * 250);
    if (OUTAGES.includes('restart')) {
      log('restarting PostgreSQL');
      outages.push(await postgresOutage(c.t0, 0));
      log('PostgreSQL is back');
      await sleep(LOAD_SECONDS * 300);
    }
    if (OUTAGES.includes('stop')) {
      log(`stopping PostgreSQL for ${OUTAGE_SECONDS} s`);
      outages.push(await postgresOutage(c.t0, OUTAGE_SECONDS * 1000));
      log('PostgreSQL is back');
    }
  })();
  await Promise.all([...loops, faults]);
  log('load over; waiting for the batches and webhooks to finish');
  const drainStarted = Date.now();
  const drained = await drain(scratch.pool, api.alive() && worker.alive() ? 180_000 : 20_000).then(() => true, () => false);
  const drainMs = Date.now() - drainStarted;

  const batches = await checkBatches(scratch.pool, suppliers, UNITS);
  const events = await checkEvents(scratch.pool, suppliers, receiver);

  // Recovery, per outage: when readiness came back and when the first write succeeded, counted from PostgreSQL answering again.
  const recovery = outages.map((o) => {
    // When the server really stopped and started answering, from the direct probes.
    const downAt = dbProbes.find((p) => p.at >= o.downAt && !p.ok)?.at ?? o.downAt;
    const upAt = dbProbes.find((p) => p.at > downAt && p.ok)?.at ?? o.upAt;
    o = { ...o, downAt, upAt };
    const readyAgain = probes.find((p) => p.at >= o.upAt && p.ok)?.at;
    const notReady = probes.filter((p) => p.at >= o.downAt && p.at <= o.upAt + 5000 && !p.ok).length;
    const firstWrite = c.samples.find((x) => x.at >= o.upAt && x.kind !== 'read' && x.status >= 200 && x.status < 300);
    const window = c.samples.filter((x) => x.at >= o.downAt - 100 && x.at <= o.upAt + 2000);
    const unavailable = window.filter((x) => x.status === 503);
    return [
      o.kind,
      `${fmtMs(o.upAt - o.downAt)} (at ${(o.downAt / 1000).toFixed(1)} s)`,
      notReady,
      readyAgain === undefined ? 'never' : fmtMs(readyAgain - o.upAt),
      firstWrite ? fmtMs(firstWrite.at + firstWrite.ms - o.upAt) : 'never',
      unavailable.length,
      unavailable.length ? fmtMs(percentile(unavailable.map((x) => x.ms), 99)) : 'n/a',
      window.filter((x) => x.status !== 503 && (x.status < 200 || x.status >= 300) && x.status !== 409).length,
    ];
  });

  const unhandled = api.count(/unhandled error/) + worker.count(/unhandled error/);
  console.log(`\n## fault:postgres: ${LOAD_SECONDS} s of load, ${SUPPLIERS} suppliers, 1 API + 1 worker process\n`);
  console.log(table(['outage', 'database away', 'readyz not ready', 'ready again after', 'first write after', '503 answers', 'p99 503', 'other errors'], recovery));
  console.log('');
  console.log(table(LoadClient.header, c.rows()));
  console.log('');
  console.log(lossTable(batches, events));
  console.log(`\n${drained ? 'drained' : 'NOT drained'} in ${fmtMs(drainMs)}; webhook delivery after the event: p50 ${fmtMs(percentile(events.deliveryMs, 50))}, p99 ${fmtMs(percentile(events.deliveryMs, 99))}, max ${fmtMs(Math.max(...events.deliveryMs))}`);
  const problems = c.unexpected();
  if (problems.length) console.log(`unexpected answers: ${problems.join('; ')}`);
  for (const p of [api, worker]) if (!p.alive()) console.log(`${p.name} exited (code ${p.proc.exitCode}, signal ${p.proc.signalCode}):\n${p.output().slice(-3000)}`);

  const v = new Verdicts();
  v.check('service processes never restarted', `api ${api.alive() ? 'up' : 'DOWN'}, worker ${worker.alive() ? 'up' : 'DOWN'}`, api.alive() && worker.alive());
  v.check('503 with Retry-After while the database was away', `${c.total('unavailable')} answers`, [...c.stats.values()].every((s) => s.withRetryAfter === s.unavailable));
  const slowest = Math.max(0, ...[...c.stats.values()].flatMap((s) => s.unavailableMs));
  v.check('503s fail fast (slowest under 2 s)', fmtMs(slowest), slowest < 2000);
  v.check('no 500 and no other unexpected answer', `${c.totalUnexpected()} answers, ${unhandled} "unhandled error" logs`, c.totalUnexpected() === 0 && unhandled === 0);
  v.check('every operation eventually succeeded', `${c.total('gaveUp')} gave up`, c.total('gaveUp') === 0);
  v.check('recovered after each outage', recovery.map((r) => r[3]).join(', '), recovery.every((r) => r[3] !== 'never' && r[4] !== 'never'));
  checkLosses(v, batches, events);
  console.log('');
  v.print();
  if (!v.ok) {
    console.log('\n--- api output (tail) ---\n' + api.output().slice(-4000));
    console.log('\n--- worker output (tail) ---\n' + worker.output().slice(-4000));
  }
  return v.ok;
});
