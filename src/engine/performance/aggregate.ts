// The aggregate method: an aggregate's (registration, household, model, firm) history is the sum
// of its members' histories, and its returns are computed from that sum — never an average of
// member returns. A transfer between two members on one day nets to zero in the summed flows.
import type { HistoryDay } from './returns.js';

/**
 * The summed history of `members` (each sorted by day, one row per day). On every valuation date
 * of any member the value is the sum of the members' values; a member without a value that day
 * counts with its latest earlier value plus its net flows less its fees since then, and a member
 * not yet valued counts nothing. Flows, fees and income are summed on every day.
 */
export function aggregateHistory(members: readonly (readonly HistoryDay[])[]): HistoryDay[] {
  const byDay = new Map<number, { flow: number; fee: number; income: number; valued: boolean }>();
  for (const member of members) {
    for (const h of member) {
      const slot = byDay.get(h.day);
      if (slot) {
        slot.flow += h.flow;
        slot.fee += h.fee;
        slot.income += h.income;
        slot.valued ||= h.value !== null;
      } else byDay.set(h.day, { flow: h.flow, fee: h.fee, income: h.income, valued: h.value !== null });
    }
  }
  const days = [...byDay.keys()].sort((a, b) => a - b);
  // Each member's carried value (null until its first valuation) and a cursor into its rows.
  const carried: (number | null)[] = members.map(() => null);
  const cursor = members.map(() => 0);
  let total = 0;
  const out: HistoryDay[] = [];
  for (const day of days) {
    members.forEach((member, m) => {
      const h = member[cursor[m] as number];
      if (!h || h.day !== day) return;
      cursor[m] = (cursor[m] as number) + 1;
      const before = carried[m] as number | null;
      let after = before;
      if (h.value !== null) after = h.value;
      else if (before !== null) after = before + h.flow - h.fee;
      if (after !== null) {
        total += after - (before ?? 0);
        carried[m] = after;
      }
    });
    const slot = byDay.get(day) as { flow: number; fee: number; income: number; valued: boolean };
    out.push({ day, value: slot.valued ? total : null, flow: slot.flow, fee: slot.fee, income: slot.income });
  }
  return out;
}

/**
 * A member's value at the close of `day` as the aggregate counts it: its latest value on or before
 * the day plus its net flows less its fees since then; null when it has no value yet.
 */
export function carriedValue(history: readonly HistoryDay[], day: number): number | null {
  let value: number | null = null;
  for (const h of history) {
    if (h.day > day) break;
    if (h.value !== null) value = h.value;
    else if (value !== null) value += h.flow - h.fee;
  }
  return value;
}
