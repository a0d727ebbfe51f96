// A local HTTP server (127.0.0.1, a port of its own) that records every request it gets
// (the URL with its query, the headers, the raw body) and answers 204: a webhook receiver
// for tests that read what arrived, byte for byte.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Recorder {
  readonly calls: RecordedCall[];
  readonly port: number;
  close(): Promise<void>;
}

export async function startRecorder(): Promise<Recorder> {
  const calls: RecordedCall[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      calls.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { calls, port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
}
