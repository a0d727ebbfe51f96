// The API's part of a drain (closeApi, what SIGTERM runs): a request in flight when the
// close begins is answered, and no keep-alive connection outlives the close. Node closes
// the connections idle when the close begins; one that becomes idle later (its request's
// body still arriving after the answer went out) stayed open until its keep-alive
// timeout, and the service's stop waited the whole 72 s (seen in CI, in
// test/operations/backup.test.ts: 70 s per stop).
import net from 'node:net';
import { once } from 'node:events';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { closeApi } from '../../src/main/lifecycle.ts';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../helpers/app.ts';

const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

/** A service listening on a port of its own (each test closes one), with a keep-alive timeout far longer than a test waits. */
async function listening() {
  const t = await createTestApp({ env: { KEEP_ALIVE_TIMEOUT_MS: '600000' } });
  apps.push(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return t;
}

/** A raw connection to the service: what it has received, and whether the service closed it within 5 s. */
async function connection(t: TestApp) {
  const { port } = t.app.server.address() as net.AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  const state = { received: '' };
  socket.setEncoding('utf8').on('data', (chunk) => (state.received += chunk));
  const closed = once(socket, 'close');
  await once(socket, 'connect');
  const closedByService = () =>
    Promise.race([closed.then(() => 'closed by the service'), new Promise((resolve) => setTimeout(() => resolve('still open after 5 s'), 5_000))]);
  return { socket, state, closedByService };
}

describe('draining the API', () => {
  it('answers the request in flight when the close begins, then closes its connection', async () => {
    const t = await listening();
    // The request's read waits on a lock held here, so it is in flight when the close begins.
    let release!: () => void;
    let locked!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const hasLock = new Promise<void>((resolve) => (locked = resolve));
    const holding = t.deps.db.transaction().execute(async (trx) => {
      await sql`lock table suppliers in access exclusive mode`.execute(trx);
      locked();
      await held;
    });
    await hasLock;
    const { socket, state, closedByService } = await connection(t);
    const arrived = once(t.app.server, 'request');
    socket.write(`GET /admin/suppliers HTTP/1.1\r\nHost: surtido\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n\r\n`);
    // Routed before the close begins (it then waits for the lock).
    await arrived;
    const closing = closeApi(t.app);
    release();
    await holding;
    expect(await closedByService()).toBe('closed by the service');
    expect(state.received).toMatch(/^HTTP\/1\.1 200 /);
    await closing;
  });

  it('closes a connection that becomes idle during the close at once, not at its keep-alive timeout', async () => {
    const t = await listening();
    // Refused (401) from its headers, before its body is read: the answer goes out with
    // keep-alive while the request is still arriving, so the connection is not idle when
    // the close begins, and becomes idle when the body's last bytes arrive after it.
    const { socket, state, closedByService } = await connection(t);
    socket.write('POST /admin/suppliers HTTP/1.1\r\nHost: surtido\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"code":');
    await expect.poll(() => state.received).toMatch(/^HTTP\/1\.1 401 [^]*keep-alive/i);
    const closing = closeApi(t.app);
    // The server has stopped listening (Node closed the connections idle then): only now the body ends.
    await expect.poll(() => t.app.server.listening).toBe(false);
    socket.write('"X","n":1}'.padEnd(12)); // the body's last 12 bytes: exactly Content-Length, nothing after
    expect(await closedByService()).toBe('closed by the service');
    await closing;
  });
});
