// Idempotency-Key on every POST and PUT (docs/conventions.md). The first answer (status and
// body) under a key is kept for 24 hours per caller; the same key and body gets it
// again without the work being redone, another body gets 409 IDEMPOTENCY_KEY_REUSED,
// and a request still running under the key gets 409 IDEMPOTENCY_KEY_IN_USE.
// A 5xx is not kept: the work may not have happened, so a retry must be allowed to do it.
// Secrets are never kept: a route that issues one names its fields (config.secretFields),
// and the answer kept, and so every replay, has the same status and body without them,
// plus a `note` saying the secret was shown only once; what identifies the result (the
// client id, the webhook) stays, so a caller that lost the first answer knows what to
// revoke or rotate. The first answer itself carries the secret as usual.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isConnectionError } from '../db/errors.ts';
import { AppError, fieldError } from '../lib/errors.ts';
import { sha256 } from '../lib/secrets.ts';
import type { Deps } from '../deps.ts';
import { headerValue } from '../lib/headers.ts';
import { claimKey, completeKey, findKey, releaseKey, retakeKey } from './idempotency.repository.ts';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
/** An in-progress record this old belongs to a request that died with its process. */
const ABANDONED_AFTER_SECONDS = 120;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { owner: string; key: string };
  }
}

function ownerOf(request: FastifyRequest): string | undefined {
  if (request.supplier) return `supplier:${request.supplier.supplierId}`;
  if (request.storeUser !== undefined) return `person:${request.storeUser}`;
  if (request.routeOptions.config?.auth === 'admin') return 'admin';
  return undefined;
}

export const SECRET_WITHHELD_NOTE =
  'idempotent replay: the secret was shown only in the first answer and is not kept; if it was lost, revoke or rotate it and issue a new one';

/** The answer to keep for replays: a success without its secret fields. */
export function withoutSecrets(payload: string, status: number, fields: readonly string[] | undefined): string {
  if (!fields?.length || status >= 300) return payload;
  const body = JSON.parse(payload) as Record<string, unknown>;
  for (const field of fields) delete body[field];
  body.note = SECRET_WITHHELD_NOTE;
  return JSON.stringify(body);
}

export function registerIdempotency(app: FastifyInstance, deps: Deps) {
  const { db } = deps;

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' && request.method !== 'PUT') return;
    const key = headerValue(request.headers['idempotency-key']);
    if (key === undefined) return;
    if (key.length < 1 || key.length > 255) {
      throw fieldError('VALIDATION_FAILED', '/headers/idempotency-key', 'Idempotency-Key must be 1 to 255 characters');
    }
    const owner = ownerOf(request);
    if (!owner) return;
    const hash = sha256(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`);

    if (await claimKey(db, owner, key, hash)) {
      request.idempotency = { owner, key };
      return;
    }
    const existing = await findKey(db, owner, key);
    const expired = existing && existing.age_seconds > IDEMPOTENCY_TTL_SECONDS;
    const abandoned = existing?.state === 'in_progress' && existing.age_seconds > ABANDONED_AFTER_SECONDS;
    if (!existing || expired || abandoned) {
      if (existing && (await retakeKey(db, owner, key, hash, { expiredSeconds: IDEMPOTENCY_TTL_SECONDS, abandonedSeconds: ABANDONED_AFTER_SECONDS }))) {
        request.idempotency = { owner, key };
        return;
      }
      if (!existing && (await claimKey(db, owner, key, hash))) {
        request.idempotency = { owner, key };
        return;
      }
      throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'a request with this Idempotency-Key is in progress');
    }
    if (existing.state === 'in_progress') {
      throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'a request with this Idempotency-Key is in progress');
    }
    if (existing.request_hash !== hash) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used with another request');
    }
    const status = existing.response_status!;
    reply.header('idempotent-replayed', 'true');
    return reply
      .code(status)
      .type(status >= 400 ? 'application/problem+json' : 'application/json; charset=utf-8')
      .send(existing.response_body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const slot = request.idempotency;
    if (!slot) return payload;
    request.idempotency = undefined;
    try {
      if (reply.statusCode >= 500 || typeof payload !== 'string') await releaseKey(db, slot.owner, slot.key);
      else await completeKey(db, slot.owner, slot.key, reply.statusCode, withoutSecrets(payload, reply.statusCode, request.routeOptions.config?.secretFields));
    } catch (error) {
      // The database went away after the work (a restart): the answer is still the truth.
      // Replacing a success with a 503 would invite the retry that does the work twice.
      // The key stays in progress: a retry gets 409 IDEMPOTENCY_KEY_IN_USE until the key
      // counts as abandoned (docs/faults.md).
      (isConnectionError(error) ? request.log.warn : request.log.error).call(request.log, { err: error }, 'the idempotency key could not be recorded');
    }
    return payload;
  });
}
