import type { HistoryDay } from '../engine/performance/returns.js';

const SEMICOLON = 59;
const COMMA = 44;
const MINUS = 45;
const ZERO = 48;

/**
 * Day number (days since 1970-01-01) of a proleptic Gregorian date, by integer arithmetic
 * (H. Hinnant's days_from_civil): a request reads about 780 dates an account, and building a
 * Date for each cost more than the rest of unpacking.
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/**
 * The history packed by membersWithHistoriesQuery (`date,value,flow,fee,income` per date, `;`
 * between dates, value empty when none), one entry a date. Read character by character: the text
 * was written by the database from checked columns (YYYY-MM-DD dates, integer cents), so it needs
 * no validation, and splitting it into strings first doubled the work.
 */
export function unpackHistory(packed: string | null): HistoryDay[] {
  const out: HistoryDay[] = [];
  if (!packed) return out;
  const length = packed.length;
  let i = 0;
  // Reads an optionally signed integer from i up to the next separator; null when the field is empty.
  const integer = (): number | null => {
    let sign = 1;
    if (packed.charCodeAt(i) === MINUS) {
      sign = -1;
      i++;
    }
    let n = 0;
    let digits = 0;
    for (; i < length; i++) {
      const c = packed.charCodeAt(i);
      if (c === COMMA || c === SEMICOLON) break;
      n = n * 10 + (c - ZERO);
      digits++;
    }
    i++; // the separator
    return digits === 0 ? null : sign * n;
  };
  const digitsAt = (from: number, count: number) => {
    let n = 0;
    for (let k = from; k < from + count; k++) n = n * 10 + (packed.charCodeAt(k) - ZERO);
    return n;
  };
  while (i < length) {
    const day = daysFromCivil(digitsAt(i, 4), digitsAt(i + 5, 2), digitsAt(i + 8, 2));
    i += 11; // YYYY-MM-DD and its comma
    const value = integer();
    const flow = integer() ?? 0;
    const fee = integer() ?? 0;
    const income = integer() ?? 0;
    out.push({ day, value, flow, fee, income });
  }
  return out;
}
