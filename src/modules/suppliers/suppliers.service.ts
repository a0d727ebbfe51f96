// Suppliers and their credentials: the same operations for the admin API, the
// operators' CLI and the demo supplier created on an empty development database.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors.ts';
import type { DB } from '../../db/types.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { page } from '../../lib/pagination.ts';
import { randomToken, sha256 } from '../../lib/secrets.ts';
import { clientExists, insertClient, listClients, revokeClient, setSupplierEnabled, supplierOfClient } from '../auth/credentials.repository.ts';
import type { LiveCredentials } from '../auth/live-credentials.ts';
import { DEFAULT_SCOPES, OWNER_ONLY_SCOPES, isSupplierScope } from '../auth/scopes.ts';
import type { OptInEventType } from '../webhooks/webhooks.events.ts';
import { holdsMask, MASK, maskedUrl } from '../webhooks/webhooks.url.ts';
import { ensureTwin, type SupplierMode } from '../sandbox/sandbox.twins.ts';
import { guideDays, setGuideDays } from '../order-guide/order-guide.repository.ts';
import * as repo from './suppliers.repository.ts';

export const WEBHOOK_SECRET_GRACE_SECONDS = 24 * 3600;

export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export async function createSupplier(db: Kysely<DB>, input: { code: string; name: string }) {
  try {
    return await repo.insertSupplier(db, input.code, input.name);
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('ALREADY_EXISTS', '/code', `a supplier with code ${input.code} exists`);
    throw error;
  }
}

export const listSuppliers = (db: Kysely<DB>) => repo.listSuppliers(db);

export async function requireSupplier(db: Kysely<DB>, supplierId: number) {
  const supplier = await repo.findSupplier(db, supplierId);
  if (!supplier) throw fieldError('NOT_FOUND', '/params/supplierId', `supplier ${supplierId} does not exist`);
  return supplier;
}

