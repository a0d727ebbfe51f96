// npm run demo: the whole supplier integration flow against a live service,
// step by step, with the SDK (src/client) and a webhook receiver of its own.
//
//   npm run demo                                      its own service on a temporary PGlite folder
//   DATABASE_URL=postgres://... npm run demo          its own service on PostgreSQL
//   SURTIDO_URL=http://127.0.0.1:3000 ADMIN_TOKEN=... npm run demo
//                                                     a service already running (npm start prints its admin token)
//
// It exits 0 when every step passed, 1 at the first one that failed.
import { SurtidoApiError, SurtidoNetworkError } from 'surtido/client';
import { runFlow } from './demo/flow.ts';
import { CallFailed } from './demo/http.ts';
import { currentStep } from './demo/print.ts';
import { WebhookReceiver } from './demo/receiver.ts';
import { connectToService, startOwnService, type Target } from './demo/service.ts';

const started = performance.now();
const receiver = new WebhookReceiver();
let target: Target | undefined;
let exitCode = 0;
// Ctrl-C stops what the demo started (and removes its temporary folder) before exiting.
process.once('SIGINT', () => {
  console.error('\ninterrupted: stopping');
  void Promise.allSettled([receiver.stop(), target?.stop()]).then(() => process.exit(130));
});
try {
  console.log("Surtido demo: the supplier integration flow, from the first token to a closed ticket.");
  target = process.env.SURTIDO_URL ? await connectToService(process.env.SURTIDO_URL, process.env.ADMIN_TOKEN) : await startOwnService(process.env.DATABASE_URL || undefined);
  await receiver.start();
  console.log(`  service           ${target.description}`);
  console.log(`                    ${target.baseUrl}`);
  console.log(`  webhook receiver  ${receiver.baseUrl} (this demo's, verifying every signature)`);

  await runFlow(target, receiver);

  console.log(`\nDone: every step passed in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  console.log('\nWhere next');
  if (target.own) {
    console.log('  This service stops with the demo. `npm start` runs one that stays (API and worker on PGlite in ./data)');
    console.log('  and prints a demo supplier\'s API key, client id and secret; then, at http://127.0.0.1:3000:');
  } else {
    console.log(`  At ${target.baseUrl}:`);
  }
  console.log('    /docs           interactive documentation of every endpoint (try it with those credentials)');
  console.log('    /openapi.json   the OpenAPI 3.1 document, webhooks included (also committed as openapi.json)');
  console.log('  The SDK used here: src/client/README.md. Loading CSV files: npm run surtido -- import ... (src/integrator/README.md).');
  console.log('  The walk-through itself: scripts/demo/ (supplier-setup.ts, store-side.ts).');
} catch (error) {
  exitCode = 1;
  // An answer of the service or a failed check says enough; anything else is a bug of the demo: its stack too.
  const expected = error instanceof SurtidoApiError || error instanceof SurtidoNetworkError || error instanceof CallFailed || (error instanceof Error && error.constructor === Error);
  console.error(`\nThe demo stopped at ${currentStep()}: ${expected ? (error as Error).message : error instanceof Error ? error.stack : String(error)}`);
} finally {
  await receiver.stop();
  await target?.stop().catch((error: Error) => console.error(`stopping the service failed: ${error.message}`));
}
process.exit(exitCode);
