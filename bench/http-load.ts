// A load generator in a process of its own, so the client's work never shares the event
// loop of the server it measures (the service under test runs in the benchmark's process).
//
//   node --import tsx bench/http-load.ts '<json options>'   prints one JSON result line
//
// `httpLoad()` spawns it and returns the parsed result. Each of `connections` loops sends
// a request, reads the whole answer, checks its status and sends the next one, for
// `seconds`, after a warm-up of `warmupSeconds` that is not counted.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  seconds: number;
  warmupSeconds?: number;
  connections: number;
  /** The status every answer must have (default 200). */
  status?: number;
}

export interface LoadResult {
  requests: number;
  failures: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Bytes of the last answer's body, to show what was measured. */
  bodyBytes: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function run(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  const pool = new Pool(url.origin, { connections: options.connections, pipelining: 1 });
  const expected = options.status ?? 200;
  const latencies: number[] = [];
  let failures = 0;
  let bodyBytes = 0;
  const phase = async (seconds: number, record: boolean) => {
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (performance.now() < deadline) {
          const started = performance.now();
          const res = await pool.request({ origin: url.origin, path: url.pathname + url.search, method: 'GET', headers: options.headers });
          const body = await res.body.arrayBuffer();
          if (!record) continue;
          bodyBytes = body.byteLength;
          if (res.statusCode === expected) latencies.push(performance.now() - started);
          else failures++;
        }
      }),
    );
  };
  await phase(options.warmupSeconds ?? 1, false);
  await phase(options.seconds, true);
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    failures,
    perSecond: latencies.length / options.seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    bodyBytes,
  };
}

/** Runs the load from a child process and returns its result. */
export function httpLoad(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`the load generator exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1)!));
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  run(JSON.parse(process.argv[2]!)).then(
    (result) => console.log(JSON.stringify(result)),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
