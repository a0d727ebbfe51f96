// The real service (the app, its database and its batch worker) listening on a port of
// its own, for tests that talk to it over HTTP as an integrator does: the SDK, the CLI.
import type { AddressInfo } from 'node:net';
import { registerSupplier } from '../../support/service.ts';
import { ADMIN_TOKEN, createTestApp, injectSend, type TestApp } from '../helpers/app.ts';

export { OffsetClock } from '../helpers/clock.ts';

export interface Credentials {
  supplierId: number;
  apiKey: string;
  clientId: string;
  clientSecret: string;
}

export interface RunningService {
  t: TestApp;
  baseUrl: string;
  /** A new supplier with fresh credentials (every scope unless named), not logged in. */
  credentials(scopes?: string[]): Promise<Credentials>;
  close(): Promise<void>;
}

let seq = 0;

export async function startService(options: Parameters<typeof createTestApp>[0] = {}): Promise<RunningService> {
  const t = await createTestApp(options);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return {
    t,
    baseUrl: `http://127.0.0.1:${port}`,
    async credentials(scopes) {
      const { id, apiKey, clientId, clientSecret } = await registerSupplier(injectSend(t.app), ADMIN_TOKEN, `SDK-${process.pid}-${++seq}`, { scopes });
      return { supplierId: id, apiKey, clientId, clientSecret };
    },
    close: () => t.close(),
  };
}

export interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  status: number | 'network error';
}

/** A fetch that records every attempt the SDK makes (method, path, headers, status). */
export function recordingFetch(): { fetch: typeof globalThis.fetch; sent: Sent[] } {
  const sent: Sent[] = [];
  const wrapped: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    const record: Sent = { method: init?.method ?? 'GET', path: url.pathname + url.search, headers, status: 'network error' };
    sent.push(record);
    const response = await fetch(input, init);
    record.status = response.status;
    return response;
  };
  return { fetch: wrapped, sent };
}

/** Brand, category and products P-1..P-n of a supplier, through the SDK's batch calls. */
export const catalogBody = (products: string[]) => ({
  brands: { upsert: [{ internalCode: 'B-1', name: 'Brand 1' }] },
  products: { upsert: products.map((code) => ({ internalCode: code, name: `Product ${code}`, brandInternalCode: 'B-1', categoryInternalCode: 'C-1' })) },
});
