// `surtido/client`: the typed client of the supplier API (README.md beside this file).
export { createSurtidoClient, type PathsWith, type RequestBody, type ResponseData, type SurtidoClient, type SurtidoClientOptions } from './client.ts';
export { SurtidoApiError, SurtidoNetworkError, type FieldProblem, type Problem } from './errors.ts';
export type { BatchDetailItem, BatchOutcome, BatchProgress, BatchStatus, FailedBatchItem, WaitOptions } from './batches.ts';
export { DEFAULT_RETRY, type RetryOptions } from './transport.ts';
export { verifyWebhook, WebhookVerificationError, type HeadersLike, type WebhookEvent, type WebhookEventType, type WebhookPayload } from './webhooks.ts';
export type { components, paths, webhooks } from './openapi.generated.ts';
