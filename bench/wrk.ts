// HTTP load from `wrk` (Debian's package), a C load generator in a process of its own: a
// Node generator is slower than the bare route it measures and flatters the ratio. The
// package is installed with apt-get when missing. A POST body and headers go through a
// small Lua script written to a temporary file.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface WrkOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A JSON body (sent with content-type application/json). */
  body?: unknown;
  seconds: number;
  connections: number;
}

export interface WrkResult {
  perSecond: number;
  requests: number;
  /** Answers that were not 2xx or 3xx. */
  failures: number;
  p50Ms: number;
  p99Ms: number;
}

/** Installs wrk with apt-get when it is not on the PATH. */
export function ensureWrk() {
  try {
    execFileSync('sh', ['-c', 'command -v wrk'], { stdio: 'ignore' });
  } catch {
    execFileSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq wrk'], { stdio: 'inherit' });
  }
}

const luaString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

function script(options: WrkOptions): string {
  const lines = [`wrk.method = ${luaString(options.method ?? 'GET')}`];
  for (const [name, value] of Object.entries(options.headers ?? {})) lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  if (options.body !== undefined) {
    lines.push(`wrk.headers["Content-Type"] = "application/json"`);
    lines.push(`wrk.body = ${luaString(JSON.stringify(options.body))}`);
  }
  return lines.join('\n') + '\n';
}

const toMs = (value: string, unit: string) => Number(value) * ({ us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit] ?? NaN);

export function parseWrk(out: string, seconds: number): WrkResult {
  const latency = (p: string) => {
    const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
    return m ? toMs(m[1]!, m[2]!) : NaN;
  };
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const failures = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0) + Number(/Socket errors:.*timeout (\d+)/.exec(out)?.[1] ?? 0);
  if (!Number.isFinite(requests) || !Number.isFinite(perSecond)) throw new Error(`could not read wrk's output after ${seconds} s:\n${out}`);
  return { perSecond, requests, failures, p50Ms: latency('50'), p99Ms: latency('99') };
}

/** One wrk run (one thread, `connections` connections, latency distribution on). */
export async function wrk(options: WrkOptions): Promise<WrkResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-wrk-'));
  const file = path.join(dir, 'request.lua');
  fs.writeFileSync(file, script(options));
  try {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn('wrk', ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '10s', '--latency', '-s', file, options.url], { stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      child.stdout.on('data', (chunk) => (text += chunk));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}: ${text}`))));
    });
    return parseWrk(out, options.seconds);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Loads each of `loads` for BENCH_WARMUP_SECONDS (default 2) and forgets the figures: the
 * first seconds under load compile the hot paths and fill the caches, which is not what a
 * round measures (every first round's p99 was two to ten times the others').
 */
export async function warmUp(loads: Omit<WrkOptions, 'seconds'>[], settle: () => Promise<void>) {
  const seconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
  if (!(seconds > 0)) return;
  for (const load of loads) {
    await wrk({ ...load, seconds });
    await settle();
  }
}
