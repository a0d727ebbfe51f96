// npm run bench:imports — the service's memory and responsiveness while it takes three
// ~19 MiB file imports at once (POST /import/prices, CSV, one million rows each).
//
// On PostgreSQL (BENCH_DATABASE_URL, else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
// it creates a scratch database and starts the service as a child process (`cli.ts serve`,
// API and worker in one process, as `npm start` runs it), so the figures are the service's
// alone. Three suppliers each upload one file at the same moment (three suppliers, so the
// per-supplier limit of two running imports does not refuse the third); meanwhile
// GET /healthz and GET /readyz are timed every 100 ms. Figures: the resident set before,
// its peak during the uploads (VmHWM, the kernel's own high-water mark, reset through
// /proc/<pid>/clear_refs just before, so a start-up peak such as a web build is not
// counted), the time until the last 202, the slowest health answers, and the machine's
// load average (on a shared machine the latencies follow it). Then one supplier sends three at once: the
// third is refused with 429 and a Retry-After (checked, not timed).
// The last line is `rss_before_mb=<a> peak_rss_mb=<b> healthz_max_ms=<c> readyz_max_ms=<d>` for scripts.
import fs from 'node:fs';
import os from 'node:os';
import { call, createSupplier, envInt, fmtInt, fmtMs, memoryOf, startServiceProcess, table, type Supplier } from './lib.ts';

const ROWS = envInt('BENCH_IMPORT_ROWS', 1_000_000);
const FILES = 3;
const log = (message: string) => console.log(`[bench] ${message}`);

/** A prices CSV of ROWS rows (19 MiB for a million). */
function pricesFile(): string {
  const lines = ['priceListInternalCode,productInternalCode,units,price'];
  for (let i = 0; i < ROWS; i++) lines.push(`PL,P${String(i % 1000).padStart(7, '0')},${(i % 97) + 1},${(100 + (i % 997)) / 100}`);
  return lines.join('\n') + '\n';
}

const upload = (baseUrl: string, s: Supplier, file: string) =>
  fetch(`${baseUrl}/import/prices?name=prices.csv`, { method: 'POST', headers: { ...s.headers, 'content-type': 'text/csv' }, body: file });

/** Times GET url every 100 ms until stopped; answers the slowest. */
function timeEvery(url: string) {
  let slowest = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      try {
        await (await fetch(url)).arrayBuffer();
      } catch {
        break; // the service is gone: the run is failing, and says why elsewhere
      }
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return async () => {
    running = false;
    await done;
    return slowest;
  };
}

// The three answers can take longer than the idle-connection limit on a busy machine; the bench waits for them.
const service = await startServiceProcess(log, { CONNECTION_TIMEOUT_MS: '0' });
const { baseUrl, adminToken } = service;
try {
  const suppliers: Supplier[] = [];
  for (let i = 0; i < FILES; i++) {
    const s = await createSupplier({ baseUrl, adminToken }, `IMPORTS${i}`);
    await call(baseUrl, 'POST', '/pricelist', { headers: s.headers, body: { internalCode: 'PL' }, expect: 200 });
    suppliers.push(s);
  }
  const file = pricesFile();
  log(`file of ${fmtInt(ROWS)} rows, ${(Buffer.byteLength(file) / 2 ** 20).toFixed(1)} MiB`);
  // Settle: one small import first, so the figures are not the first request's warm-up.
  const warm = await upload(baseUrl, suppliers[0]!, 'priceListInternalCode,productInternalCode,units,price\nPL,P1,1,1\n');
  if (warm.status !== 202) throw new Error(`warm-up import answered ${warm.status}: ${await warm.text()}`);
  // The high-water mark from here on (5: reset the peak resident set, proc(5)).
  fs.writeFileSync(`/proc/${service.pid}/clear_refs`, '5');
  const before = memoryOf(service.pid);

  const healthz = timeEvery(`${baseUrl}/healthz`);
  const readyz = timeEvery(`${baseUrl}/readyz`);
  const started = performance.now();
  const answers = await Promise.all(suppliers.map(async (s) => {
    const res = await upload(baseUrl, s, file);
    return { status: res.status, body: (await res.json()) as { counts?: { rowsRead: number } } };
  }));
  const ms = performance.now() - started;
  const [healthzMs, readyzMs] = [await healthz(), await readyz()];
  const during = memoryOf(service.pid);
  for (const a of answers) {
    if (a.status !== 202 || a.body.counts?.rowsRead !== ROWS) throw new Error(`an import answered ${a.status}: ${JSON.stringify(a.body).slice(0, 300)}`);
  }

  // One supplier, three at once: two run, the third is told to come back.
  const small = 'priceListInternalCode,productInternalCode,units,price\n' + 'PL,P1,1,1\n'.repeat(200_000);
  const same = await Promise.all([0, 1, 2].map(() => upload(baseUrl, suppliers[1]!, small)));
  const statuses = same.map((r) => r.status).sort();
  const refused = same.find((r) => r.status === 429);
  log(`one supplier, three at once: ${statuses.join(', ')}${refused ? `; Retry-After ${refused.headers.get('retry-after')}` : ''}`);

  console.log('');
  console.log(
    table(
      ['measure', 'value'],
      [
        ['imports at once', `${FILES} × ${fmtInt(ROWS)} rows (${(Buffer.byteLength(file) / 2 ** 20).toFixed(1)} MiB each)`],
        ['time until the last 202', fmtMs(ms)],
        ['RSS before', `${before.rssMb.toFixed(0)} MiB`],
        ['peak RSS during', `${during.peakMb.toFixed(0)} MiB`],
        ['slowest GET /healthz during', fmtMs(healthzMs)],
        ['slowest GET /readyz during', fmtMs(readyzMs)],
        ['load average (1 min) at the end', os.loadavg()[0]!.toFixed(1)],
        ['one supplier, three at once', statuses.join(', ')],
      ],
    ),
  );
  console.log(`rss_before_mb=${before.rssMb.toFixed(0)} peak_rss_mb=${during.peakMb.toFixed(0)} healthz_max_ms=${healthzMs.toFixed(0)} readyz_max_ms=${readyzMs.toFixed(0)}`);
} finally {
  await service.stop();
}
