// Readable histories for the return tests: one row per line, dates as text, money in dollars.
import { dayOf } from './days.js';
import type { HistoryDay } from './returns.js';

/** `[date, value | null, flow?, fee?, income?]` rows, in date order. */
export type Row = [string, number | null, number?, number?, number?];

export function history(rows: readonly Row[]): HistoryDay[] {
  return rows.map(([date, value, flow = 0, fee = 0, income = 0]) => ({ day: dayOf(date), value, flow, fee, income }));
}
