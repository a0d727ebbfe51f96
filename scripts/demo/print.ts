// How the demo talks: numbered steps with a one-line explanation, then what each call
// sent and got. Plain text (no colours), so the output reads the same in a terminal, a
// CI log and the test that checks it.

let stepNumber = 0;
let stepCount = 0;
let stepTitle = '';

/** How many steps the walk-through has, for the "Step n/N" headers. */
export function planSteps(count: number) {
  stepCount = count;
  stepNumber = 0;
}

export function step(title: string, why: string) {
  stepNumber++;
  stepTitle = title;
  console.log(`\nStep ${stepNumber}/${stepCount}  ${title}`);
  console.log(`  ${why}`);
}

/** The step running now, for a failure's message: `step 4/17 (Catalog)`. */
export const currentStep = () => (stepNumber === 0 ? 'the start' : `step ${stepNumber}/${stepCount} (${stepTitle})`);

/** One request and what it answered, e.g. `POST /batch/brand  ->  202 batch 1f3c...`. */
export function sent(request: string, answer: string) {
  console.log(`  ${request.padEnd(44)} -> ${answer}`);
}

/** A detail under a step. */
export function note(text: string) {
  console.log(`     ${text}`);
}

/** A small aligned table, indented under a step. */
export function table(header: string[], rows: (string | number)[][]) {
  const body = rows.map((r) => r.map(String));
  const cells = [header, ...body];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  // Columns of numbers (amounts, counts) align right; text aligns left.
  const numeric = header.map((_, i) => body.length > 0 && body.every((r) => /^-?[\d,.]+$|^-$/.test(r[i] ?? '')));
  const line = (r: string[]) => `     ${r.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ')}`.trimEnd();
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of cells.slice(1)) console.log(line(r));
}

const moneyFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** Amounts in the currency's units (pesos here): 54,705.5 */
export const money = (amount: number) => moneyFormat.format(amount);

/** A batch id shortened for reading: 1f3c9a2e... */
export const shortId = (id: string) => `${id.slice(0, 8)}...`;
