// A real HTTP server on 127.0.0.1 that plays the suppliers' image hosts, real images
// made with sharp, and a wait for the image worker through the GET endpoints.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { expect } from 'vitest';
import { waitUntil } from '../../support/wait.ts';
import { as, type TestApp, type TestSupplier } from '../helpers/app.ts';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

export interface ImageServer {
  readonly origin: string;
  readonly port: number;
  url(path: string): string;
  /** Requests received per path. */
  hits(path: string): number;
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

export async function startImageServer(): Promise<ImageServer> {
  const routes = new Map<string, Handler>();
  const counts = new Map<string, number>();
  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const handler = routes.get(path);
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    await handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    url: (path) => `${origin}${path}`,
    hits: (path) => counts.get(path) ?? 0,
    route: (path, handler) => routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers with the bytes and content type (and a content-length unless `chunked`). */
export const serve =
  (body: Buffer, contentType: string, options: { chunked?: boolean } = {}): Handler =>
  (_req, res) => {
    if (options.chunked) {
      res.writeHead(200, { 'content-type': contentType });
      // Two writes: the size is only known by reading.
      res.write(body.subarray(0, body.length >> 1));
      res.end(body.subarray(body.length >> 1));
      return;
    }
    res.writeHead(200, { 'content-type': contentType, 'content-length': body.length }).end(body);
  };

export const redirect =
  (location: string, status = 302): Handler =>
  (_req, res) => {
    res.writeHead(status, { location }).end();
  };

/** A photo-like image (noise does not compress away, so sizes are realistic). */
export function makeImage(width: number, height: number, format: 'png' | 'jpeg'): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: '#3a7', noise: { type: 'gaussian', mean: 120, sigma: 40 } } });
  return (format === 'png' ? image.png() : image.jpeg({ quality: 85 })).toBuffer();
}

/** Polls `read` until `pick` of its answer is no longer pending; returns the answer. */
export async function untilSettled<T>(read: () => Promise<T>, pick: (value: T) => string | null | (string | null)[], timeoutMs = 30_000): Promise<T> {
  let value!: T;
  await waitUntil(
    () => `images to settle, still pending: ${JSON.stringify(value)}`,
    async () => ![pick((value = await read()))].flat().includes('pending'),
    timeoutMs,
    25,
  );
  return value;
}

/** GETs an entity as the supplier (200 expected). */
export async function getJson(t: TestApp, s: TestSupplier, url: string) {
  const res = await as(t, s, 'GET', url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Submits a batch and waits for it; every item is expected to complete. */
export async function batch(t: TestApp, s: TestSupplier, endpoint: string, upsert: unknown[]) {
  const { statuses: [status] } = await t.runBatch(s, endpoint, { upsert });
  expect(status).toMatchObject({ status: 'processed', failed: 0 });
  return status;
}

/** Fetches one of the service's image URLs through the app (no port), by its path. */
export async function fetchStored(t: TestApp, absoluteUrl: string, headers: Record<string, string> = {}) {
  const res = await t.request({ method: 'GET', url: new URL(absoluteUrl).pathname, headers });
  return { res, body: res.rawPayload };
}
