// At least once through crashes: the process delivering webhooks is killed with SIGKILL
// in the middle of a few hundred deliveries; after a restart every event reaches the
// receiver (duplicates allowed, each with the same webhook-id and body), none is lost.
import { describe, expect, it } from 'vitest';
import { createSupplier, runBatch } from '../../support/service.ts';
import { onPostgres } from '../helpers/database.ts';
import { freePort, http, processScope, waitFor, waitForReady } from '../helpers/process.ts';
import { Receiver } from './helpers.ts';

const ADMIN = 'webhook-crash-admin-token-0123';
const EVENTS = 300;
const { killableWorker, onCleanup } = processScope('webhook-crash');

describe('webhook delivery through a crash', () => {
  it('delivers every event after the delivering process was killed with SIGKILL mid-way', async () => {
    const receiver = await new Receiver().start();
    onCleanup(() => receiver.close());
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const common = {
      ADMIN_TOKEN: ADMIN,
      PORT: String(port),
      WORKER_POLL_MS: '50',
      WEBHOOK_CONCURRENCY: '4',
      WEBHOOK_TIMEOUT_MS: '1500',
      WEBHOOK_LEASE_SECONDS: '2',
      RATE_LIMIT_RPS: '100000',
      RATE_LIMIT_BURST: '100000',
      // One store user opens every ticket: lift the per-person write limit (docs/security.md).
      STORE_WRITE_RATE_LIMIT_PER_MINUTE: '100000',
      DEMO_SUPPLIER: 'false',
      ALLOW_PRIVATE_ADDRESSES: 'true',
    };
    // PostgreSQL: the API apart, the worker (dispatcher) killed and replaced; PGlite: the whole service on one folder.
    const startDeliverer = await killableWorker(common);
    let deliverer = startDeliverer();
    await waitForReady(baseUrl);
    const api = http(baseUrl);
    const admin = { authorization: `Bearer ${ADMIN}` };

    // A supplier with a store and a person; the webhook points at the receiver, disabled for now.
    const supplier = await createSupplier(api, ADMIN, 'CRASH', { name: 'Crash' });
    const sup = supplier.headers;
    const { statuses } = await runBatch(api, sup, '/batch/store', { upsert: [{ internalCode: 'S-1', name: 'Tienda' }] }, { timeoutMs: 60_000, everyMs: 50 });
    expect(statuses.map((s) => s.status)).toEqual(['processed']);
    await api('POST', '/store/S-1/add/user', { users: [{ email: 'ana@example.com' }] }, sup);
    const { body: token } = await api('POST', '/admin/store-users/token', { email: 'ana@example.com' }, admin);
    const person = { authorization: `Bearer ${token.access_token}` };
    const { body: me } = await api('GET', '/app/me', undefined, person);
    const storeId = me.stores[0].id;
    await api('PUT', `/admin/suppliers/${supplier.id}/webhook`, { baseUrl: receiver.baseUrl('CRASH'), enabled: false }, admin);

    // Each ticket records its ticket.created event in the transaction that opens it.
    for (let i = 0; i < EVENTS; i++) {
      const opened = await api('POST', `/app/stores/${storeId}/tickets`, { message: `ticket ${i}` }, person);
      expect(opened.status).toBe(200);
    }
    receiver.respond('CRASH', () => ({ status: 200, delayMs: 10 }));
    await api('PUT', `/admin/suppliers/${supplier.id}/webhook`, { baseUrl: receiver.baseUrl('CRASH'), enabled: true }, admin);

    const distinct = () => new Set(receiver.callsOf('CRASH').map((c) => c.headers['webhook-id'])).size;
    await waitFor('the dispatcher to be part-way through', async () => (distinct() >= 40 ? true : undefined), 60_000, 2);
    deliverer.proc.kill('SIGKILL');
    await deliverer.exited;
    const atKill = distinct();
    expect(atKill).toBeLessThan(EVENTS);

    deliverer = startDeliverer();
    await waitForReady(baseUrl, onPostgres() ? undefined : deliverer);
    await waitFor('every event to arrive', async () => (distinct() === EVENTS ? true : undefined), 120_000);

    // Each webhook-id always came with the same body; every event's delivery is recorded delivered.
    const bodies = new Map<string, Set<string>>();
    for (const c of receiver.callsOf('CRASH')) {
      const id = c.headers['webhook-id']!;
      bodies.set(id, (bodies.get(id) ?? new Set()).add(c.body));
    }
    expect([...bodies.values()].every((set) => set.size === 1)).toBe(true);
    const messages = new Set(receiver.callsOf('CRASH').map((c) => c.json.userMessage));
    expect(messages.size).toBe(EVENTS);
    const list = (page: number) => api('GET', `/admin/suppliers/${supplier.id}/webhook/deliveries?status=delivered&page=${page}`, undefined, admin);
    await waitFor('every delivery to be recorded', async () => ((await list(1)).body.total === EVENTS ? true : undefined), 60_000);
    const delivered: string[] = [];
    for (let page = 1; page <= Math.ceil(EVENTS / 50); page++) delivered.push(...(await list(page)).body.data.map((d: { webhookId: string }) => d.webhookId));
    expect(delivered).toHaveLength(EVENTS);
    expect(new Set(delivered)).toEqual(new Set(bodies.keys()));
    deliverer.proc.kill('SIGTERM');
    expect(await deliverer.exited).toBe(0);
  }, 240_000);
});
