// The steps every test, benchmark and script takes against the service, written once:
// a supplier created through the admin API with credentials and a token, and batches
// submitted and waited for. Each takes a `Send` (net.ts), so it runs the same over
// Fastify's inject or over real HTTP.
import type { Static } from 'typebox';
import type { BatchStatus as BatchStatusSchema } from '../src/modules/batch/batch.schemas.ts';
import type { Answer, Send } from './net.ts';
import { sleep } from './wait.ts';

/** The body of `answer` when its status is `expected`; else an error naming the request and the body. */
export function expectStatus(answer: Answer, expected: number, request: string): any {
  if (answer.status !== expected) throw new Error(`${request} answered ${answer.status}, expected ${expected}: ${JSON.stringify(answer.body)?.slice(0, 1000)}`);
  return answer.body;
}

const adminHeaders = (adminToken: string) => ({ authorization: `Bearer ${adminToken}` });

export interface Credentials {
  apiKey: string;
  clientId: string;
  clientSecret: string;
}

/** New credentials of a supplier (every scope unless named). */
export async function issueCredentials(send: Send, adminToken: string, supplierId: number, scopes?: string[]): Promise<Credentials & { scopes: string[] }> {
  const url = `/admin/suppliers/${supplierId}/credentials`;
  const { apiKey, clientId, clientSecret, scopes: granted } = expectStatus(await send('POST', url, scopes ? { scopes } : {}, adminHeaders(adminToken)), 200, `POST ${url}`);
  return { apiKey, clientId, clientSecret, scopes: granted };
}

export interface LoggedIn {
  token: string;
  /** The scopes the token carries, space-separated, as POST /login answers them. */
  scope: string;
  /** What a supplier's call sends: its API key and bearer token. */
  headers: Record<string, string>;
}

/** POST /login with the credentials. */
export async function logIn(send: Send, credentials: Credentials): Promise<LoggedIn> {
  const { clientId, clientSecret, apiKey } = credentials;
  const answer = expectStatus(await send('POST', '/login', { clientId, clientSecret }, { 'x-api-key': apiKey }), 200, 'POST /login');
  const token = answer.access_token as string;
  return { token, scope: answer.scope, headers: { 'x-api-key': apiKey, authorization: `Bearer ${token}` } };
}

export interface RegisteredSupplier extends Credentials {
  id: number;
  code: string;
}

/** A supplier created through the admin API with credentials (every scope unless named), not logged in. */
export async function registerSupplier(send: Send, adminToken: string, code: string, options: { name?: string; scopes?: string[] } = {}): Promise<RegisteredSupplier> {
  const created = expectStatus(await send('POST', '/admin/suppliers', { code, name: options.name ?? `Supplier ${code}` }, adminHeaders(adminToken)), 200, 'POST /admin/suppliers');
  const id = created.id as number;
  const { apiKey, clientId, clientSecret } = await issueCredentials(send, adminToken, id, options.scopes);
  return { id, code, apiKey, clientId, clientSecret };
}

export type Supplier = RegisteredSupplier & LoggedIn;

/** A supplier created through the admin API, with credentials, logged in: `headers` carry its API key and token. */
export async function createSupplier(send: Send, adminToken: string, code: string, options: { name?: string; scopes?: string[] } = {}): Promise<Supplier> {
  const registered = await registerSupplier(send, adminToken, code, options);
  return { ...registered, ...(await logIn(send, registered)) };
}

/** GET /batch/{id}/status's answer, as the service declares it. */
export type BatchStatus = Static<typeof BatchStatusSchema>;

/** POSTs a batch request (202 expected) and answers the ids of the batches it queued. */
export async function submitBatch(send: Send, headers: Record<string, string>, path: string, body: unknown): Promise<string[]> {
  return expectStatus(await send('POST', path, body, headers), 202, `POST ${path}`).batchId;
}

/**
 * Polls GET /batch/{id}/status until no batch is 'processing' and answers their status
 * bodies, in the order of `ids`. One supplier's batches apply in acceptance order, so it
 * watches the first unfinished one and moves on. An answer other than 200 ends the wait.
 */
export async function waitForBatches(
  send: Send,
  headers: Record<string, string>,
  ids: string[],
  options: { timeoutMs?: number; everyMs?: number } = {},
): Promise<BatchStatus[]> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  const done: BatchStatus[] = [];
  for (const id of ids) {
    for (;;) {
      const body = expectStatus(await send('GET', `/batch/${id}/status`, undefined, headers), 200, `GET /batch/${id}/status`);
      if (body.status !== 'processing') {
        done.push(body);
        break;
      }
      if (Date.now() > deadline) throw new Error(`batch ${id} still processing after ${timeoutMs} ms: ${JSON.stringify(body)}`);
      await sleep(options.everyMs ?? 20);
    }
  }
  return done;
}

/** Submits a batch request and waits for every batch it queued. */
export async function runBatch(send: Send, headers: Record<string, string>, path: string, body: unknown, options?: { timeoutMs?: number; everyMs?: number }) {
  const ids = await submitBatch(send, headers, path, body);
  return { ids, statuses: await waitForBatches(send, headers, ids, options) };
}
