// Time- and money-weighted returns of one history (an account, or the summed history of an
// aggregate). The rules are /work/shared/design/performance.md's; docs/performance.md restates them
// with a worked example. Money is in any unit (the services pass cents); returns are fractions.

/** One day of an entity's history: `value` is the close's market value, null on a day with flows but no valuation. */
export interface HistoryDay {
  day: number;
  value: number | null;
  /** External flows of the day, fees excluded: + in, − out. */
  flow: number;
  /** Advisory fees paid out of the account that day (≥ 0). */
  fee: number;
  /** Dividends and interest received that day (information only). */
  income: number;
}

export interface Measurement {
  /** First day of the period: the inception date when `inception`, else the requested first day (the day after `beginDay` when none was asked). */
  startDay: number;
  /** The valuation date whose close the period begins at (`s`). */
  beginDay: number;
  /** The last valuation date on or before the requested end (`e`). */
  endDay: number;
  inception: boolean;
  beginningValue: number;
  endingValue: number;
  netFlows: number;
  fees: number;
  income: number;
  gainLoss: number;
  twrNet: number | null;
  twrGross: number | null;
  twrNetAnnualized: number | null;
  twrGrossAnnualized: number | null;
  mwr: number | null;
  mwrAnnualized: number | null;
}

export const DAYS_PER_YEAR = 365;

export function roundReturn(r: number): number {
  const rounded = Math.round(r * 1e8) / 1e8;
  return rounded === 0 ? 0 : rounded;
}

function roundOrNull(r: number | null): number | null {
  return r === null || !Number.isFinite(r) ? null : roundReturn(r);
}

/** `(1 + R)^(365 / days) − 1` for periods of a year or more; null for shorter ones. */
export function annualize(r: number | null, days: number): number | null {
  if (r === null || days < DAYS_PER_YEAR || r <= -1) return null;
  return Math.pow(1 + r, DAYS_PER_YEAR / days) - 1;
}

/**
 * Modified Dietz return of one sub-period, or null when its denominator is zero or less (an empty
 * account, or one emptied by the flow): such a sub-period has no return and is left out of the linking.
 * `flowSum` is ΣF_d and `flowDaySum` is ΣF_d·d over the days `begin < d ≤ end`.
 */
export function modifiedDietz(begin: number, end: number, beginValue: number, endValue: number, flowSum: number, flowDaySum: number): number | null {
  const days = end - begin;
  const weighted = ((end + 1) * flowSum - flowDaySum) / days;
  const denominator = beginValue + weighted;
  if (!(denominator > 0)) return null;
  return (endValue - beginValue - flowSum) / denominator;
}

/** Index of the last element of `sorted` that is < `day` (or ≤ with `inclusive`), −1 when none. */
function lastBefore(sorted: readonly number[], day: number, inclusive: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid] as number;
    if (v < day || (inclusive && v === day)) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** Positions (in `history`) of its valuation days, for repeated measurements of one history. */
export function valuationIndex(history: readonly HistoryDay[]): { days: number[]; rows: number[] } {
  const days: number[] = [];
  const rows: number[] = [];
  history.forEach((h, i) => {
    if (h.value !== null) {
      days.push(h.day);
      rows.push(i);
    }
  });
  return { days, rows };
}

/**
 * The period `startDay`…`endDay` (both included; either omitted: inception, last valuation).
 * Null when the history has no valuation at all. `history` is sorted by day, one row per day.
 */
export function measure(
  history: readonly HistoryDay[],
  startDay?: number,
  endDay?: number,
  index: { days: number[]; rows: number[] } = valuationIndex(history),
): Measurement | null {
  if (index.days.length === 0) return null;
  let sPos = startDay === undefined ? -1 : lastBefore(index.days, startDay, false);
  const inception = sPos < 0;
  if (inception) sPos = 0;
  let ePos = endDay === undefined ? index.days.length - 1 : lastBefore(index.days, endDay, true);
  if (ePos < sPos) ePos = sPos;
  const sRow = index.rows[sPos] as number;
  const eRow = index.rows[ePos] as number;
  const s = index.days[sPos] as number;
  const e = index.days[ePos] as number;
  const beginningValue = history[sRow]?.value as number;
  const endingValue = history[eRow]?.value as number;

  let netFlows = 0;
  let fees = 0;
  let income = 0;
  let linkedNet = 1;
  let linkedGross = 1;
  let anyNet = false;
  let anyGross = false;
  // Accumulators of the open sub-period.
  let subBegin = s;
  let subValue = beginningValue;
  let flowSum = 0;
  let flowDaySum = 0;
  let grossSum = 0;
  let grossDaySum = 0;
  // MWR cash flows: amount and the exponent weight (e − d + 1) / (e − s) of its day.
  const flowAmounts: number[] = [];
  const flowDays: number[] = [];
  for (let i = sRow + 1; i <= eRow; i++) {
    const h = history[i] as HistoryDay;
    netFlows += h.flow;
    fees += h.fee;
    income += h.income;
    flowSum += h.flow;
    flowDaySum += h.flow * h.day;
    const gross = h.flow - h.fee;
    grossSum += gross;
    grossDaySum += gross * h.day;
    if (h.flow !== 0) {
      flowAmounts.push(h.flow);
      flowDays.push(h.day);
    }
    if (h.value !== null) {
      const rNet = modifiedDietz(subBegin, h.day, subValue, h.value, flowSum, flowDaySum);
      if (rNet !== null) {
        linkedNet *= 1 + rNet;
        anyNet = true;
      }
      const rGross = modifiedDietz(subBegin, h.day, subValue, h.value, grossSum, grossDaySum);
      if (rGross !== null) {
        linkedGross *= 1 + rGross;
        anyGross = true;
      }
      subBegin = h.day;
      subValue = h.value;
      flowSum = flowDaySum = grossSum = grossDaySum = 0;
    }
  }
  const days = e - s;
  const twrNet = days > 0 ? (anyNet ? linkedNet - 1 : 0) : null;
  const twrGross = days > 0 ? (anyGross ? linkedGross - 1 : 0) : null;
  const mwr = days > 0 ? moneyWeighted(beginningValue, endingValue, flowAmounts, flowDays, s, e) : null;
  return {
    startDay: inception ? s : (startDay ?? s + 1),
    beginDay: s,
    endDay: e,
    inception,
    beginningValue,
    endingValue,
    netFlows,
    fees,
    income,
    gainLoss: endingValue - beginningValue - netFlows,
    twrNet: roundOrNull(twrNet),
    twrGross: roundOrNull(twrGross),
    twrNetAnnualized: roundOrNull(annualize(twrNet, days)),
    twrGrossAnnualized: roundOrNull(annualize(twrGross, days)),
    mwr: roundOrNull(mwr?.period ?? null),
    mwrAnnualized: days >= DAYS_PER_YEAR ? roundOrNull(mwr?.annual ?? null) : null,
  };
}

