// Verifying the platform's webhook calls (Standard Webhooks; src/modules/webhooks/README.md). The signature
// covers `{webhook-id}.{webhook-timestamp}.{raw body}`, so verify the body exactly as it
// arrived, before any JSON parsing or re-serialising. The timestamp must be within five
// minutes of now (the standardwebhooks package's tolerance), which stops replays.
//
// `x-event-type` is not signed; it only picks the payload's type. The signed body alone
// tells order events apart too (`status` PENDING or CANCELLED).
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { webhooks } from './openapi.generated.ts';

export { WebhookVerificationError };

export type WebhookEventType = keyof webhooks;
export type WebhookPayload<T extends WebhookEventType> = webhooks[T]['post']['requestBody']['content']['application/json'];

export type WebhookEvent = {
  [T in WebhookEventType]: {
    /** `webhook-id`: the same on every retry and redelivery; deduplicate on it (delivery is at least once). */
    id: string;
    type: T;
    /** When this attempt was signed. */
    timestamp: Date;
    payload: WebhookPayload<T>;
  };
}[WebhookEventType];

/** Fetch's `Headers`, or Node's `IncomingHttpHeaders`. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

const EVENT_TYPES: readonly string[] = ['order.created', 'order.cancelled', 'ticket.created', 'ticket.additional_info_received', 'ping'] satisfies WebhookEventType[];

/**
 * Checks a webhook call and answers its event. `secret` is the `whsec_...` secret of the
 * admin API; during a rotation pass both the new and the old one. Throws
 * WebhookVerificationError for a bad or missing signature, a stale timestamp or an
 * unknown event type: answer such a call with 400 and do nothing.
 */
export function verifyWebhook(secret: string | string[], rawBody: string | Buffer, headers: HeadersLike): WebhookEvent {
  const flat = flatten(headers);
  let payload: unknown;
  let verified = false;
  let lastError: unknown;
  for (const s of [secret].flat()) {
    try {
      payload = new Webhook(s).verify(rawBody, flat);
      verified = true;
      break;
    } catch (error) {
      lastError = error;
    }
  }
  if (!verified) throw lastError instanceof WebhookVerificationError ? lastError : new WebhookVerificationError(String(lastError));
  const type = flat['x-event-type'];
  if (!type || !EVENT_TYPES.includes(type)) throw new WebhookVerificationError(`unknown event type ${JSON.stringify(type ?? null)}`);
  return { id: flat['webhook-id']!, type, timestamp: new Date(Number(flat['webhook-timestamp']) * 1000), payload } as WebhookEvent;
}

function flatten(headers: HeadersLike): Record<string, string> {
  const flat: Record<string, string> = {};
  if (headers instanceof Headers) {
    headers.forEach((value, name) => (flat[name.toLowerCase()] = value));
    return flat;
  }
  for (const [name, value] of Object.entries(headers)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) flat[name.toLowerCase()] = first;
  }
  return flat;
}
