// `npm run demo` is documentation that must stay true: it runs here as a child process,
// exactly as a newcomer runs it, to completion, and prints every part it promises.
// Its environment is explicit and has no DATABASE_URL, so it always starts its own
// service on a fresh temporary PGlite folder, also when the suite runs on PostgreSQL.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

function runDemo(env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout.on('data', (d) => (output += d));
  proc.stderr.on('data', (d) => (output += d));
  return new Promise((resolve) => proc.on('exit', (code) => resolve({ code, output })));
}

const STEPS = [
  'Supplier and credentials',
  'Token',
  'Groupers',
  'Catalog',
  'Stock',
  'Price lists',
  'Stores',
  'Users',
  'Prices',
  'Promotions',
  'Webhooks',
  'A store user signs in',
  'Cart preview',
  'Order placed',
  'Confirm and deliver',
  'Support ticket',
  'Delivery log',
];

describe('npm run demo', () => {
  it('walks the whole integration flow and prints what it promises', { timeout: 120_000 }, async () => {
    const { code, output } = await runDemo();
    expect(output).not.toContain('The demo stopped');
    expect(code, output).toBe(0);

    // Every step, numbered, in order.
    let from = 0;
    STEPS.forEach((title, i) => {
      const at = output.indexOf(`Step ${i + 1}/${STEPS.length}  ${title}\n`, from);
      expect(at, `step ${i + 1} "${title}"`).toBeGreaterThanOrEqual(from);
      from = at;
    });

    // The batches applied without failures, through the SDK's waitForBatch.
    expect(output).toMatch(/POST \/batch\/product +-> 202 batch .* processed, 5\/5 completed, 0 failed/);
    expect(output).toContain('GET /app/stores/1/catalog');
    expect(output).toContain('4 products (JUGO-NAR-1L is unavailable');

    // The priced cart: the 5 % tier and its hint, then the 10 % tier and the free units.
    expect(output).toContain('discount: DESC-GASEOSAS 5 % -7,680');
    expect(output).toContain('hint: DESC-GASEOSAS needs 1 more box(es) for 10 %');
    expect(output).toContain('discount: DESC-GASEOSAS 10 % -19,320');
    expect(output).toContain('bonus: BONO-PAPAS-AGUA gives 3 free AGUA-600 x1');
    expect(output).toContain('subtotal 263,400, discounts -19,320, total 244,080');

    // The order and the signed order.created webhook the demo's receiver verified.
    expect(output).toMatch(/order \d+ PENDING, total 244,080 \(as previewed: true\)/);
    expect(output).toContain('the receiver got POST /erp/webhooks/order');
    expect(output).toMatch(/webhook-id +msg_\w+/);
    expect(output).toMatch(/webhook-signature +v1,/);
    expect(output).toMatch(/x-event-type +order\.created/);
    expect(output).toContain('signature verified with standardwebhooks');
    expect(output).toContain('discount DESC-GASEOSAS: 10 % = -19,320');
    expect(output).toContain('bonus BONO-PAPAS-AGUA: 3 free AGUA-600 x1');
    expect(output).toContain('order totals: subtotal 263,400, discounts -19,320, total 244,080');

    // The supplier confirms and delivers.
    expect(output).toMatch(/PUT \/order\/\d+\/confirm +-> 200 CONFIRMED, delivery \d{4}-\d\d-\d\d/);
    expect(output).toMatch(/PUT \/order\/\d+\/deliver +-> 200 DELIVERED/);
    expect(output).toContain('history: PENDING (STORE) -> CONFIRMED (SUPPLIER) -> DELIVERED (SUPPLIER)');

    // The ticket: opened (webhook), additional information asked and answered (webhook), closed.
    expect(output).toMatch(/webhook ticket\.created +-> POST \/erp\/webhooks\/support\/create-ticket, signature verified/);
    expect(output).toMatch(/POST \/support\/ticket\/additional-info +-> 200 ADDITIONAL_INFO_REQUESTED/);
    expect(output).toMatch(/webhook ticket\.additional_info_received +-> POST \/erp\/webhooks\/support\/ticket-additional-info-received, signature verified/);
    expect(output).toMatch(/PUT \/support\/ticket\/close +-> 200 CLOSED, resolvedAt \d{4}-/);

    // Every delivery reached the receiver at the first attempt.
    expect(output).toMatch(/GET \/webhook\/deliveries +-> 200 4 deliveries/);
    expect(output.match(/ delivered +1 +200\n/g)).toHaveLength(4);

    // Where to go next.
    expect(output).toMatch(/Done: every step passed in [\d.]+ s\./);
    expect(output).toContain('/docs ');
    expect(output).toContain('/openapi.json');
    expect(output).toContain('npm start');
  });

  it('exits 1 and says which step failed', { timeout: 60_000 }, async () => {
    // A "service" that is ready but refuses the admin token: the first step fails.
    const refusing = http.createServer((req, res) => {
      if (req.url === '/readyz') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ready"}');
      res.writeHead(401, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ status: 401, code: 'UNAUTHENTICATED', detail: 'bad admin token' }));
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = refusing.address() as AddressInfo;
      const { code, output } = await runDemo({ SURTIDO_URL: `http://127.0.0.1:${port}`, ADMIN_TOKEN: 'wrong-admin-token-0123' });
      expect(code, output).toBe(1);
      expect(output).toContain('The demo stopped at step 1/17 (Supplier and credentials): POST /admin/suppliers answered 401 UNAUTHENTICATED: bad admin token');
      expect(output).not.toContain('Done:');
    } finally {
      refusing.close();
    }
  });
});