export interface IssuedCredentials {
  apiKey: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

/**
 * The secret and the API key are shown here once; only their hashes are stored. `mode`
 * `test` issues a credential of the supplier's test twin (made now if it has none;
 * src/modules/sandbox): its API key, client id and secret say so (`key_test_`, `cli_test_`,
 * `sec_test_`).
 */
export async function issueCredentials(db: Kysely<DB>, liveOrTwinId: number, scopes?: string[], mode: SupplierMode = 'live'): Promise<IssuedCredentials> {
  const found = await requireSupplier(db, liveOrTwinId);
  const supplierId = mode === 'test' ? await ensureTwin(db, liveOrTwinId) : liveOrTwinId;
  const prefix = mode === 'test' || found.live_supplier_id !== null ? '_test' : '';
  const granted = scopes ?? [...DEFAULT_SCOPES];
  const unknown = granted.map((scope, i) => ({ scope, i })).filter(({ scope }) => !isSupplierScope(scope));
  if (unknown.length > 0) {
    throw new AppError('VALIDATION_FAILED', `unknown scopes: ${unknown.map((u) => u.scope).join(', ')}`, {
      errors: unknown.map(({ scope, i }) => ({ pointer: `/scopes/${i}`, code: 'INVALID_VALUE', message: `unknown scope ${scope}` })),
    });
  }
  const issued: IssuedCredentials = {
    apiKey: randomToken(`key${prefix}`),
    clientId: randomToken(`cli${prefix}`, 12),
    clientSecret: randomToken(`sec${prefix}`, 32),
    scopes: [...new Set(granted)],
  };
  await insertClient(db, {
    client_id: issued.clientId,
    supplier_id: supplierId,
    api_key_hash: sha256(issued.apiKey),
    secret_hash: sha256(issued.clientSecret),
    scopes: issued.scopes,
  });
  return issued;
}

/** Enables or disables a supplier; disabling stops its credentials and console sessions at once (credentials.repository.ts). */
export async function setSupplierStatus(db: Kysely<DB>, supplierId: number, enabled: boolean, live?: LiveCredentials) {
  const row = await setSupplierEnabled(db, supplierId, enabled);
  live?.forget();
  if (!row) throw fieldError('NOT_FOUND', '/params/supplierId', `supplier ${supplierId} does not exist`);
  return row;
}

/**
 * A credential issued by the supplier itself (an owner in the console, or a script holding
 * supplier/credential.write): any scope but the owner-only ones, which only an operator grants.
 * Without `mode` it has the caller's mode: live for a live caller, test in test mode.
 */
export async function issueOwnCredentials(db: Kysely<DB>, caller: { supplierId: number; mode: SupplierMode }, scopes?: string[], mode?: SupplierMode) {
  // Test mode never reaches live data, a credential it issues included.
  if (caller.mode === 'test' && mode === 'live') throw fieldError('INVALID_VALUE', '/mode', 'a test credential or a console session in test mode issues test credentials only');
  const refused = (scopes ?? []).map((scope, i) => ({ scope, i })).filter(({ scope }) => (OWNER_ONLY_SCOPES as readonly string[]).includes(scope));
  if (refused.length > 0) {
    throw new AppError('VALIDATION_FAILED', `only an operator grants ${refused.map((r) => r.scope).join(', ')}`, {
      errors: refused.map(({ scope, i }) => ({ pointer: `/scopes/${i}`, code: 'INVALID_VALUE', message: `${scope} is granted by an operator only` })),
    });
  }
  return issueCredentials(db, caller.supplierId, scopes, mode ?? caller.mode);
}

/** Revokes one of the supplier's own clients; another supplier's answers 404 like a missing one. */
export async function revokeOwnCredentials(db: Kysely<DB>, supplierId: number, clientId: string, live?: LiveCredentials) {
  if ((await supplierOfClient(db, clientId)) !== supplierId) throw fieldError('NOT_FOUND', '/params/clientId', `client ${clientId} does not exist`);
  return revokeCredentials(db, clientId, live);
}

/** `live`: this process's trusted pairs, forgotten at once (other processes hear the revocation's NOTIFY). */
export async function revokeCredentials(db: Kysely<DB>, clientId: string, live?: LiveCredentials) {
  const revoked = await revokeClient(db, clientId);
  live?.forget();
  if (!revoked && !(await clientExists(db, clientId))) {
    throw fieldError('NOT_FOUND', '/params/clientId', `client ${clientId} does not exist`);
  }
  return { clientId, revoked: true };
}

/**
 * Sets the webhook's URL and state; `baseUrl` left out keeps the URL as it is (how a
 * console changes only the state of a URL it is shown masked). The answer shows the URL
 * masked like every read (../webhooks/webhooks.url.ts), and a URL still holding the mask
 * is refused: saving it would replace the real password or token with `***`.
 */
export async function configureWebhook(db: Kysely<DB>, supplierId: number, input: { baseUrl?: string | null; enabled: boolean; events?: string[] }) {
  if (input.baseUrl && holdsMask(input.baseUrl)) {
    throw fieldError('VALIDATION_FAILED', '/baseUrl', `the URL holds masked parts (${MASK}) as the settings show them: send the whole URL with its password and query values, or leave baseUrl out to keep the URL as it is`);
  }
  await requireSupplier(db, supplierId);
  // `events` left out keeps the subscriptions (a client that predates them cannot drop them by accident).
  const events = input.events === undefined ? undefined : [...new Set(input.events)];
  const row = await repo.upsertWebhook(db, supplierId, input.baseUrl, input.enabled, newWebhookSecret(), events);
  // Opt-in events are answered only when subscribed to: a supplier that never did sees the answer it always had.
  return { baseUrl: maskedUrl(row.base_url), enabled: row.enabled, ...(row.events.length > 0 ? { events: row.events as OptInEventType[] } : {}), secret: row.secret };
}

/**
 * A new signing secret, answered once; the current one moves to previous_secret and signs
 * beside it for WEBHOOK_SECRET_GRACE_SECONDS. A webhook never set has no secret to rotate:
 * 409 WEBHOOK_NOT_CONFIGURED (the supplier exists; its webhook does not yet).
 */
export async function rotateWebhookSecret(db: Kysely<DB>, supplierId: number) {
  await requireSupplier(db, supplierId);
  const row = await repo.rotateWebhookSecret(db, supplierId, newWebhookSecret(), WEBHOOK_SECRET_GRACE_SECONDS);
  if (!row) throw new AppError('WEBHOOK_NOT_CONFIGURED', 'the supplier has no webhook yet: set its URL first (PUT /webhook, or PUT /admin/suppliers/{supplierId}/webhook)');
  return { secret: row.secret };
}

/** An operator's read of a supplier's credentials names its supplier, which must exist. */
export async function listSupplierCredentials(db: Kysely<DB>, supplierId: number, query: { revoked?: boolean; take: number; page: number }) {
  await requireSupplier(db, supplierId);
  return listCredentials(db, supplierId, query);
}

export async function updateSettings(db: Kysely<DB>, supplierId: number, input: { minimumOrder: number | null; orderGuideDays?: number }) {
  await requireSupplier(db, supplierId);
  await repo.setMinimumOrder(db, supplierId, input.minimumOrder);
  if (input.orderGuideDays !== undefined) await setGuideDays(db, supplierId, input.orderGuideDays);
  return getSettings(db, supplierId);
}

export async function getSettings(db: Kysely<DB>, supplierId: number) {
  const supplier = await requireSupplier(db, supplierId);
  return { minimumOrder: supplier.minimum_order === null ? null : Number(supplier.minimum_order), orderGuideDays: await guideDays(db, supplierId) };
}

/**
 * The supplier's own API credentials, newest first: client id, scopes, when issued and
 * revoked. Never a secret or an API key (only their hashes are stored anyway). When a
 * credential was last used is not recorded, so it is not answered.
 */
export async function listCredentials(db: Kysely<DB>, supplierId: number, query: { revoked?: boolean; take: number; page: number }) {
  const { rows, total } = await listClients(db, supplierId, query);
  const data = rows.map((c) => ({
    clientId: c.client_id,
    scopes: c.scopes,
    createdAt: c.created_at.toISOString(),
    revokedAt: c.revoked_at === null ? null : c.revoked_at.toISOString(),
  }));
  return page(data, total, query.page, query.take);
}
