// Ports and HTTP for talking to a running service, written once for tests, benchmarks and scripts.
import fs from 'node:fs';
import net from 'node:net';
import { waitUntil } from './wait.ts';

/**
 * The first port the system gives to outgoing connections and to `listen(0)` (Linux's
 * ip_local_port_range; 32768 elsewhere, its default).
 */
function firstEphemeralPort(): number {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 11_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/** Whether 127.0.0.1:port can be listened on now. */
const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now, for a process about to
 * start. Drawn at random below the ephemeral range: a port from `listen(0)` comes from
 * the range outgoing connections use too, and in the seconds a child process takes to
 * start, a connection of another test (to PostgreSQL, or over HTTP) can take it, and the
 * child's listen then fails with EADDRINUSE (the likely cause of an API process that
 * never listened in one CI run, with two test files running at a time).
 */
export async function freePort(): Promise<number> {
  const high = firstEphemeralPort();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * (high - 10_000));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found between 10000 and ${high}`);
}

/** A service's answer: its status and its JSON body (undefined when empty). */
export interface Answer {
  status: number;
  body: any;
}

/**
 * One JSON request to the service, however it travels: Fastify's `inject` in tests,
 * fetch to a real port elsewhere. The helpers in this folder take one of these, so the
 * same steps serve every caller.
 */
export type Send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Answer>;

/** A Send over real HTTP to `baseUrl` (fetch): JSON in and out, any status answered, never thrown. */
export function overHttp(baseUrl: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
}

/**
 * Waits until GET /readyz answers 2xx. `gone` tells whether the service's process has
 * exited (a message) or not (undefined): the wait then fails at once with that message.
 */
export async function waitForReady(baseUrl: string, options: { gone?: () => string | undefined; timeoutMs?: number; everyMs?: number } = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  await waitUntil(
    `${baseUrl}/readyz`,
    async () => {
      const gone = options.gone?.();
      if (gone) throw new Error(gone);
      return fetch(`${baseUrl}/readyz`).then(
        (res) => res.ok,
        () => false,
      );
    },
    timeoutMs,
    options.everyMs ?? 50,
  );
}
