// npm run fault:receivers: suppliers whose webhook receivers hang, reset connections,
// answer slowly or too slowly, beside one that behaves.
//
// An API process and a worker process (WEBHOOK_TIMEOUT_MS 2,000) on a scratch database;
// six suppliers, each with its own receiver behaviour, have orders placed and tickets
// opened for BASELINE_SECONDS (default 15, every receiver answering at once), then for
// LOAD_SECONDS (default 45) while the receivers misbehave:
//   good      answers 200 at once, always
//   hang      never answers an event's first call (the dispatcher's timeout ends it)
//   reset     destroys the connection on an event's first call
//   slow      answers every call after 1.5 s (within the timeout)
//   too-slow  answers an event's first call after 3 s (past the timeout)
//   trickle   sends 200 at once on an event's first call, then its body a byte every
//             200 ms for 3 s (past the timeout)
// A failed first call is retried after 5 s ±20 % (src/modules/webhooks/README.md) and then answered.
//
// What must hold: every event reaches its receiver (at least once, same webhook-id,
// valid signature), none is lost; placing orders never waits for a receiver. The figures
// show what a misbehaving receiver costs the others (dispatcher slots held until the
// timeout). Exits 1 if an event was lost.
import { sleep } from '../../support/wait.ts';
import { LoadClient } from './client.ts';
import { checkEvents, createSupplier, drain, every, faultSetup, openTicket, placeOrder, type SupplierFixture } from './fixture.ts';
import { fmtMs, log, percentile, printMachine, query, runScript, startProcess, stopProcess, table, Verdicts, waitForReady } from './lib.ts';
import type { Behaviour, Call } from './receiver.ts';

const BASELINE_SECONDS = Number(process.env.BASELINE_SECONDS ?? 15);
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 45);
const TIMEOUT_MS = 2000;

let misbehaving = false;
/** Misbehaves on the first call of an event that happened while the receivers misbehave. */
const firstCall = (bad: Behaviour) => (call: Call): Behaviour => (misbehaving && call.n === 0 ? bad : { kind: 'ok' });

const RECEIVERS: { code: string; what: string; policy: (call: Call) => Behaviour }[] = [
  { code: 'GOOD', what: 'answers at once', policy: () => ({ kind: 'ok' }) },
  { code: 'HANG', what: 'first call: no answer', policy: firstCall({ kind: 'hang' }) },
  { code: 'RESET', what: 'first call: connection reset', policy: firstCall({ kind: 'reset' }) },
  { code: 'SLOW', what: 'every call: 1.5 s', policy: () => (misbehaving ? { kind: 'ok', delayMs: 1500 } : { kind: 'ok' }) },
  { code: 'TOOSLOW', what: 'first call: 3 s', policy: firstCall({ kind: 'ok', delayMs: 3000 }) },
  { code: 'TRICKLE', what: 'first call: body over 3 s', policy: firstCall({ kind: 'trickle', forMs: 3000 }) },
];

