// npm run fault:workers: worker processes killed with SIGKILL, again and again, while
// they apply batches and deliver webhooks.
//
// An API process and two worker processes on a scratch database; four suppliers send
// price list batches of 1,000 items (chunks of 100, so a kill lands mid-batch), orders
// and tickets (webhooks to a local receiver that answers in 20-60 ms, so a kill lands
// mid-delivery) for LOAD_SECONDS (default 60). Every KILL_EVERY_MS (default 2,500, ±40 %)
// one worker is killed with SIGKILL and a new one started in its place. Leases are short
// (2 s) so the work a dead worker held is taken over quickly.
//
// What must hold: every accepted batch is applied, each item exactly once (database
// audit), in order per supplier; every webhook event reaches the receiver (a duplicate
// is allowed: at least once, same webhook-id). Exits 1 otherwise.
import { sleep } from '../../support/wait.ts';
import { LoadClient } from './client.ts';
import { checkBatches, checkEvents, checkLosses, createSupplier, drain, every, faultSetup, lossTable, openTicket, placeOrder, read, sendBatch, type SupplierFixture } from './fixture.ts';
import { fmtMs, log, percentile, printMachine, query, runScript, startProcess, stopProcess, table, Verdicts, waitForReady, type ServiceProcess } from './lib.ts';

const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const KILL_EVERY_MS = Number(process.env.KILL_EVERY_MS ?? 2500);
const SUPPLIERS = 4;
const UNITS = 10; // 1,000 items per batch, 10 chunks

