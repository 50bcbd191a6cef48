import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysFromCivil, unpackHistory } from './packed-history.js';

/** What the packed text means, read the plain way: split on the separators, dates through Date. */
function reference(packed: string) {
  return packed.split(';').map((item) => {
    const [date, value, flow, fee, income] = item.split(',') as [string, string, string, string, string];
    return { day: Date.parse(`${date}T00:00:00Z`) / 86_400_000, value: value === '' ? null : Number(value), flow: Number(flow), fee: Number(fee), income: Number(income) };
  });
}

const cents = fc.integer({ min: -9_000_000_000_000, max: 9_000_000_000_000 });
const historyDay = fc.record({
  date: fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  value: fc.option(fc.nat({ max: 9_000_000_000_000 }), { nil: null }),
  flow: cents,
  fee: cents,
  income: cents,
});
const pack = (days: { date: string; value: number | null; flow: number; fee: number; income: number }[]) =>
  days.map((d) => [d.date, d.value === null ? '' : String(d.value), d.flow, d.fee, d.income].join(',')).join(';');

describe('unpackHistory', () => {
  it('reads what splitting the text and parsing each date reads, for any history', () => {
    fc.assert(fc.property(fc.array(historyDay, { minLength: 1, maxLength: 50 }), (days) => {
      const packed = pack(days);
      expect(unpackHistory(packed)).toEqual(reference(packed));
    }));
  });

  it('reads dates, an empty value as none, and signed money', () => {
    expect(unpackHistory('2026-01-01,100000,0,0,0;2026-01-02,,-5000,25,3')).toEqual([
      { day: Date.UTC(2026, 0, 1) / 86_400_000, value: 100_000, flow: 0, fee: 0, income: 0 },
      { day: Date.UTC(2026, 0, 2) / 86_400_000, value: null, flow: -5000, fee: 25, income: 3 },
    ]);
    expect(unpackHistory(null)).toEqual([]);
    expect(unpackHistory('')).toEqual([]);
  });
});

describe('daysFromCivil', () => {
  it('agrees with Date.UTC on every day, leap years and centuries included', () => {
    fc.assert(fc.property(fc.date({ min: new Date('1600-01-01T00:00:00Z'), max: new Date('2400-12-31T00:00:00Z'), noInvalidDate: true }), (date) => {
      const expected = Math.floor(date.getTime() / 86_400_000);
      expect(daysFromCivil(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate())).toBe(expected);
    }));
    expect(daysFromCivil(1970, 1, 1)).toBe(0);
    expect(daysFromCivil(2000, 2, 29)).toBe(Date.UTC(2000, 1, 29) / 86_400_000);
    expect(daysFromCivil(2100, 3, 1) - daysFromCivil(2100, 2, 28)).toBe(1);
  });
});
