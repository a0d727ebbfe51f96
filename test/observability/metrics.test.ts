// GET /metrics as Prometheus scrapes it: over real HTTP from the service run as operators
// run it (child processes), after a batch, webhook deliveries and a failed request.
import { afterAll, describe, expect, it } from 'vitest';
import { as, createTestApp } from '../helpers/app.ts';
import { onPostgres } from '../helpers/database.ts';
import { freePort, http, processScope, waitFor } from '../helpers/process.ts';
import { ready, receiver, sample, supplierOver, STARTUP_MS } from './helpers.ts';

const ADMIN = 'metrics-test-admin-token-01';
const TOKEN = 'metrics-test-scrape-token-01';
const { start, storage } = processScope('metrics');

/** `null`: no Authorization header at all. */
async function scrape(url: string, token: string | null = TOKEN) {
  const res = await fetch(url, { headers: token !== null ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

const webhooks = await receiver();
afterAll(() => webhooks.close());

describe("GET /metrics", { timeout: 400_000 }, () => {
  it('shows a batch, webhook deliveries and a failed request, by route pattern; the token is required', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const service = start(['serve'], { ...(await storage({ migrated: true })), PORT: String(port), ADMIN_TOKEN: ADMIN, DEMO_SUPPLIER: 'false', METRICS_TOKEN: TOKEN, WORKER_POLL_MS: '50' });
    await ready(baseUrl, service);
    const api = http(baseUrl);
    const s = await supplierOver(baseUrl, ADMIN, 'MET-1');

    // Without the token, or with another one: refused, and nothing of the metrics shown.
    for (const token of [null, 'not-the-metrics-token-at-all']) {
      const refused = await scrape(`${baseUrl}/metrics`, token);
      expect(refused.status).toBe(401);
      expect(refused.text).not.toContain('http_request_duration_seconds');
    }
    const before = await scrape(`${baseUrl}/metrics`);
    expect(before.status).toBe(200);
    expect(before.type).toContain('text/plain; version=0.0.4');
    expect(sample(before.text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(before.text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(sample(before.text, 'db_pool_size')).toBeGreaterThanOrEqual(1);
    expect(sample(before.text, 'db_pool_waiting')).toBe(0);
    expect(sample(before.text, 'queue_depth', { queue: 'batches' })).toBe(0);

    // A batch of two stores, one failing.
    const accepted = await api('POST', '/batch/store', { upsert: [{ internalCode: 'S1', name: 'One' }, { internalCode: 'S2', name: 'Two', priceListCode: 'NOPE' }] }, s.headers);
    expect(accepted.status).toBe(202);
    const batchId = accepted.body.batchId[0];
    await waitFor('the batch', async () => ((await api('GET', `/batch/${batchId}/status`, undefined, s.headers)).body.status !== 'processing' ? true : undefined));

    // A webhook ping (sent by the API process) and its redelivery (sent by the worker).
    expect((await api('PUT', `/admin/suppliers/${s.id}/webhook`, { baseUrl: webhooks.url, enabled: true }, { authorization: `Bearer ${ADMIN}` })).status).toBe(200);
    const ping = await api('POST', '/webhook/test', undefined, s.headers);
    expect(ping.status, JSON.stringify(ping.body)).toBe(200);
    expect((await api('POST', `/webhook/deliveries/${ping.body.id}/redeliver`, undefined, s.headers)).status).toBe(200);
    await waitFor('the redelivery', async () => (webhooks.received.length >= 2 ? true : undefined));

    // A failed request: a batch status asked for without credentials.
    expect((await api('GET', `/batch/${batchId}/status`)).status).toBe(401);
    // A path no metric value can contain by chance (a number such as a heap size could hold '12345').
    expect((await api('GET', '/no/such/route/order-xyzzy')).status).toBe(404);

    const after = await waitFor('the redelivery counted', async () => {
      const m = await scrape(`${baseUrl}/metrics`);
      return (sample(m.text, 'webhook_attempts_total', { outcome: 'delivered' }) ?? 0) >= 2 ? m.text : undefined;
    });
    expect(sample(after, 'batch_items_accepted_total', { endpoint: '/batch/store' })).toBe(2);
    expect(sample(after, 'batch_items_applied_total', { endpoint: '/batch/store' })).toBe(1);
    expect(sample(after, 'batch_items_failed_total', { endpoint: '/batch/store' })).toBe(1);
    expect(sample(after, 'webhook_attempt_duration_seconds_count', { outcome: 'delivered' })).toBe(2);
    expect(sample(after, 'http_request_duration_seconds_count', { method: 'POST', route: '/batch/store', status_code: '202' })).toBe(1);
    expect(sample(after, 'http_request_duration_seconds_count', { method: 'GET', route: '/batch/:uuid/status', status_code: '401' })).toBe(1);
    expect(sample(after, 'http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    // Never an id in a label.
    expect(after).not.toContain(batchId);
    expect(after).not.toContain('xyzzy');
    // The queues empty once the worker has closed the batch (its status may read processed
    // a moment before the worker records it finished) and recorded the deliveries.
    await waitFor('empty queues', async () => {
      const m = await scrape(`${baseUrl}/metrics`);
      return sample(m.text, 'queue_depth', { queue: 'batches' }) === 0 && sample(m.text, 'queue_depth', { queue: 'webhook_deliveries' }) === 0 ? true : undefined;
    });

    service.proc.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  });

  it('is served by a worker process on METRICS_PORT, and then not on the API port', async () => {
    const metricsPort = await freePort();
    const env = { ...(await storage({ migrated: true })), ADMIN_TOKEN: ADMIN, METRICS_PORT: String(metricsPort) };
    const worker = start(['worker'], env);
    const url = `http://127.0.0.1:${metricsPort}/metrics`;
    const m = await waitFor('the worker\'s metrics', async () => {
      if (worker.proc.exitCode !== null) throw new Error(worker.output());
      const res = await scrape(url, null);
      return res.status === 200 ? res.text : undefined;
    }, STARTUP_MS);
    expect(sample(m, 'queue_depth', { queue: 'image_downloads' })).toBe(0);
    expect(sample(m, 'queue_oldest_age_seconds', { queue: 'webhook_deliveries' })).toBe(0);
    expect(sample(m, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
    worker.proc.kill('SIGTERM');
    expect(await worker.exited, worker.output()).toBe(0);

    if (onPostgres()) {
      // An API process with METRICS_PORT keeps /metrics off its public port.
      const port = await freePort();
      const apiProcess = start(['api'], { ...env, PORT: String(port), METRICS_PORT: String(await freePort()) });
      await ready(`http://127.0.0.1:${port}`, apiProcess);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
      apiProcess.proc.kill('SIGTERM');
      expect(await apiProcess.exited).toBe(0);
    }
  });
});

describe('GET /metrics in process', () => {
  it('shows the messages queue move (a pending message, then none) and the database pool gauges', async () => {
    const t = await createTestApp();
    try {
      const s = await t.supplier();
      const stores = await as(t, s, 'POST', '/batch/store', { upsert: [{ internalCode: 'S1', name: 'One' }] });
      await t.waitForBatches(s, stores.json().batchId);
      expect((await as(t, s, 'POST', '/store/S1/add/user', { users: [{ email: 'ana@example.com' }] })).statusCode).toBe(200);
      const scrapeIn = async () => {
        const res = await t.request({ method: 'GET', url: '/metrics' });
        expect(res.statusCode).toBe(200);
        return res.body;
      };
      const first = await scrapeIn();
      expect(sample(first, 'queue_depth', { queue: 'messages' })).toBe(0);
      expect(sample(first, 'queue_oldest_age_seconds', { queue: 'messages' })).toBe(0);
      // Present and sane on either database (the scrape itself may hold the connection).
      expect(sample(first, 'db_pool_in_use')).toBeGreaterThanOrEqual(0);
      expect(sample(first, 'db_pool_waiting')).toBe(0);
      expect(first).toMatch(/^# TYPE db_pool_in_use gauge$/m);
      expect(first).toMatch(/^# TYPE db_pool_waiting gauge$/m);

      // A sign-in code waits in the outbox while no worker sends it.
      await t.messages.stop();
      expect((await t.request({ method: 'POST', url: '/app/auth/code', payload: { email: 'ana@example.com' } })).statusCode).toBe(202);
      const waiting = await scrapeIn();
      expect(sample(waiting, 'queue_depth', { queue: 'messages' })).toBe(1);
      expect(sample(waiting, 'queue_oldest_age_seconds', { queue: 'messages' })).toBeGreaterThanOrEqual(0);

      t.messages.start();
      await t.notifier.waitForCode('ana@example.com');
      const drained = await waitFor('the sent message to leave the queue', async () => {
        const m = await scrapeIn();
        return sample(m, 'queue_depth', { queue: 'messages' }) === 0 ? m : undefined;
      });
      expect(sample(drained, 'queue_oldest_age_seconds', { queue: 'messages' })).toBe(0);
    } finally {
      await t.close();
    }
  });
});