await runScript('fault:workers', async (onCleanup) => {
  printMachine();
  const settings = { WORKER_POLL_MS: '100', BATCH_CHUNK_SIZE: '100', BATCH_LEASE_SECONDS: '2', WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_LEASE_SECONDS: '2', WEBHOOK_CONCURRENCY: '8' };
  const { scratch, adminToken, env, receiver, port, baseUrl } = await faultSetup(onCleanup, settings, { audit: true });
  const api = startProcess('api', 'api', { ...env, PORT: String(port) });
  const workers: ServiceProcess[] = [];
  let started = 0;
  const startWorker = () => {
    const w = startProcess(`worker-${++started}`, 'worker', env);
    workers.push(w);
    return w;
  };
  onCleanup(() => Promise.all([api, ...workers].map((p) => stopProcess(p))).then(() => {}));
  await waitForReady(baseUrl, api);
  const live = [startWorker(), startWorker()];
  log(`database ${scratch.name}; api pid ${api.proc.pid}; receiver on ${receiver.port}`);

  const setup = new LoadClient([baseUrl]);
  const suppliers: SupplierFixture[] = [];
  const answerSoonish = () => ({ kind: 'ok' as const, delayMs: 20 + Math.floor(Math.random() * 40) });
  for (let i = 0; i < SUPPLIERS; i++) suppliers.push(await createSupplier(setup, adminToken, `WK${i}`, receiver, answerSoonish));
  log(`${SUPPLIERS} suppliers ready; load for ${LOAD_SECONDS} s, a worker killed every ~${KILL_EVERY_MS} ms`);

  const c = new LoadClient([baseUrl]);
  // The load runs LOAD_SECONDS, and on (up to three times as long) until a kill has landed
  // mid-batch and one mid-delivery: a short run (CI) still proves both.
  let until = c.t0 + LOAD_SECONDS * 1000;
  const latest = c.t0 + 3 * LOAD_SECONDS * 1000;
  const loadEnd = () => until;
  const loops: Promise<void>[] = [];
  for (const s of suppliers) {
    let version = 0;
    loops.push(every(c, 1000, loadEnd, () => sendBatch(c, s, ++version, UNITS)));
    loops.push(every(c, 300, loadEnd, (n) => placeOrder(c, s, n)));
    loops.push(every(c, 1000, loadEnd, (n) => openTicket(c, s, n)));
    loops.push(every(c, 200, loadEnd, (n) => read(c, s, n)));
  }
  const kills: { at: number; batchesLeased: number; deliveriesLeased: number }[] = [];
  const killer = (async () => {
    await sleep(2000);
    const landed = () => ({ batch: kills.some((k) => k.batchesLeased > 0), delivery: kills.some((k) => k.deliveriesLeased > 0) });
    // What the workers hold right now (either of them: leases do not name the process).
    const leases = async () =>
      (await query(scratch.pool, `
        select (select count(*) from batches where lease_owner is not null and finished_at is null)::int as batches,
               (select count(*) from webhook_deliveries where lease_owner is not null and status = 'pending')::int as deliveries`))[0]!;
    for (;;) {
      // Until a kill has landed mid-batch and one mid-delivery, the load goes on (up to latest).
      const sofar = landed();
      if (!(sofar.batch && sofar.delivery) && until - Date.now() < 2000 + KILL_EVERY_MS) until = Math.min(latest, Date.now() + 2000 + KILL_EVERY_MS * 1.4);
      if (Date.now() >= until - 2000) break;
      // A kill waits (up to a second) for a moment the workers hold the kind of work no kill has hit yet.
      const hitsNew = (h: { batches: number; deliveries: number }) => (!sofar.batch && h.batches > 0) || (!sofar.delivery && h.deliveries > 0);
      let held = await leases();
      if (!(sofar.batch && sofar.delivery)) {
        for (let waited = 0; waited < 1000 && !hitsNew(held); waited += 25) {
          await sleep(25);
          held = await leases();
        }
      }
      const victim = live.splice(Math.floor(Math.random() * live.length), 1)[0]!;
      victim.proc.kill('SIGKILL');
      await victim.exited;
      kills.push({ at: Date.now() - c.t0, batchesLeased: held.batches, deliveriesLeased: held.deliveries });
      live.push(startWorker());
      await sleep(KILL_EVERY_MS * (0.6 + Math.random() * 0.8));
    }
  })();
  await Promise.all([...loops, killer]);
  log(`load over after ${kills.length} kills; waiting for the batches and webhooks to finish`);
  const drainStarted = Date.now();
  const drained = await drain(scratch.pool, 180_000).then(() => true, () => false);
  const drainMs = Date.now() - drainStarted;

  const batches = await checkBatches(scratch.pool, suppliers, UNITS);
  const events = await checkEvents(scratch.pool, suppliers, receiver);
  const [chunks] = await query(scratch.pool, `
    select count(*)::int as batches, coalesce(sum(cardinality(chunk_finished_at)), 0)::int as chunks
    from batches where id::text = any($1)`, [batches.loadBatchIds]);
  const unhandled = [api, ...workers].reduce((n, p) => n + p.count(/unhandled error/), 0);

  console.log(`\n## fault:workers: ${Math.round((until - c.t0) / 1000)} s of load (LOAD_SECONDS=${LOAD_SECONDS}), ${SUPPLIERS} suppliers, 1 API + 2 worker processes, SIGKILL every ~${(KILL_EVERY_MS / 1000).toFixed(1)} s\n`);
  console.log(
    table(
      ['kills', 'with a batch leased', 'with deliveries leased', 'workers started', 'chunks committed', 'webhook calls sent twice', 'drained after the load'],
      [[kills.length, kills.filter((k) => k.batchesLeased > 0).length, kills.filter((k) => k.deliveriesLeased > 0).length, started, chunks.chunks, events.extraCalls, drained ? fmtMs(drainMs) : 'NOT drained']],
    ),
  );
  console.log('');
  console.log(table(LoadClient.header, c.rows()));
  console.log('');
  console.log(lossTable(batches, events, 'extra calls (allowed)'));
  console.log(`\nwebhook delivery after the event: p50 ${fmtMs(percentile(events.deliveryMs, 50))}, p99 ${fmtMs(percentile(events.deliveryMs, 99))}, max ${fmtMs(Math.max(...events.deliveryMs))}`);
  const problems = c.unexpected();
  if (problems.length) console.log(`unexpected answers: ${problems.join('; ')}`);

  const v = new Verdicts();
  v.check('API never restarted', api.alive() ? 'up' : 'DOWN', api.alive());
  v.check('kills landed mid-work', `${kills.filter((k) => k.batchesLeased > 0).length} mid-batch, ${kills.filter((k) => k.deliveriesLeased > 0).length} mid-delivery`, kills.some((k) => k.batchesLeased > 0) && kills.some((k) => k.deliveriesLeased > 0));
  v.check('no unexpected answer', `${c.totalUnexpected()} answers, ${unhandled} "unhandled error" logs`, c.totalUnexpected() === 0 && unhandled === 0 && c.total('gaveUp') === 0);
  checkLosses(v, batches, events);
  console.log('');
  v.print();
  return v.ok;
});
