// A batch's words, shared by the batches list and a batch's page: its states, its endpoint
// in words, an item's state, and a failed item's reason (the problem code in words when
// the catalog has it; the service's own message is shown beside it anyway).
import type { ConsolePathsWith } from 'surtido/console-client';
import { valuesOf, type Batch, type BatchItem } from '../lib/api.ts';
import { CONSOLE_CATALOGS, type ConsoleKey } from '../words.ts';
import { problemMessage, useT, type Translate } from '../i18n.ts';

export type BatchState = Batch['status'];
export const BATCH_STATES = valuesOf<BatchState>({ processing: true, processed: true, failed: true });
export type ItemState = BatchItem['status'];
export const ITEM_STATES = valuesOf<ItemState>({ failed: true, completed: true, processing: true });

/** Every endpoint a batch is sent to: the batch kinds' POST routes (the type check below says none is missing). */
export const BATCH_ENDPOINTS = [
  '/batch/brand',
  '/batch/product',
  '/batch/pricelist',
  '/batch/stock/grouper',
  '/batch/grouper/stock',
  '/batch/grouper/promotion',
  '/batch/store',
  '/batch/promotion',
  '/batch/order',
  '/batch/deliveryzone',
  '/batch/invoice',
  '/batch/payment',
  '/batch/recommendation',
  '/batch/seller',
  '/order/bulk-import',
] as const;
export type BatchEndpoint = (typeof BATCH_ENDPOINTS)[number];
type Missing = Exclude<Extract<ConsolePathsWith<'post'>, `/batch/${string}`>, BatchEndpoint>;
const everyEndpoint: [Missing] extends [never] ? true : Missing = true;
void everyEndpoint;

export const isBatchEndpoint = (v: unknown): v is BatchEndpoint => (BATCH_ENDPOINTS as readonly unknown[]).includes(v);

/** The endpoint in words (the path itself for one the console does not know). */
export const endpointName = (t: Translate, endpoint: string) => (isBatchEndpoint(endpoint) ? t(`batchEndpoint.${endpoint}`) : endpoint);

/** A failed item's problem code in words, when the catalog has them. */
export function reasonWords(t: Translate, code: string | null): string | undefined {
  if (!code) return undefined;
  const key = `batchReason.${code}`;
  return key in CONSOLE_CATALOGS.es ? t(key as ConsoleKey) : problemMessage(t, code);
}

export function BatchBadge({ status }: { status: Batch['status'] }) {
  const t = useT();
  return (
    <span className={`status batch-${status}`} data-testid="batch-status">
      {t(`batch.${status}`)}
    </span>
  );
}

export function ItemBadge({ status }: { status: BatchItem['status'] }) {
  const t = useT();
  return <span className={`status item-${status}`}>{t(`batchItem.${status}`)}</span>;
}