/**
 * The money-weighted rate: `irr` (actual/365) that makes the beginning value at the close of `s`,
 * each flow at the start of its day and the ending value at the close of `e` worth zero.
 * Solved for h = ln(1 + period rate), where a flow of day d grows by e^{h·(e − d + 1)/(e − s)};
 * the root nearest h = 0 is taken when flows of both signs allow several. Null when none exists
 * (nothing invested, or an ending value no rate explains).
 */
export function moneyWeighted(
  beginningValue: number,
  endingValue: number,
  amounts: readonly number[],
  flowDays: readonly number[],
  s: number,
  e: number,
): { period: number; annual: number } | null {
  const span = e - s;
  if (span <= 0) return null;
  const weights = flowDays.map((d) => (e - d + 1) / span);
  const f = (h: number): number => {
    let total = beginningValue * Math.exp(h) - endingValue;
    for (let i = 0; i < amounts.length; i++) total += (amounts[i] as number) * Math.exp(h * (weights[i] as number));
    return total;
  };
  const root = nearestRoot(f);
  if (root === null) return null;
  const years = span / DAYS_PER_YEAR;
  return { period: Math.expm1(root), annual: Math.expm1(root / years) };
}

const H_LIMIT = 40;
const H_STEPS = 400;

/** The root of `f` on [−40, 40] nearest 0: a grid outward from 0 finds a sign change, bisection refines it. */
function nearestRoot(f: (h: number) => number): number | null {
  const f0 = f(0);
  if (f0 === 0) return 0;
  const step = H_LIMIT / H_STEPS;
  let best: [number, number] | null = null;
  for (let k = 0; k < H_STEPS && best === null; k++) {
    for (const dir of [1, -1]) {
      const a = dir * k * step;
      const b = dir * (k + 1) * step;
      const fa = f(a);
      const fb = f(b);
      if (fa === 0) return a;
      if (Math.sign(fa) !== Math.sign(fb)) {
        best = a < b ? [a, b] : [b, a];
        break;
      }
    }
  }
  if (best === null) return null;
  let [lo, hi] = best;
  let flo = f(lo);
  // Bisection to well under the 1e-10 asked of the rate.
  for (let i = 0; i < 200 && hi - lo > 1e-14; i++) {
    const mid = (lo + hi) / 2;
    const fm = f(mid);
    if (fm === 0) return mid;
    if (Math.sign(fm) === Math.sign(flo)) {
      lo = mid;
      flo = fm;
    } else hi = mid;
  }
  return (lo + hi) / 2;
}

export interface DailyPoint {
  day: number;
  value: number;
  /** Sums over the days since the previous valuation date. */
  flow: number;
  fee: number;
  income: number;
  /** Net-of-fees TWR from the close of `m.beginDay` to this date's close. */
  twrNetCumulative: number;
}

/** One point per valuation date of a measured period, its first the period's beginning (0 %). */
export function dailySeries(history: readonly HistoryDay[], m: Pick<Measurement, 'beginDay' | 'endDay'>): DailyPoint[] {
  const points: DailyPoint[] = [];
  let flow = 0;
  let fee = 0;
  let income = 0;
  let flowDaySum = 0;
  let linked = 1;
  let prev: { day: number; value: number } | null = null;
  for (const h of history) {
    if (h.day > m.endDay) break;
    flow += h.flow;
    fee += h.fee;
    income += h.income;
    flowDaySum += h.flow * h.day;
    if (h.value === null) continue;
    if (h.day >= m.beginDay) {
      if (prev) {
        const r = modifiedDietz(prev.day, h.day, prev.value, h.value, flow, flowDaySum);
        if (r !== null) linked *= 1 + r;
      }
      points.push({ day: h.day, value: h.value, flow, fee, income, twrNetCumulative: roundReturn(linked - 1) });
      prev = { day: h.day, value: h.value };
    }
    flow = fee = income = flowDaySum = 0;
  }
  return points;
}
