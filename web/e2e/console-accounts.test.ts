// Receivables in the console (issue #31) in a real browser (Debian's Chromium) against the
// real service on embedded PGlite; axe on every page visited. The ERP (the test, through the
// project's client with a credential) loads the demo catalog, gives the demo store credit
// terms and sends four invoices, one in each age bucket, and a partial payment of the
// oldest. The owner opens "Cartera": the totals and the store's row by bucket (current,
// 1–30, 31–60, over 60 days), then the store's account: its figures, terms, invoices with
// their days past due and PDFs, and the payment with what it was applied to. Runs in the
// PGlite pass only (skipped when DATABASE_URL is set); fails when Chromium is missing.
import { expect, it } from 'vitest';
import { accessible, consoleSignIn, consoleWorld, inBrowser, ownerWithDemoCatalog, POLL } from './console-harness.ts';

const world = consoleWorld();
const OWNER = 'cartera@norte.test';
const SHOTS = process.env.E2E_SHOTS;

/** A calendar day `offset` days from today (UTC, the tests' platform timezone). */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
// Amounts as the console writes them (issue 34): the platform's currency (COP) in its locale (es-CO).
const n = (value: number) => new Intl.NumberFormat('es-CO', { style: 'currency', currency: 'COP', minimumFractionDigits: Number.isInteger(value) ? 0 : 2, maximumFractionDigits: 2 }).format(value);

inBrowser('the console: receivables by age and a store’s account', () => {
  it('the owner reads the aging of the ERP’s invoices, then the store’s account, its invoices, PDFs and payment', async () => {
    const { t } = world;
    expect(t.deps.config.timezone).toBe('UTC');
    const { supplier, surtido } = await ownerWithDemoCatalog(world, OWNER);
    await surtido.put('/store/{code}/credit', {
      params: { path: { code: 'TIENDA-DEMO' } },
      body: { paymentMethods: ['CREDIT', 'CASH_ON_DELIVERY'], limit: 500_000, termDays: 15, allowOverLimitWithApproval: true },
    });
    const invoice = (code: string, amount: number, due: number) => ({
      internalCode: code,
      storeInternalCode: 'TIENDA-DEMO',
      amount,
      issuedAt: new Date(Date.now() + (due - 15) * 86_400_000).toISOString(),
      dueDate: day(due),
      pdfUrl: `https://erp.example.com/facturas/${code}.pdf`,
    });
    const sent = await surtido.post('/batch/invoice', {
      body: { upsert: [invoice('FAC-1', 50_000, 10), invoice('FAC-2', 30_000, -15), invoice('FAC-3', 20_000, -45), invoice('FAC-4', 10_000, -90)] },
    });
    expect((await surtido.waitForBatch(sent.batchId, undefined, POLL)).failed).toEqual([]);
    const paid = await surtido.post('/batch/payment', {
      body: {
        upsert: [
          {
            internalCode: 'REC-9',
            storeInternalCode: 'TIENDA-DEMO',
            amount: 4000,
            method: 'TRANSFER',
            paidAt: new Date().toISOString(),
            allocations: [{ invoiceInternalCode: 'FAC-4', amount: 4000 }],
          },
        ],
      },
    });
    expect((await surtido.waitForBatch(paid.batchId, undefined, POLL)).failed).toEqual([]);

    const page = await (await world.desktop()).newPage();
    await consoleSignIn(world, page, OWNER);
    await page.getByRole('navigation').getByRole('link', { name: 'Cartera', exact: true }).click();
    await page.waitForURL('**/console/accounts');
    await page.getByRole('heading', { name: 'Cartera por antigüedad', level: 1 }).waitFor();
    const totals = page.getByTestId('aging-totals');
    await totals.waitFor();
    const expected = { current: 50_000, days1to30: 30_000, days31to60: 20_000, over60: 6000, total: 106_000 };
    for (const [bucket, amount] of Object.entries(expected)) {
      expect(await totals.locator(`[data-bucket="${bucket}"] .figure`).textContent(), bucket).toBe(n(amount));
      expect(await page.locator(`tr[data-store="TIENDA-DEMO"] td[data-bucket="${bucket}"]`).textContent(), bucket).toBe(n(amount));
    }
    expect(await page.getByRole('columnheader').allTextContents()).toEqual(['Tienda', 'Al día', '1–30 días', '31–60 días', 'Más de 60 días', 'Total']);
    await accessible(page, 'aging');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/console-aging.png`, fullPage: true });

    // The store's account.
    await page.getByRole('link', { name: 'Ver la cuenta de Tienda Doña Rosa (demo)' }).click();
    await page.waitForURL('**/console/accounts/TIENDA-DEMO');
    await page.getByRole('heading', { name: 'Cuenta de Tienda Doña Rosa (demo)', level: 1 }).waitFor();
    const figures = page.getByTestId('account-figures');
    await figures.waitFor();
    for (const [figure, amount] of Object.entries({ limit: 500_000, used: 106_000, pending: 0, available: 394_000, overdue: 56_000 })) {
      expect(await figures.locator(`[data-figure="${figure}"] .figure`).textContent(), figure).toBe(n(amount));
    }
    expect(await page.locator('dl.facts').textContent()).toContain('Crédito, Contra entrega');
    expect(await page.locator('dl.facts').textContent()).toContain('se envían para aprobación');
    // Oldest due first, each with its days past due and its PDF.
    expect(await page.locator('tr[data-invoice]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-invoice')))).toEqual(['FAC-4', 'FAC-3', 'FAC-2', 'FAC-1']);
    const oldest = page.locator('tr[data-invoice="FAC-4"]');
    expect(await oldest.locator('td').allTextContents()).toEqual(expect.arrayContaining(['90', n(10_000), n(4000), n(6000)]));
    expect(await oldest.getByRole('link', { name: 'PDF de la factura FAC-4' }).getAttribute('href')).toBe('https://erp.example.com/facturas/FAC-4.pdf');
    expect(await page.locator('tr[data-payment="REC-9"]').textContent()).toContain(`FAC-4: ${n(4000)}`);
    await accessible(page, 'store account');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/console-store-account.png`, fullPage: true });
  });
});
