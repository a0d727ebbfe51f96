// One attempt of a claimed delivery, from signing to recording: shared by the dispatcher
// and by the test ping, which is sent at once from the API process.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import type { WorkMetrics } from '../../observability/metrics.ts';
import * as repo from './webhooks.repository.ts';
import { afterAttempt, type NextState } from './webhooks.schedule.ts';
import type { AttemptOutcome, WebhookSender } from './webhooks.sender.ts';
import { activeSecrets, webhookHeaders } from './webhooks.signing.ts';
import { webhookUrl } from './webhooks.url.ts';

export interface AttemptContext {
  db: Kysely<DB>;
  sender: WebhookSender;
  clock: Clock;
  /** Who holds the delivery's lease. */
  owner: string;
  random?: () => number;
  metrics?: Pick<WorkMetrics, 'webhookAttempt'>;
}

export interface AttemptReport {
  outcome: AttemptOutcome;
  next: NextState;
  at: Date;
}

/** Sends a delivery this owner holds, once, and records the attempt and the delivery's new state. */
export async function attemptDelivery(ctx: AttemptContext, d: repo.ClaimedDelivery): Promise<AttemptReport> {
  const at = ctx.clock.now();
  let outcome: AttemptOutcome;
  if (!d.base_url || !d.secret) {
    // Claims require a base URL; this is a webhook removed between the claim and now.
    outcome = { ok: false, statusCode: null, latencyMs: 0, responseBody: null, error: 'the supplier has no webhook base URL', retryAfter: undefined };
  } else {
    const secrets = activeSecrets({ secret: d.secret, previousSecret: d.previous_secret, previousSecretExpiresAt: d.previous_secret_expires_at }, at);
    const headers = webhookHeaders({ webhookId: d.message_id, eventType: d.type, body: d.body, secrets, timestamp: at });
    outcome = await ctx.sender.send(webhookUrl(d.base_url, d.path), headers, d.body);
  }
  ctx.metrics?.webhookAttempt(outcome.ok ? 'delivered' : outcome.statusCode !== null ? 'rejected' : 'unanswered', outcome.latencyMs / 1000);
  const next = afterAttempt({ attempts: d.attempts, maxAttempts: d.max_attempts, result: outcome, finishedAt: ctx.clock.now() }, ctx.random);
  await repo.recordAttempt(ctx.db, {
    supplierId: d.supplier_id,
    deliveryId: d.id,
    owner: ctx.owner,
    at,
    statusCode: outcome.statusCode,
    latencyMs: outcome.latencyMs,
    responseBody: outcome.responseBody,
    error: outcome.error,
    status: next.status,
    nextAttemptAt: next.nextAttemptAt,
    lastError: next.lastError,
    disableWebhook: next.disableWebhook,
  });
  return { outcome, next, at };
}
