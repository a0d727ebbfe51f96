import { describe, expect, it } from 'vitest';
import { addItem, cartLines, countPackages, MAX_QUANTITY, orderAgain, parseCart, removeItem, setQuantity, type CartItem } from '../../web/lib/cart-state.ts';

const cola24 = { productInternalCode: 'COLA', units: 24 };
const cola1 = { productInternalCode: 'COLA', units: 1 };

describe('the cart kept on the phone', () => {
  it('adds packages, merging the same product and size, keeping sizes apart', () => {
    let items: CartItem[] = [];
    items = addItem(items, { ...cola24, quantity: 1, name: 'Cola' });
    items = addItem(items, { ...cola24, quantity: 2 });
    items = addItem(items, { ...cola1, quantity: 5 });
    expect(items).toEqual([
      { ...cola24, quantity: 3, name: 'Cola' },
      { ...cola1, quantity: 5 },
    ]);
    expect(countPackages(items)).toBe(8);
    expect(cartLines(items)).toEqual([
      { ...cola24, quantity: 3 },
      { ...cola1, quantity: 5 },
    ]);
  });

  it('sets quantities, removing a line at zero, clamping to whole numbers in range', () => {
    const items = [{ ...cola24, quantity: 3 }, { ...cola1, quantity: 5 }];
    expect(setQuantity(items, cola24, 0)).toEqual([{ ...cola1, quantity: 5 }]);
    expect(setQuantity(items, cola24, -4)).toEqual([{ ...cola1, quantity: 5 }]);
    expect(setQuantity(items, cola24, 2.7)[0]!.quantity).toBe(2);
    expect(setQuantity(items, cola24, 1e9)[0]!.quantity).toBe(MAX_QUANTITY);
    expect(removeItem(items, cola1)).toEqual([{ ...cola24, quantity: 3 }]);
    // The input is never changed.
    expect(items[0]!.quantity).toBe(3);
  });

  it('reads a kept cart, dropping what is malformed', () => {
    expect(parseCart(null)).toEqual([]);
    expect(parseCart('not json')).toEqual([]);
    expect(parseCart('{"a":1}')).toEqual([]);
    expect(parseCart(JSON.stringify([{ ...cola24, quantity: 2 }, { productInternalCode: 'X', units: 0, quantity: 1 }, { productInternalCode: 'Y', units: 1, quantity: 1.5 }, null]))).toEqual([{ ...cola24, quantity: 2 }]);
  });

  it('orders again only what is still sold, in that size', () => {
    const lines = [
      { internalCode: 'COLA', units: 24, quantity: 2 },
      { internalCode: 'GONE', units: 1, quantity: 1 },
      { internalCode: 'CHIPS', units: 12, quantity: 1 },
    ];
    const sold = [
      { internalCode: 'COLA', name: 'Cola', sizes: [{ units: 1 }, { units: 24 }] },
      { internalCode: 'CHIPS', name: 'Chips', sizes: [{ units: 1 }] },
    ];
    const { items, added } = orderAgain([{ ...cola24, quantity: 1 }], lines, sold);
    expect(added).toBe(1);
    expect(items).toEqual([{ ...cola24, quantity: 3 }]);
  });
});
