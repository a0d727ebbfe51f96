// Local development: an empty database gets a demo supplier with credentials, printed
// once at start so `npm start` is enough to make a first call. Never in production.
import type { Deps } from '../deps.ts';
import { countSuppliers } from '../modules/suppliers/suppliers.repository.ts';
import { createSupplier, issueCredentials } from '../modules/suppliers/suppliers.service.ts';

export async function createDemoSupplierIfEmpty(deps: Deps): Promise<string | undefined> {
  if (!deps.config.demoSupplier || (await countSuppliers(deps.db)) > 0) return undefined;
  const supplier = await createSupplier(deps.db, { code: 'DEMO', name: 'Demo Distribuciones' });
  const credentials = await issueCredentials(deps.db, supplier.id);
  return [
    'Created the demo supplier (the database was empty). Keep these; the secret is not shown again:',
    `  supplier id    ${supplier.id} (${supplier.code})`,
    `  API key        ${credentials.apiKey}`,
    `  client id      ${credentials.clientId}`,
    `  client secret  ${credentials.clientSecret}`,
  ].join('\n');
}
