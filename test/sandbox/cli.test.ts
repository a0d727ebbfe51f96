// `surtido trigger <event>` (src/integrator): the integrator CLI on POST /sandbox/events,
// against the real service over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/integrator/cli.ts';
import { loadSmallCatalog, testCredential } from '../helpers/sandbox.ts';
import { startService, type RunningService } from '../client/helpers.ts';
import type { TestSupplier } from '../helpers/app.ts';

let service: RunningService;
let live: TestSupplier;
let test: TestSupplier;

const envOf = (s: TestSupplier) => ({ SURTIDO_URL: service.baseUrl, SURTIDO_API_KEY: s.apiKey, SURTIDO_CLIENT_ID: s.clientId, SURTIDO_CLIENT_SECRET: s.clientSecret });

async function run(args: string[], s: TestSupplier) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, envOf(s), { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  service = await startService({ env: { LOGIN_RATE_LIMIT_PER_MINUTE: '1000' } });
  live = await service.t.supplier('CLI-SUP');
  test = await testCredential(service.t, live);
  await loadSmallCatalog(service.t, test, 'buyer@cli.example');
});
afterAll(() => service.close());

describe('surtido trigger', () => {
  it('places an order in a chosen test store and names it and its delivery', async () => {
    const { code, stdout, stderr } = await run(['trigger', 'order.created', '--store', 'S1', '--json'], test);
    expect(code, stderr).toBe(0);
    const answer = JSON.parse(stdout);
    expect(answer).toMatchObject({ type: 'order.created', storeCode: 'S1', orderId: expect.any(Number), deliveryId: expect.any(Number), webhookId: expect.stringMatching(/^msg_/) });

    const cancelled = await run(['trigger', 'order.cancelled', '--order', String(answer.orderId)], test);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toContain(`order.cancelled in store S1: order ${answer.orderId}; delivery `);
    const ticket = await run(['trigger', 'ticket.created', '--order', String(answer.orderId)], test);
    expect(ticket.stdout).toMatch(/^ticket\.created in store S1: order \d+, ticket \d+; delivery \d+ msg_/);
  });

  it('says a live credential cannot, and refuses an unknown event, with exit status 1', async () => {
    const refused = await run(['trigger', 'order.created'], live);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('test credentials only');
    const unknown = await run(['trigger', 'order.shipped'], test);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('event must be one of order.created, order.cancelled, ticket.created, ticket.additional_info_received');
  });
});
