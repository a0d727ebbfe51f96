// Ports and HTTP for talking to a running service, written once for tests, benchmarks and scripts.
import net from 'node:net';
import { waitUntil } from './wait.ts';

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
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
