// A model's benchmark: its targets rebalanced daily, each line's price return (cash 0 %), linked.
// With daily rebalancing a day's return is Σ wᵢ·(Pᵢ(d) / Pᵢ(d−1) − 1); on a day without a new price
// a line returns 0, so only the days some target's price changes need visiting.

export interface BenchmarkLine {
  /** Target weight as a fraction (0.6 = 60 %); what the lines leave is cash. */
  weight: number;
  /** Price history, sorted by day. */
  prices: readonly { day: number; price: number }[];
}

/**
 * Cumulative benchmark return at the close of `s` (0) and of each day in (s, e] on which some
 * target's price changed, or null when a target has no price on or before `s`.
 */
export function benchmarkSeries(lines: readonly BenchmarkLine[], s: number, e: number): { day: number; cumulative: number }[] | null {
  const live = lines.filter((l) => l.weight !== 0);
  const last: number[] = [];
  const cursors: number[] = [];
  for (const line of live) {
    let i = 0;
    while (i < line.prices.length && (line.prices[i] as { day: number }).day <= s) i++;
    if (i === 0) return null;
    last.push((line.prices[i - 1] as { price: number }).price);
    cursors.push(i);
  }
  const series = [{ day: s, cumulative: 0 }];
  let growth = 1;
  for (;;) {
    let next = Infinity;
    live.forEach((line, k) => {
      const p = line.prices[cursors[k] as number];
      if (p && p.day <= e && p.day < next) next = p.day;
    });
    if (next === Infinity) break;
    let dayReturn = 0;
    live.forEach((line, k) => {
      const p = line.prices[cursors[k] as number];
      if (!p || p.day !== next) return;
      dayReturn += line.weight * (p.price / (last[k] as number) - 1);
      last[k] = p.price;
      cursors[k] = (cursors[k] as number) + 1;
    });
    growth *= 1 + dayReturn;
    series.push({ day: next, cumulative: growth - 1 });
  }
  return series;
}

export function benchmarkReturn(lines: readonly BenchmarkLine[], s: number, e: number): number | null {
  const series = benchmarkSeries(lines, s, e);
  return series === null ? null : (series[series.length - 1] as { cumulative: number }).cumulative;
}

/**
 * A blend of benchmark series held in fixed proportions from the period's start (weights summing
 * to 1): on each day of any part, Σ wᵢ·Cᵢ(d), each part's cumulative return being its latest on or
 * before d. The parts start on the same day at 0.
 */
export function blendSeries(parts: readonly { weight: number; series: readonly { day: number; cumulative: number }[] }[]): { day: number; cumulative: number }[] {
  const days = [...new Set(parts.flatMap((p) => p.series.map((s) => s.day)))].sort((a, b) => a - b);
  const cursors = parts.map(() => 0);
  const latest = parts.map(() => 0);
  return days.map((day) => {
    let cumulative = 0;
    parts.forEach((part, k) => {
      while ((cursors[k] as number) < part.series.length && (part.series[cursors[k] as number] as { day: number }).day <= day) {
        latest[k] = (part.series[cursors[k] as number] as { cumulative: number }).cumulative;
        cursors[k] = (cursors[k] as number) + 1;
      }
      cumulative += part.weight * (latest[k] as number);
    });
    return { day, cumulative };
  });
}
