// The standard periods of a statement, all ending at one date.
import { firstOfMonth, firstOfQuarter, firstOfYear, yearsBefore } from './days.js';
import { measure, valuationIndex, type HistoryDay, type Measurement } from './returns.js';

export const STANDARD_PERIODS = ['MTD', 'QTD', 'YTD', '1Y', '3Y', '5Y', 'ITD'] as const;
export type StandardPeriod = (typeof STANDARD_PERIODS)[number];

/** First day of each standard period ending at `endDay`; null for ITD (inception). */
export function periodStart(period: StandardPeriod, endDay: number): number | null {
  switch (period) {
    case 'MTD': return firstOfMonth(endDay);
    case 'QTD': return firstOfQuarter(endDay);
    case 'YTD': return firstOfYear(endDay);
    case '1Y': return yearsBefore(endDay, 1) + 1;
    case '3Y': return yearsBefore(endDay, 3) + 1;
    case '5Y': return yearsBefore(endDay, 5) + 1;
    case 'ITD': return null;
  }
}

/**
 * The standard periods ending at `endDay`. A period that would begin before the history's first
 * valuation (no valuation before its first day) is left out, except ITD.
 */
export function standardPeriods(history: readonly HistoryDay[], endDay: number): { period: StandardPeriod; measurement: Measurement }[] {
  const index = valuationIndex(history);
  const first = index.days[0];
  if (first === undefined) return [];
  const out: { period: StandardPeriod; measurement: Measurement }[] = [];
  for (const period of STANDARD_PERIODS) {
    const start = periodStart(period, endDay);
    if (start !== null && !(first < start)) continue;
    const m = measure(history, start ?? undefined, endDay, index);
    if (m) out.push({ period, measurement: m });
  }
  return out;
}
