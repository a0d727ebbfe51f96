// Reading the Prometheus text format, and setting up a supplier of a running service over HTTP.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { http as client, waitFor, type Child } from '../helpers/process.ts';

/** The value of the sample `name` whose labels include `labels`; undefined when there is none. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

/** A supplier with credentials and a token, created through the admin API of a running service. */
export async function supplierOver(baseUrl: string, adminToken: string, code: string) {
  const api = client(baseUrl);
  const admin = { authorization: `Bearer ${adminToken}` };
  const created = await api('POST', '/admin/suppliers', { code, name: `Supplier ${code}` }, admin);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const issued = await api('POST', `/admin/suppliers/${created.body.id}/credentials`, {}, admin);
  const { apiKey, clientId, clientSecret } = issued.body;
  const login = await api('POST', '/login', { clientId, clientSecret }, { 'x-api-key': apiKey });
  expect(login.status).toBe(200);
  return { id: created.body.id as number, headers: { 'x-api-key': apiKey as string, authorization: `Bearer ${login.body.access_token}` } };
}

/** A local HTTP server answering every request with `status`, keeping what it received. */
export async function receiver(answer: (req: http.IncomingMessage, body: Buffer) => number = () => 200) {
  const received: { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.writeHead(answer(req, body), { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A fresh PGlite folder starts with initdb and every migration: slow on a busy machine. */
export const STARTUP_MS = 180_000;

export const ready = (baseUrl: string, child: Child) =>
  waitFor(
    `${baseUrl}/readyz`,
    async () => {
      if (child.proc.exitCode !== null) throw new Error(`exited: ${child.output()}`);
      const res = await fetch(`${baseUrl}/readyz`);
      return res.ok ? true : undefined;
    },
    STARTUP_MS,
    200,
  );
