// Local development: an empty database gets a demo supplier with credentials, printed
// once at start so `npm start` is enough to make a first call, and a demo catalog, store
// and store user so the shop (/shop/) can be tried at once. Never in production.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.ts';
import { countSuppliers } from '../modules/suppliers/suppliers.repository.ts';
import { createSupplier, issueCredentials } from '../modules/suppliers/suppliers.service.ts';
import { DEMO_USER, seedDemoCatalog, type SupplierCall } from './demo-catalog.ts';
import { inviteMember } from '../modules/members/members.service.ts';
import { inTransaction } from '../db/transaction.ts';
import { AppError } from '../lib/errors.ts';

/** The demo supplier's owner in the console (its code, like every code in development, is printed in the log). */
export const DEMO_OWNER = 'owner@surtido.test';

export async function createDemoSupplierIfEmpty(deps: Deps, app?: FastifyInstance): Promise<string | undefined> {
  if (!deps.config.demoSupplier) return undefined;
  const created = await createDemoSupplier(deps);
  if (!created) return undefined;
  const { supplier, credentials } = created;
  const lines = [
    'Created the demo supplier (the database was empty). Keep these; the secret is not shown again:',
    `  supplier id    ${supplier.id} (${supplier.code})`,
    `  API key        ${credentials.apiKey}`,
    `  client id      ${credentials.clientId}`,
    `  client secret  ${credentials.clientSecret}`,
    `  console        ${deps.config.publicUrl}/console/ as ${DEMO_OWNER} (the owner; the 6-digit code is printed in this log)`,
  ];
  if (app) {
    try {
      await seedThroughApi(app, deps, credentials);
      lines.push(
        'Loaded a demo catalog, store and store user. Try the shop:',
        `  open           ${deps.config.publicUrl}/shop/`,
        `  sign in with   ${DEMO_USER.phone} (or ${DEMO_USER.email}); the 6-digit code is printed in this log`,
      );
    } catch (error) {
      lines.push(`  (the demo catalog could not be loaded: ${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return lines.join('\n');
}

/**
 * The demo supplier, its credentials and its owner in one transaction, or nothing when the
 * database has a supplier. Processes started together on one empty database (an API and a
 * worker, or several of each) all see it empty: the first insert of the code DEMO wins, the
 * others wait on its unique key and then find it taken, roll back, and start without a demo.
 */
async function createDemoSupplier(deps: Deps) {
  try {
    return await inTransaction(deps.db, async (trx) => {
      if ((await countSuppliers(trx)) > 0) return undefined;
      const supplier = await createSupplier(trx, { code: 'DEMO', name: 'Demo Distribuciones' });
      const credentials = await issueCredentials(trx, supplier.id);
      await inviteMember(trx, supplier.id, { email: DEMO_OWNER, role: 'owner' }, `${deps.config.publicUrl}/console/`);
      return { supplier, credentials };
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'ALREADY_EXISTS') return undefined;
    throw error;
  }
}

async function seedThroughApi(app: FastifyInstance, deps: Deps, credentials: { apiKey: string; clientId: string; clientSecret: string }) {
  const login = await app.inject({ method: 'POST', url: '/login', headers: { 'x-api-key': credentials.apiKey }, payload: { clientId: credentials.clientId, clientSecret: credentials.clientSecret } });
  const headers = { 'x-api-key': credentials.apiKey, authorization: `Bearer ${login.json().access_token}` };
  const call: SupplierCall = async (method, url, body) => {
    const res = await app.inject({ method, url, headers, payload: body as never });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const wait = async (ids: string[]) => {
    const deadline = Date.now() + 120_000;
    for (const id of ids) {
      for (;;) {
        const status = await call('GET', `/batch/${id}/status`);
        if (status.status !== 'processing') break;
        if (Date.now() > deadline) throw new Error('the demo batches did not finish in 2 minutes (is the worker running?)');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  await seedDemoCatalog(call, wait, { imageBase: `${deps.config.publicUrl}/dev/demo-images`, today: deps.clock.now() });
}
