// The catalogue's cheap "what changed since" (README.md, "What changed since"): a phone that
// kept the catalogue sends the cursor of its last read and gets only what changed, or the
// whole catalogue when a change cannot be told item by item.
//
// A cursor names the catalogue as the phone holds it: the time of its latest item change
// (`t`), the digest of its shape (every product code with its sizes: a product or size that
// came or went changes it), the digest of the promotions taking part for the store (their
// badges are on every item) and the day (a promotion starts or ends with it). With the same
// shape, promotions and day, every other change of an item (its fields, a price, a stock
// rule) moved that item's time past `t`, so the items past `t` are all that changed;
// otherwise the answer is the whole catalogue, marked `full`, and the phone replaces its copy.
import { createHash } from 'node:crypto';
import { fieldError } from '../../lib/errors.ts';

export interface CatalogCursor {
  t: number;
  s: string;
  p: string;
  d: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 16);

/** The shape of a catalogue: its codes and sizes, whatever their order (a renamed product moves, and is a change of its own). */
export const shapeDigest = (products: readonly { internalCode: string; sizes: readonly { units: number }[] }[]) =>
  digest(
    products
      .map((p) => `${p.internalCode}\u001f${p.sizes.map((s) => s.units).join(',')}`)
      .sort()
      .join('\u001e'),
  );

export const promotionsDigest = (promotions: readonly unknown[]) => digest(JSON.stringify(promotions));

export const encodeCursor = (cursor: CatalogCursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

/** The cursor a phone sent; `0` asks for everything (a first read). A malformed one is a 400 naming it. */
export function decodeCursor(value: string): CatalogCursor | undefined {
  if (value === '0') return undefined;
  try {
    const c = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as CatalogCursor;
    if (typeof c.t === 'number' && typeof c.s === 'string' && typeof c.p === 'string' && typeof c.d === 'string') return c;
  } catch {
    // Not base64url JSON: refused below, as any other malformed cursor.
  }
  throw fieldError('INVALID_VALUE', '/query/changedSince', 'changedSince must be 0 or the cursor of an earlier answer');
}

/** Whether the items changed since `sent` can be told item by item (same shape, promotions and day). */
export const deltaPossible = (sent: CatalogCursor | undefined, now: CatalogCursor): sent is CatalogCursor =>
  sent !== undefined && sent.s === now.s && sent.p === now.p && sent.d === now.d;
