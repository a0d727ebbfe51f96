// The contract's patterns are written in JSON Schema's interoperable subset, and must
// accept and refuse exactly what the rules they replace did (the service stays as strict).
import fs from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CODE_PATTERN, FILE_NAME_PATTERN } from '../../src/lib/schemas.ts';

// The rules as first written, with lookbehind and Unicode property classes.
const codeBefore = /^(?!\s)[^\p{Cc}]*(?<!\s)$/u;
const fileNameBefore = /^[^\p{Cc}/\\]+$/u;
const code = new RegExp(CODE_PATTERN, 'u');
const fileName = new RegExp(FILE_NAME_PATTERN, 'u');

// Strings drawn mostly from the characters the rules are about: controls, every kind of
// white space, separators, and ordinary letters in and out of the Basic Multilingual Plane.
const tricky = [...'\u0000\t\n\u000b\f\r\u001f \u007f\u0085\u009f\u00a0\u1680\u2000\u2005\u200a\u200b\u2028\u2029\u202f\u205f\u3000\ufeff/\\aZ9ñ-_.é😀'];
const strings = fc.oneof(
  fc.array(fc.constantFrom(...tricky), { maxLength: 6 }).map((cs) => cs.join('')),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);

describe('the contract patterns', () => {
  it('accept and refuse exactly what the lookaround and \\p{Cc} rules did', () => {
    fc.assert(
      fc.property(strings, (s) => {
        expect(code.test(s), JSON.stringify(s)).toBe(codeBefore.test(s));
        expect(fileName.test(s), JSON.stringify(s)).toBe(fileNameBefore.test(s));
      }),
      { numRuns: 20_000 },
    );
    // Every single character of the first two planes, alone and between letters.
    for (let c = 0; c < 0x20000; c++) {
      const ch = String.fromCodePoint(c);
      for (const s of [ch, `a${ch}b`]) {
        if (code.test(s) !== codeBefore.test(s)) throw new Error(`code pattern differs on U+${c.toString(16)} in ${JSON.stringify(s)}`);
        if (fileName.test(s) !== fileNameBefore.test(s)) throw new Error(`file name pattern differs on U+${c.toString(16)}`);
      }
    }
  });

  it('leave out of the published document what other engines cannot read', () => {
    const document = fs.readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');
    for (const construct of ['(?<', '(?!', '(?=', '\\\\p{']) expect(document).not.toContain(construct);
    expect(document).toContain(JSON.stringify(CODE_PATTERN));
  });
});
