// Tracing as a collector sees it: the service run as a child process with
// OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local OTLP/HTTP receiver (this file's), which
// must receive a request's span with its request id, the request's SQL (on PGlite and on
// PostgreSQL alike), and the batch application and webhook deliveries linked to the requests
// that caused them (a redelivery, and the delivery of a ticket opened through /app), the
// delivery with its outbound HTTP call, whose URL never shows the webhook URL's
// credentials or query values.
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, http, processScope, waitFor } from '../helpers/process.ts';
import { ready, receiver, supplierOver } from './helpers.ts';

const ADMIN = 'tracing-test-admin-token-01';
const { start, storage } = processScope('tracing');

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
  links?: { traceId: string; spanId: string }[];
}

const collector = await receiver();
const webhooks = await receiver();
afterAll(async () => {
  await collector.close();
  await webhooks.close();
});

function spans(): OtlpSpan[] {
  return collector.received
    .filter((r) => r.url === '/v1/traces')
    .flatMap((r) => JSON.parse(r.body.toString('utf8')).resourceSpans.flatMap((rs: any) => rs.scopeSpans.flatMap((ss: any) => ss.spans)));
}
const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
};
const SERVER = 2;
const CLIENT = 3;

describe('tracing', { timeout: 400_000 }, () => {
  it('exports a request with its SQL, and the work it caused linked to it', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const service = start(['serve'], { ...(await storage({ migrated: true })), PORT: String(port), ADMIN_TOKEN: ADMIN, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SERVICE_NAME: 'surtido-test', WORKER_POLL_MS: '50' });
    await ready(baseUrl, service);
    const api = http(baseUrl);
    const s = await supplierOver(baseUrl, ADMIN, 'TRC-1');

    const accepted = await api('POST', '/batch/store', { upsert: [{ internalCode: 'S1', name: 'One' }] }, { ...s.headers, 'x-request-id': 'trace-batch-request' });
    expect(accepted.status).toBe(202);
    // A URL with credentials and a token in its query: neither may reach a span.
    const hookUrl = webhooks.url.replace('http://', 'http://hook-user:hook-pass-9f3@') + '/erp?token=tok-in-query-7c1';
    expect((await api('PUT', `/admin/suppliers/${s.id}/webhook`, { baseUrl: hookUrl, enabled: true }, { authorization: `Bearer ${ADMIN}` })).status).toBe(200);
    const ping = await api('POST', '/webhook/test', undefined, s.headers);
    expect(ping.status).toBe(200);
    const redelivered = await api('POST', `/webhook/deliveries/${ping.body.id}/redeliver`, undefined, { ...s.headers, 'x-request-id': 'trace-redeliver-request' });
    expect(redelivered.status).toBe(200);

    const requestSpan = (id: string) => spans().find((sp) => attr(sp, 'http.request.id') === id);
    const found = await waitFor(
      'the spans',
      async () => {
        const batchRequest = requestSpan('trace-batch-request');
        const redeliverRequest = requestSpan('trace-redeliver-request');
        const all = spans();
        const apply = all.find((sp) => sp.name === 'batch apply' && sp.links?.some((l) => l.traceId === batchRequest?.traceId));
        const deliver = all.find((sp) => sp.name === 'webhook deliver' && sp.links?.some((l) => l.traceId === redeliverRequest?.traceId));
        return batchRequest && apply && deliver ? { batchRequest, apply, deliver, all } : undefined;
      },
      60_000,
      250,
    );
    const { batchRequest, apply, deliver, all } = found;
    expect(batchRequest.kind).toBe(SERVER);
    // The application's link names a span the request's trace really holds.
    const applyLink = apply.links!.find((l) => l.traceId === batchRequest.traceId)!;
    expect(all.some((sp) => sp.traceId === batchRequest.traceId && sp.spanId === applyLink.spanId)).toBe(true);
    // The request's SQL, in the request's trace: the batch row written before the 202.
    const inserts = all.filter((sp) => sp.traceId === batchRequest.traceId && sp.kind === CLIENT && String(attr(sp, 'db.query.text')).includes('insert into "batches"'));
    expect(inserts).toHaveLength(1);
    expect(attr(inserts[0]!, 'db.system.name')).toBe('postgresql');
    // The application is a trace of its own, with the worker's SQL in it.
    expect(apply.traceId).not.toBe(batchRequest.traceId);
    expect(all.some((sp) => sp.traceId === apply.traceId && sp.parentSpanId === apply.spanId && attr(sp, 'db.operation.name') !== undefined)).toBe(true);
    // The delivery's outbound call (undici) is a child of the delivery's span, and it carried the trace to the receiver.
    const call = all.find((sp) => sp.traceId === deliver.traceId && sp.parentSpanId === deliver.spanId && sp.kind === CLIENT && attr(sp, 'http.request.method') === 'POST');
    expect(call).toBeDefined();
    expect(webhooks.received.at(-1)!.headers.traceparent).toContain(deliver.traceId);
    // The call's URL is in the span with the query's values redacted, the credentials nowhere.
    expect(webhooks.received.at(-1)!.url).toBe('/erp/webhooks/ping?token=tok-in-query-7c1');
    expect(attr(call!, 'url.full')).toBe(`${webhooks.url}/erp/webhooks/ping?token=REDACTED`);
    expect(attr(call!, 'url.query')).toBe('?token=REDACTED');
    expect(JSON.stringify(all)).not.toMatch(/hook-pass-9f3|tok-in-query-7c1/);

    // A delivery caused by an ordinary new event, not a redelivery: a ticket a store opens
    // through /app records ticket.created, whose delivery is linked to that request.
    expect((await api('POST', '/store/S1/add/user', { users: [{ email: 'ana@example.com' }] }, s.headers)).status).toBe(200);
    const person = await api('POST', '/admin/store-users/token', { email: 'ana@example.com' }, { authorization: `Bearer ${ADMIN}` });
    expect(person.status).toBe(200);
    const asPerson = { authorization: `Bearer ${person.body.access_token}` };
    const storeId = (await api('GET', '/app/me', undefined, asPerson)).body.stores[0].id;
    const ticket = await api('POST', `/app/stores/${storeId}/tickets`, { message: 'Falta un producto' }, { ...asPerson, 'x-request-id': 'trace-ticket-request' });
    expect(ticket.status, JSON.stringify(ticket.body)).toBe(200);
    const event = await waitFor(
      'the ticket delivery linked to its request',
      async () => {
        const request = requestSpan('trace-ticket-request');
        const delivery = request && spans().find((sp) => sp.name === 'webhook deliver' && sp.links?.some((l) => l.traceId === request.traceId));
        return request && delivery ? { request, delivery } : undefined;
      },
      60_000,
      250,
    );
    expect(event.delivery.traceId).not.toBe(event.request.traceId);
    // The link names a span of the request's trace, and the receiver got that ticket in the delivery's trace.
    const link = event.delivery.links!.find((l) => l.traceId === event.request.traceId)!;
    expect(spans().some((sp) => sp.traceId === event.request.traceId && sp.spanId === link.spanId)).toBe(true);
    const received = webhooks.received.find((r) => r.url.startsWith('/erp/webhooks/support/create-ticket?'));
    expect(received?.headers.traceparent).toContain(event.delivery.traceId);
    expect(JSON.parse(received!.body.toString('utf8'))).toMatchObject({ id: ticket.body.id });
    expect(JSON.stringify(spans())).not.toMatch(/hook-pass-9f3|tok-in-query-7c1/);

    service.proc.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  });
});
