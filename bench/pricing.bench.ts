// npm run bench:pricing — the pricing engine in process, no database: a 50-line cart
// priced against 500 active promotions of every kind (simple and multiple discounts with
// quantity and amount tiers, percentages and fixed amounts, individual and crossed bonuses
// by count and by amount, some behind promotion groupers), built from a fixed seed.
//
// It warms up, then prices carts back to back for BENCH_PRICING_SECONDS (default 3),
// cycling through variants of the cart (shuffled lines, other quantities) so no single
// input is all the JIT sees. Before any number is printed the result is checked: totals
// add up, discounts and rewards were given, and shuffling the lines and promotions changes
// nothing. The last line is `carts_per_second=<x> p99_ms=<y>` for scripts.
//
// The table helper is local: bench/lib.ts loads the whole service (about 2 s) for
// benchmarks that need it; this one needs only the engine.
import { priceCart } from '../src/modules/pricing/pricing.engine.ts';
import type { CartLine, PriceEntry, PricingInput, PricingPromotion, PricingResult } from '../src/modules/pricing/pricing.types.ts';

const LINES = 50;
const PROMOTIONS = 500;
const PRODUCTS = 200;
const VARIANTS = 16;
const WARMUP_MS = 1_000;
const RUN_MS = Number(process.env.BENCH_PRICING_SECONDS ?? 3) * 1_000;

/** mulberry32: a small deterministic generator, so every run prices the same carts. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  function shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = int(0, i);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
  return { next, int, pick, shuffle };
}

const code = (p: number) => `P${String(p).padStart(4, '0')}`;

function buildContext(): Omit<PricingInput, 'cart'> & { cart: CartLine[] } {
  const rnd = generator(20260310);
  const products = Array.from({ length: PRODUCTS }, (_, i) => ({ internalCode: code(i + 1), enabled: i % 97 !== 96 }));
  const prices: PriceEntry[] = [];
  for (let i = 1; i <= PRODUCTS; i++) {
    const unit = rnd.int(100, 500_000) / 100;
    prices.push({ productInternalCode: code(i), units: 1, price: unit });
    prices.push({ productInternalCode: code(i), units: 12, price: Math.round(unit * 11 * 100) / 100 });
  }
  // The cart: 40 products, 10 of them in two package sizes; most promotions touch it.
  const cart: CartLine[] = [];
  for (let i = 1; i <= 40; i++) cart.push({ productInternalCode: code(i), units: 1, quantity: rnd.int(1, 30) });
  for (let i = 1; i <= LINES - 40; i++) cart.push({ productInternalCode: code(i * 3), units: 12, quantity: rnd.int(1, 6) });

  const base = { enabled: true, start: '2026-03-01', end: '2026-03-31' };
  const inCart = () => code(rnd.int(1, 60)); // mostly products of the cart, some not
  const someProducts = (min: number, max: number) => {
    const codes = new Set<string>();
    const n = rnd.int(min, max);
    while (codes.size < n) codes.add(inCart());
    return [...codes].map((internalCode) => ({ internalCode, boxRatio: rnd.pick([1, 1, 6, 12, 2.5]) }));
  };
  const quantityTiers = () => {
    const pct = rnd.next() < 0.7;
    const benefit = (k: number) => (pct ? { discountPercentage: rnd.pick([2, 2.5, 5, 7.5]) * k } : { discountAmount: rnd.int(5, 50) * 100 * k });
    return [
      { min: 1, max: 4, ...benefit(1) },
      { min: 6, max: 11, ...benefit(2) },
      { min: 12, ...benefit(3) },
    ];
  };
  const cashTiers = () => [
    { min: 10_000, max: 49_999.99, discountPercentage: 2.5 },
    { min: 50_000, max: 199_999.99, discountAmount: 5_000 },
    { min: 200_000, discountPercentage: 7.5 },
  ];
  const groupers = [
    { internalCode: 'SEG-A', enabled: true },
    { internalCode: 'SEG-B', enabled: false },
  ];
  const promotions: PricingPromotion[] = [];
  for (let i = 0; i < PROMOTIONS; i++) {
    const internalCode = `PR${String(i).padStart(4, '0')}`;
    const promotionGrouperCodes = i % 5 === 0 ? ['SEG-A', 'SEG-B'] : [];
    const kind = i % 10;
    if (kind < 3) {
      promotions.push({ ...base, type: 'DISCOUNT_SIMPLE', internalCode, promotionGrouperCodes, products: someProducts(1, 1)[0]!, discountTiersData: quantityTiers() });
    } else if (kind < 6) {
      const cash = kind === 5;
      promotions.push({
        ...base,
        type: 'DISCOUNT_MULTIPLE',
        internalCode,
        promotionGrouperCodes,
        products: someProducts(2, 8),
        ...(cash ? { discountTiersDataCash: cashTiers() } : { discountTiersData: quantityTiers() }),
      });
    } else if (kind < 8) {
      promotions.push({
        ...base,
        type: 'BONUS_INDIVIDUAL',
        internalCode,
        promotionGrouperCodes,
        products: someProducts(1, 1)[0]!,
        bonusTierData: { quantityRequired: rnd.int(2, 12), quantityGiven: 1, units: 1 },
      });
    } else {
      const gift = code(rnd.int(1, PRODUCTS));
      promotions.push({
        ...base,
        type: 'BONUS_CROSSED',
        internalCode,
        promotionGrouperCodes,
        products: someProducts(2, 5),
        ...(kind === 9
          ? { bonusTierDataCash: { amountRequired: rnd.int(1, 40) * 1_000, quantityGiven: 2, units: 1, productInternalCode: gift } }
          : { bonusTierData: { quantityRequired: rnd.int(3, 20), quantityGiven: 1, units: 1, productInternalCode: gift } }),
      });
    }
  }
  return {
    currencyDecimals: 2,
    today: '2026-03-10',
    products,
    prices,
    unavailable: [{ productInternalCode: code(150) }, { productInternalCode: code(7), units: 12 }],
    groupers,
    store: { promotionGrouperCodes: ['SEG-A'], dropSize: 100_000 },
    supplierMinimumOrder: null,
    promotions,
    cart,
  };
}

/** The result with its lines (and each discount's lines) in a canonical order. */
function canonical(result: PricingResult) {
  const key = (a: { units: number }, b: { units: number }, ca: string, cb: string) => (ca < cb ? -1 : ca > cb ? 1 : a.units - b.units);
  return JSON.stringify({
    ...result,
    lines: [...result.lines].sort((a, b) => key(a, b, a.productInternalCode, b.productInternalCode)),
    discounts: result.discounts.map((d) => ({ ...d, products: [...d.products].sort((a, b) => key(a, b, a.internalCode, b.internalCode)) })),
    hints: {
      ...result.hints,
      lostConflicts: result.hints.lostConflicts.map((h) => ({
        ...h,
        takenBy: h.takenBy.map((t) => ({ ...t, products: [...t.products].sort((a, b) => key(a, b, a.internalCode, b.internalCode)) })),
      })),
    },
  });
}

