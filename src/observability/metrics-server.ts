// /metrics on a port of its own (METRICS_PORT): how a worker-only process, which has no API,
// is scraped, and how an API process keeps its metrics off the public port. Plain node:http:
// one path, nothing else answered.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.ts';
import { scrape } from './scrape.ts';

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(metrics: Metrics, options: { port: number; host: string; token: string | undefined }): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found; metrics are at /metrics\n');
      return;
    }
    scrape(metrics, options.token, request.headers.authorization).then(
      (answer) => response.writeHead(answer.status, answer.headers).end(request.method === 'HEAD' ? undefined : answer.body),
      () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('collecting the metrics failed\n'),
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
