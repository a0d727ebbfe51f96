// The cart kept on the phone: the lines only (product, package size, quantity, and the
// name to show while offline). Prices are never computed here: the cart page asks
// POST /app/stores/{storeId}/cart for them every time the lines change, and keeps the last
// answer only to show it, as it was, while offline (keepPriced, below).
export interface CartItem {
  productInternalCode: string;
  units: number;
  quantity: number;
  name?: string;
}

export const MAX_QUANTITY = 9999;

const same = (a: Pick<CartItem, 'productInternalCode' | 'units'>, b: Pick<CartItem, 'productInternalCode' | 'units'>) =>
  a.productInternalCode === b.productInternalCode && a.units === b.units;

const clamp = (n: number) => Math.max(0, Math.min(MAX_QUANTITY, Math.trunc(n)));

/** Adds packages of one size; a size already in the cart grows. */
export function addItem(items: readonly CartItem[], item: CartItem): CartItem[] {
  const found = items.find((i) => same(i, item));
  if (!found) return item.quantity > 0 ? [...items, { ...item, quantity: clamp(item.quantity) }] : [...items];
  return setQuantity(items, item, found.quantity + item.quantity);
}

/** Sets a line's quantity; zero (or less) removes it. */
export function setQuantity(items: readonly CartItem[], key: Pick<CartItem, 'productInternalCode' | 'units'>, quantity: number): CartItem[] {
  const q = clamp(quantity);
  return q === 0 ? items.filter((i) => !same(i, key)) : items.map((i) => (same(i, key) ? { ...i, quantity: q } : i));
}

/** Sets the packages of one size, adding the line when the cart has none of it; zero removes it. */
export function putQuantity(items: readonly CartItem[], item: CartItem): CartItem[] {
  return items.some((i) => same(i, item)) ? setQuantity(items, item, item.quantity) : addItem(items, item);
}

export function removeItem(items: readonly CartItem[], key: Pick<CartItem, 'productInternalCode' | 'units'>): CartItem[] {
  return items.filter((i) => !same(i, key));
}

export function countPackages(items: readonly CartItem[]): number {
  return items.reduce((sum, i) => sum + i.quantity, 0);
}

/** A product's packages in the cart by size, as a string ("1:3,24:2"; "" when none): equal strings, equal lines. */
export function cartPackages(items: readonly CartItem[], productInternalCode: string): string {
  return items
    .filter((i) => i.productInternalCode === productInternalCode)
    .map((i) => `${i.units}:${i.quantity}`)
    .join(',');
}

/** The packages of a size in `cartPackages`' string (0 when none). */
export function packagesOf(packages: string, units: number): number {
  const found = packages.split(',').find((p) => p.startsWith(`${units}:`));
  return found ? Number(found.slice(found.indexOf(':') + 1)) : 0;
}

/** What the cart endpoint takes. */
export function cartLines(items: readonly CartItem[]) {
  return items.map(({ productInternalCode, units, quantity }) => ({ productInternalCode, units, quantity }));
}

/** Reads a kept cart, dropping anything malformed (an older app's data, a hand edit). */
export function parseCart(raw: string | null): CartItem[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (i): i is CartItem =>
        typeof i === 'object' && i !== null && typeof i.productInternalCode === 'string' && Number.isInteger(i.units) && i.units > 0 && Number.isInteger(i.quantity) && i.quantity > 0,
    );
  } catch {
    return [];
  }
}

export interface SellableProduct {
  internalCode: string;
  name: string;
  sizes: readonly { units: number }[];
}

/**
 * "Order again": the order's lines that are still sold (the product is in the store's
 * catalog today, in that package size), added to the cart.
 */
export function orderAgain(items: readonly CartItem[], lines: readonly { internalCode: string; units: number; quantity: number }[], sold: readonly SellableProduct[]) {
  let next = [...items];
  let added = 0;
  for (const line of lines) {
    const product = sold.find((p) => p.internalCode === line.internalCode);
    if (!product || !product.sizes.some((s) => s.units === line.units)) continue;
    next = addItem(next, { productInternalCode: line.internalCode, units: line.units, quantity: line.quantity, name: product.name });
    added++;
  }
  return { items: next, added };
}

// The cart's last priced answer, kept on the phone under the session's prefix (so signing
// out forgets it with the cart) for the lines it priced: offline, a reopened cart shows the
// prices it last had, said to be from then, instead of placeholders (issue 34).
const pricedKey = (storeId: number) => `surtido.shop.priced.${storeId}`;
const linesKey = (items: readonly CartItem[]) => JSON.stringify(cartLines(items));

export function keepPriced(storeId: number, items: readonly CartItem[], answer: unknown) {
  try {
    localStorage.setItem(pricedKey(storeId), JSON.stringify({ lines: linesKey(items), answer }));
  } catch {
    // Private mode or a full disk: offline, the cart then waits for the network as before.
  }
}

/** The last priced answer of exactly these lines, if the phone kept one. */
export function keptPriced<T>(storeId: number, items: readonly CartItem[]): T | undefined {
  try {
    const kept = JSON.parse(localStorage.getItem(pricedKey(storeId)) ?? 'null') as { lines?: string; answer?: T } | null;
    return kept?.lines === linesKey(items) ? kept.answer : undefined;
  } catch {
    return undefined;
  }
}
