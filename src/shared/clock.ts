/** Time comes from one injectable clock so that expiry rules can be tested with a fake one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const isoNow = (clock: Clock): string => clock.now().toISOString();
const DAY_MS = 86_400_000;
let todayNumber = NaN;
let todayText = '';

/**
 * The clock's UTC date, YYYY-MM-DD. Kept for the day it was made for: the response cache keys every
 * request by it, and a date printed afresh for each was a microsecond of a cached answer's few.
 */
export function today(clock: Clock): string {
  const day = Math.floor(clock.now().getTime() / DAY_MS);
  if (day !== todayNumber) {
    todayText = new Date(day * DAY_MS).toISOString().slice(0, 10);
    todayNumber = day;
  }
  return todayText;
}
