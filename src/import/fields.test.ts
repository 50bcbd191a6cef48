import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dollarsToCents, MAX_DOLLARS, sharesToMicros } from '../shared/money.js';
import { RowReader } from './fields.js';
import type { ImportIssue } from './sources.js';

/** A reader of one JSON-style row holding `value` under `amount`. */
function readerOf(value: unknown, issues: ImportIssue[] = []) {
  return new RowReader({ file: 'f.csv', line: 2, entity: 'positions', values: new Map([['amount', value]]) }, issues, ['amount']);
}

describe('RowReader.scaled', () => {
  it('turns decimal text into exact cents and micros, as the API conversions do (property)', () => {
    const digits = (max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: max });
    const decimal = (wholeDigits: number, places: number) =>
      fc.tuple(fc.boolean(), digits(wholeDigits), fc.option(digits(places), { nil: undefined })).map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`);
    fc.assert(
      fc.property(decimal(13, 2), (text) => {
        fc.pre(Math.abs(Number(text)) <= MAX_DOLLARS);
        expect(readerOf(text).scaled('amount', { scale: 2 }, 2)).toBe(dollarsToCents(Number(text)) + 0);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(decimal(9, 6), (text) => {
        fc.pre(Math.abs(Number(text)) <= 1e9);
        expect(readerOf(text).scaled('amount', { scale: 6 }, 6)).toBe(sharesToMicros(Number(text)) + 0);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads numbers and text alike, makes -0 zero, and refuses more places than the scale', () => {
    expect(readerOf('12.5').scaled('amount', { scale: 2 }, 2)).toBe(1250);
    expect(readerOf(12.5).scaled('amount', { scale: 2 }, 2)).toBe(1250);
    expect(Object.is(readerOf('-0.00').scaled('amount', { scale: 2 }, 2), 0)).toBe(true);
    const issues: ImportIssue[] = [];
    expect(readerOf('1.234', issues).scaled('amount', { scale: 2 }, 2)).toBeNull();
    expect(issues).toEqual([{ file: 'f.csv', line: 2, field: 'amount', message: 'must have at most 2 decimal places' }]);
  });
});