function check(input: PricingInput, result: PricingResult): void {
  const cents = (n: number) => Math.round(n * 100);
  const failures: string[] = [];
  if (cents(result.subtotal) - cents(result.discountTotal) !== cents(result.total)) failures.push('total ≠ subtotal − discountTotal');
  const lineDiscounts = result.lines.reduce((sum, l) => sum + ('discount' in l ? cents(l.discount) : 0), 0);
  if (lineDiscounts !== cents(result.discountTotal)) failures.push('line discounts do not add up');
  if (result.discounts.length === 0 || result.rewards.length === 0) failures.push('no discount or no reward given');
  const rnd = generator(7);
  const shuffled = priceCart({ ...input, cart: rnd.shuffle(input.cart), promotions: rnd.shuffle(input.promotions) });
  if (canonical(shuffled) !== canonical(result)) failures.push('the order of lines or promotions changed the result');
  if (failures.length > 0) throw new Error(`the engine's result is wrong: ${failures.join('; ')}`);
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function main(): void {
  const context = buildContext();
  const rnd = generator(99);
  const variants: PricingInput[] = Array.from({ length: VARIANTS }, (_, v) => ({
    ...context,
    cart: rnd.shuffle(context.cart).map((line) => (v === 0 ? line : { ...line, quantity: Math.max(1, line.quantity + rnd.int(-2, 2)) })),
  }));
  for (const input of variants) check(input, priceCart(input));
  const sample = priceCart(variants[0]!);

  let i = 0;
  const warmupEnd = performance.now() + WARMUP_MS;
  while (performance.now() < warmupEnd) priceCart(variants[i++ % VARIANTS]!);

  const times: number[] = [];
  const started = performance.now();
  let now = started;
  while (now - started < RUN_MS) {
    const t = performance.now();
    priceCart(variants[i++ % VARIANTS]!);
    now = performance.now();
    times.push(now - t);
  }
  const elapsed = now - started;
  times.sort((a, b) => a - b);
  const cartsPerSecond = (times.length / elapsed) * 1_000;
  const p99 = percentile(times, 99);
  const ms = (x: number) => `${x.toFixed(3)} ms`;

  console.log(
    `[bench] ${LINES} lines, ${PROMOTIONS} promotions; ${sample.discounts.length} discounts and ${sample.rewards.length} rewards applied, ` +
      `${sample.hints.lostConflicts.length} conflicts lost, ${sample.hints.nextTiers.length} next-tier hints`,
  );
  console.log(
    table(
      ['measure', 'value'],
      [
        ['carts priced', times.length.toLocaleString('en-US')],
        ['carts/s', Math.round(cartsPerSecond).toLocaleString('en-US')],
        ['p50 per cart', ms(percentile(times, 50))],
        ['p99 per cart', ms(p99)],
        ['max per cart', ms(times[times.length - 1]!)],
      ],
    ),
  );
  console.log(`carts_per_second=${Math.round(cartsPerSecond)} p99_ms=${p99.toFixed(3)}`);
}

main();