await runScript('fault:receivers', async (onCleanup) => {
  printMachine();
  const settings = {
    WORKER_POLL_MS: '100',
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    WEBHOOK_LEASE_SECONDS: '10',
    // The per-supplier share of the delivery slots, to compare settings (default: the service's).
    ...(process.env.WEBHOOK_SUPPLIER_CONCURRENCY ? { WEBHOOK_SUPPLIER_CONCURRENCY: process.env.WEBHOOK_SUPPLIER_CONCURRENCY } : {}),
  };
  const { scratch, adminToken, env, receiver, port, baseUrl } = await faultSetup(onCleanup, settings, { audit: false });
  const api = startProcess('api', 'api', { ...env, PORT: String(port) });
  const worker = startProcess('worker', 'worker', env);
  onCleanup(() => Promise.all([stopProcess(api), stopProcess(worker)]).then(() => {}));
  await waitForReady(baseUrl, api);

  const setup = new LoadClient([baseUrl]);
  const suppliers: SupplierFixture[] = [];
  for (const r of RECEIVERS) suppliers.push(await createSupplier(setup, adminToken, r.code, receiver, r.policy));
  log(`database ${scratch.name}; ${suppliers.length} suppliers; ${BASELINE_SECONDS} s all good, then ${LOAD_SECONDS} s misbehaving`);

  const c = new LoadClient([baseUrl]);
  const misbehaveAt = c.t0 + BASELINE_SECONDS * 1000;
  const until = misbehaveAt + LOAD_SECONDS * 1000;
  const loops: Promise<void>[] = [];
  for (const s of suppliers) {
    loops.push(every(c, 500, until, (n) => placeOrder(c, s, n)));
    loops.push(every(c, 1000, until, (n) => openTicket(c, s, n)));
  }
  const phase = (async () => {
    await sleep(misbehaveAt - Date.now());
    misbehaving = true;
    log('receivers misbehave from now');
  })();
  await Promise.all([...loops, phase]);
  misbehaving = false;
  log('load over; waiting for every delivery');
  const drainStarted = Date.now();
  const drained = await drain(scratch.pool, 120_000).then(() => true, () => false);
  const drainMs = Date.now() - drainStarted;

  const events = await checkEvents(scratch.pool, suppliers, receiver);
  const rows = await query(scratch.pool, `
    select e.supplier_id::int, e.message_id, extract(epoch from e.created_at) * 1000 as created_ms,
           (select count(*) from webhook_attempts a join webhook_deliveries d on d.supplier_id = a.supplier_id and d.id = a.delivery_id
             where d.supplier_id = e.supplier_id and d.event_id = e.id and (a.status_code is null or a.status_code >= 300))::int as failed_attempts
    from webhook_events e where e.type <> 'ping'`);
  const acked = receiver.acked();
  const perReceiver = RECEIVERS.map((r, i) => {
    const s = suppliers[i]!;
    const mine = rows.filter((x) => x.supplier_id === s.id);
    const latency = (during: boolean) =>
      mine
        .filter((x) => Number(x.created_ms) >= misbehaveAt === during)
        .flatMap((x) => {
          const at = receiver.seen.get(x.message_id)?.ackedAt;
          return at === undefined ? [] : [at - Number(x.created_ms)];
        });
    const calls = mine.reduce((n, x) => n + (receiver.seen.get(x.message_id)?.calls ?? 0), 0);
    const before = latency(false);
    const during = latency(true);
    return {
      row: [
        r.code.toLowerCase(),
        r.what,
        mine.length,
        calls,
        mine.reduce((n, x) => n + x.failed_attempts, 0),
        mine.filter((x) => acked.has(x.message_id)).length,
        mine.filter((x) => !acked.has(x.message_id)).length,
        `${fmtMs(percentile(before, 50))} / ${fmtMs(percentile(before, 99))}`,
        `${fmtMs(percentile(during, 50))} / ${fmtMs(percentile(during, 99))}`,
        fmtMs(Math.max(...during)),
      ],
      lost: mine.filter((x) => !acked.has(x.message_id)).length,
    };
  });

  console.log(`\n## fault:receivers: ${BASELINE_SECONDS} s good, then ${LOAD_SECONDS} s misbehaving; webhook timeout ${TIMEOUT_MS / 1000} s, concurrency 16, 1 API + 1 worker process\n`);
  console.log(
    table(
      ['receiver', 'behaviour', 'events', 'calls', 'failed attempts', 'delivered', 'lost', 'delivery p50 / p99 before', 'delivery p50 / p99 during', 'max during'],
      perReceiver.map((p) => p.row),
    ),
  );
  console.log('');
  console.log(table(LoadClient.header, c.rows()));
  console.log(`\n${drained ? 'drained' : 'NOT drained'} ${fmtMs(drainMs)} after the load; ${receiver.calls} calls in all; behaviours: ${[...receiver.behaviours].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  const problems = c.unexpected();
  if (problems.length) console.log(`unexpected answers: ${problems.join('; ')}`);

  const v = new Verdicts();
  v.check('service processes up', `api ${api.alive() ? 'up' : 'DOWN'}, worker ${worker.alive() ? 'up' : 'DOWN'}`, api.alive() && worker.alive());
  v.check('every order and ticket answered', `${c.totalUnexpected()} unexpected, ${c.total('gaveUp')} gave up`, c.totalUnexpected() === 0 && c.total('gaveUp') === 0);
  v.check('one created event per order and ticket', events.ordersWithoutEvent + events.ticketsWithoutEvent, events.ordersWithoutEvent + events.ticketsWithoutEvent === 0 && events.ordersInDb === events.ordersTold);
  v.check('every signature valid', events.badSignatures, events.badSignatures === 0);
  v.check('no webhook event lost', `${events.lost} of ${events.events}`, events.lost === 0 && perReceiver.every((p) => p.lost === 0));
  console.log('');
  v.print();
  return v.ok;
});
