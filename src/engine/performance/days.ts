// Calendar days as integers (days since 1970-01-01, UTC): the return rules count calendar days,
// and integer arithmetic keeps `e − s` exact across daylight-saving and leap years.

const MS_PER_DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number of a YYYY-MM-DD date, or null when the text is not a real calendar date. */
export function parseDay(text: string): number | null {
  const m = ISO_DATE.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / MS_PER_DAY;
}

export function dayOf(text: string): number {
  const day = parseDay(text);
  if (day === null) throw new RangeError(`not a date: ${text}`);
  return day;
}

export function isoOf(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

function parts(day: number): { y: number; m: number; d: number } {
  const date = new Date(day * MS_PER_DAY);
  return { y: date.getUTCFullYear(), m: date.getUTCMonth(), d: date.getUTCDate() };
}

export function firstOfMonth(day: number): number {
  const { y, m } = parts(day);
  return Date.UTC(y, m, 1) / MS_PER_DAY;
}

export function firstOfQuarter(day: number): number {
  const { y, m } = parts(day);
  return Date.UTC(y, m - (m % 3), 1) / MS_PER_DAY;
}

export function firstOfYear(day: number): number {
  return Date.UTC(parts(day).y, 0, 1) / MS_PER_DAY;
}

/** The same date `years` earlier; 29 February falls back to 28 February. */
export function yearsBefore(day: number, years: number): number {
  const { y, m, d } = parts(day);
  const lastOfMonth = new Date(Date.UTC(y - years, m + 1, 0)).getUTCDate();
  return Date.UTC(y - years, m, Math.min(d, lastOfMonth)) / MS_PER_DAY;
}
