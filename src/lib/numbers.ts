/** Digits after the decimal point of a finite number as JSON writes it (1e-7 has 7). */
export function decimalPlaces(value: number): number {
  if (Number.isInteger(value)) return 0; // the common case, without building a string
  if (!Number.isFinite(value)) return Infinity;
  const text = value.toString();
  const e = text.indexOf('e');
  const mantissa = e === -1 ? text : text.slice(0, e);
  const dot = mantissa.indexOf('.');
  const fraction = dot === -1 ? 0 : mantissa.length - dot - 1;
  return Math.max(0, fraction - (e === -1 ? 0 : Number(text.slice(e + 1))));
}

/** A numeric column's exact decimal string as a JSON number (prices have at most 4 decimals). */
export const decimalToNumber = (value: string | number): number => Number(value);
