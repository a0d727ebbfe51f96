// Standard Webhooks signing, with the maintained `standardwebhooks` package, so what we
// send verifies with any Standard Webhooks library on the supplier's side.
import { Webhook } from 'standardwebhooks';

export const USER_AGENT = 'Surtido-Webhooks/1.0 (Surtido B2B wholesale marketplace)';

export interface SigningSecrets {
  secret: string;
  /** The secret before a rotation, still signing until it expires (24 h). */
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** The secrets that sign at `now`: the current one, and during a rotation the previous one. */
export function activeSecrets(s: SigningSecrets, now: Date): string[] {
  const secrets = [s.secret];
  if (s.previousSecret && s.previousSecretExpiresAt && s.previousSecretExpiresAt.getTime() > now.getTime()) secrets.push(s.previousSecret);
  return secrets;
}

/** `v1,<sig>` per secret, space-separated (src/modules/webhooks/README.md). */
export function signatureHeader(secrets: string[], webhookId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(webhookId, timestamp, body)).join(' ');
}

/** Every header of one attempt. `timestamp` is the attempt's time (whole seconds are signed). */
export function webhookHeaders(input: { webhookId: string; eventType: string; body: string; secrets: string[]; timestamp: Date }): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-event-type': input.eventType,
    'webhook-id': input.webhookId,
    'webhook-timestamp': String(Math.floor(input.timestamp.getTime() / 1000)),
    'webhook-signature': signatureHeader(input.secrets, input.webhookId, input.timestamp, input.body),
  };
}
