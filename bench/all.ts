// npm run bench — every benchmark, one after another on this machine, then one table of
// the figures and ratios they printed. Each benchmark runs in a process of its own (its
// own scratch database, its own service) and ends with a `key=value ...` line; this
// script only runs them and collects those lines. Settings in the environment (for
// example BENCH_DATABASE_URL) reach every benchmark.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { SERVICE_NODE_FLAGS, table } from './lib.ts';

interface Figure {
  measure: string;
  key: string;
  format?: (value: number) => string;
  /** A target on this figure: met when `test` holds. */
  target?: { text: string; test: (value: number) => boolean };
}

interface Bench {
  script: string;
  env?: Record<string, string>;
  figures: Figure[];
}

const int = (v: number) => Math.round(v).toLocaleString('en-US');
const BENCHES: Bench[] = [
  {
    script: 'batch.bench.ts',
    figures: [{ measure: 'batch ingest of price entries ÷ COPY', key: 'ratio', target: { text: '≥ 0.35', test: (v) => v >= 0.35 } }],
  },
  {
    // The same load with API and worker in one process (npm start), for comparison: the
    // worker's chunks wait for the event loop while a request is parsed (docs/benchmarks.md).
    script: 'batch.bench.ts',
    env: { BENCH_TOPOLOGY: 'one-process' },
    figures: [{ measure: '  the same, API and worker in one process (npm start)', key: 'ratio' }],
  },
  {
    script: 'catalog.bench.ts',
    figures: [
      { measure: 'batch ingest of products ÷ COPY', key: 'products_ratio', target: { text: '≥ 0.25', test: (v) => v >= 0.25 } },
      { measure: 'batch ingest of stores ÷ COPY', key: 'stores_ratio', target: { text: '≥ 0.25', test: (v) => v >= 0.25 } },
    ],
  },
  {
    script: 'promotion-read.bench.ts',
    figures: [
      { measure: 'GET /promotion/{code} requests/s', key: 'promotion_reads_per_s', format: int },
      { measure: 'GET /promotion/{code} ÷ bare Fastify route', key: 'ratio', target: { text: '≥ 0.30', test: (v) => v >= 0.3 } },
    ],
  },
  {
    script: 'store-catalog.bench.ts',
    figures: [
      { measure: 'store catalog page of 50, requests/s (realistic supplier)', key: 'catalog_per_s', format: int },
      { measure: 'store catalog p99 (ms)', key: 'p99_ms', target: { text: '≤ 50', test: (v) => v <= 50 } },
      { measure: 'store catalog ÷ bare Fastify route', key: 'ratio', target: { text: '≥ 0.20', test: (v) => v >= 0.2 } },
    ],
  },
  {
    script: 'orders.bench.ts',
    figures: [
      { measure: 'cart pricing, carts/s (20 lines, realistic supplier)', key: 'cart_per_s' },
      { measure: 'cart pricing p99 (ms)', key: 'cart_p99_ms', target: { text: '≤ 100', test: (v) => v <= 100 } },
      { measure: 'cart pricing ÷ bare Fastify route', key: 'cart_ratio', target: { text: '≥ 0.05', test: (v) => v >= 0.05 } },
      { measure: 'order placement, orders/s (same 20 lines)', key: 'orders_per_second' },
      { measure: 'order placement p99 (ms)', key: 'p99_ms' },
      { measure: 'order placement ÷ cart pricing', key: 'ratio', target: { text: '≥ 0.5', test: (v) => v >= 0.5 } },
    ],
  },
  {
    script: 'pricing.bench.ts',
    figures: [
      { measure: 'cart pricing, carts/s (50 lines, 500 promotions)', key: 'carts_per_second', format: int },
      { measure: 'cart pricing p99 (ms)', key: 'p99_ms' },
    ],
  },
  {
    script: 'webhooks.bench.ts',
    figures: [
      { measure: 'webhook deliveries/s', key: 'deliveries_per_s', format: int },
      { measure: 'webhook commit -> arrival p99 (ms)', key: 'p99_ms' },
    ],
  },
  {
    script: 'refresh.bench.ts',
    figures: [
      { measure: 'price refresh (10 % changed) ÷ first load, time', key: 'refresh_ratio', target: { text: '≤ 0.6', test: (v) => v <= 0.6 } },
      { measure: 'price refresh, rows rewritten ÷ rows changed', key: 'rewritten_per_changed', target: { text: '≤ 1.2', test: (v) => v <= 1.2 } },
    ],
  },
  {
    script: 'memory.bench.ts',
    figures: [
      { measure: 'peak RSS loading 1,000,000 price entries (MiB)', key: 'peak_rss_mb', format: int },
      { measure: 'peak RSS growth, 1,000,000 ÷ 200,000 entries', key: 'growth', target: { text: '< 1.3 (bounded)', test: (v) => v < 1.3 } },
    ],
  },
];

/** Runs one benchmark, echoing its output, and returns the key=value pairs of its last line. */
function run(bench: Bench): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, '--import', 'tsx', path.join(import.meta.dirname, bench.script)], {
      env: { ...process.env, ...bench.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${bench.script} exited with ${code}`));
      const last = out.trim().split('\n').at(-1) ?? '';
      resolve(new Map(last.split(/\s+/).map((pair) => pair.split('=') as [string, string]).map(([k, v]) => [k, Number(v)])));
    });
  });
}

const rows: string[][] = [];
let missed = 0;
for (const bench of BENCHES) {
  console.log(`\n===== ${bench.script}`);
  let values: Map<string, number>;
  try {
    values = await run(bench);
  } catch (error) {
    console.error(String(error));
    rows.push([bench.script, 'failed', '', '']);
    missed++;
    continue;
  }
  for (const figure of bench.figures) {
    const value = values.get(figure.key);
    if (value === undefined || Number.isNaN(value)) throw new Error(`${bench.script} printed no ${figure.key}`);
    const met = figure.target ? (figure.target.test(value) ? 'met' : 'MISSED') : '';
    if (met === 'MISSED') missed++;
    rows.push([figure.measure, figure.format ? figure.format(value) : String(value), figure.target?.text ?? '', met]);
  }
}

console.log(`\n===== all benchmarks, ${new Date().toISOString().slice(0, 16)}Z, this machine`);
console.log(table(['measure', 'value', 'target', ''], rows));
if (missed > 0) console.log(`\n${missed} target(s) missed or benchmark(s) failed`);
