import fc from 'fast-check';
import { expect, it } from 'vitest';
import { TextBytes } from './text-bytes.js';

it('writes any number as String() prints it, integers digit by digit', () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.maxSafeNat(), fc.double(), fc.constantFrom(-0, 0, 9, 10, 99, 100, 1e15, 1e16, 2 ** 53, -(2 ** 53)))), (values) => {
      // Tiny room at first: every write may have to grow it.
      const text = new TextBytes(1);
      for (const [i, v] of values.entries()) {
        if (i > 0) text.byte(44);
        text.number(v);
      }
      expect(text.latin1()).toBe(values.map(String).join(','));
    }),
  );
});

it('writes any text as its UTF-8 bytes, beside ASCII and numbers', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ unit: 'binary' })), fc.integer(), (texts, n) => {
      const text = new TextBytes(1);
      for (const t of texts) {
        text.utf8(t);
        text.ascii('\t');
        text.number(n);
      }
      expect(Buffer.compare(text.bytes(), Buffer.from(texts.map((t) => `${t}\t${n}`).join(''), 'utf8'))).toBe(0);
    }),
  );
});

it('starts again empty after a reset, keeping what was read before it', () => {
  const text = new TextBytes();
  text.ascii('first');
  const first = text.latin1();
  text.reset();
  text.number(42);
  expect([first, text.latin1()]).toEqual(['first', '42']);
});
