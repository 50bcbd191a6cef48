const DAY_MS = 86_400_000;

/** A YYYY-MM-DD date moved by whole days (UTC). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
