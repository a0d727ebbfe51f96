// What the consoles read beside the supplier API's lists: the operators' system page
// (queues, failing webhook deliveries by supplier, version and database) and the
// `failing` filter of the delivery log (a delivery whose last attempt failed).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/net.ts';
import { as, createTestApp, type TestApp } from '../helpers/app.ts';
import { onPostgres } from '../helpers/database.ts';

let t: TestApp;
const receiver = http.createServer((_req, res) => res.writeHead(204).end());

beforeAll(async () => {
  t = await createTestApp();
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => receiver.close(r));
});

describe('failing webhook deliveries', () => {
  it('are listed apart (failing=true/false) and counted per supplier on the system page', async () => {
    const s = await t.supplier();
    const good = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/erp`;
    const closed = `http://127.0.0.1:${await freePort()}/erp`; // nothing listens: the attempt fails
    await t.admin('PUT', `/admin/suppliers/${s.id}/webhook`, { baseUrl: good, enabled: true });
    const delivered = (await as(t, s, 'POST', '/webhook/test')).json();
    expect(delivered.status).toBe('delivered');
    await t.admin('PUT', `/admin/suppliers/${s.id}/webhook`, { baseUrl: closed, enabled: true });
    const failed = (await as(t, s, 'POST', '/webhook/test')).json();
    expect(failed.status).toBe('failed');

    const ids = async (query: string) => (await as(t, s, 'GET', `/webhook/deliveries${query}`)).json().data.map((d: { id: number }) => d.id);
    expect(await ids('?failing=true')).toEqual([failed.id]);
    expect(await ids('?failing=false')).toEqual([delivered.id]);
    expect(await ids('')).toEqual([failed.id, delivered.id]);

    const system = await t.admin('GET', '/admin/system');
    expect(system.statusCode, system.body).toBe(200);
    const body = system.json();
    expect(body).toMatchObject({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), database: onPostgres() ? 'postgres' : 'pglite' });
    expect(body.queues.map((q: { queue: string }) => q.queue).sort()).toEqual(['batches', 'image_downloads', 'messages', 'webhook_deliveries']);
    for (const q of body.queues) expect(q.depth).toBeGreaterThanOrEqual(0);
    expect(body.failingDeliveries).toEqual([{ supplier: { id: s.id, code: s.code, name: expect.any(String) }, failing: 1 }]);
  });
});
