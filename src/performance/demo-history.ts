// Three years of performance history for the demo firm, so a newcomer's first `Performance` call
// answers a full period table. Deterministic for a seed and a date, and consistent with today's
// book: every account holds today's positions throughout, priced by a price path that ends at each
// product's stored prices; its cash walks back from today's through a contribution (some accounts)
// and quarterly advisory fees, so today's value is exactly today's positions and cash.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { dayOf, isoOf, yearsBefore } from '../engine/performance/days.js';
import { Random } from '../seed/random.js';
import { DemoHistoryRepository } from './demo-repository.js';

/** Quarterly fee: 0.25 % of the holdings (1 % a year). */
const QUARTERLY_FEE = 0.0025;

const isWeekday = (day: number): boolean => {
  const weekday = new Date(day * 86_400_000).getUTCDay();
  return weekday !== 0 && weekday !== 6;
};

export async function seedDemoHistory(db: Kysely<Database>, firmId: number, options: { asOf: string; seed: number }): Promise<{ values: number; prices: number }> {
  const repo = new DemoHistoryRepository(db);
  const input = await repo.inputs(firmId);
  const end = dayOf(options.asOf);
  // A week before the day three years back, so the 3Y period has a valuation before it.
  const start = yearsBefore(end, 3) - 7;
  const days: number[] = [];
  for (let d = start; d <= end; d++) if (isWeekday(d) || d === end) days.push(d);

  // Price paths: stored prices kept, earlier weekdays drawn walking back from the earliest stored.
  const rng = new Random(options.seed ^ 0x9e7f);
  const newPrices: { productId: number; date: string; micros: number }[] = [];
  const priceOn = new Map<number, Float64Array>();
  for (const product of input.products) {
    const stored = new Map(product.prices.map((p) => [dayOf(p.date), p.micros]));
    const path = new Float64Array(days.length);
    let latest = product.priceMicros ?? product.prices[product.prices.length - 1]?.micros ?? 0;
    // Forward fill from stored prices, then walk back for days before the first stored one.
    const firstStored = product.prices.length ? dayOf(product.prices[0]!.date) : end + 1;
    let walk = product.prices[0]?.micros ?? latest;
    for (let i = days.length - 1; i >= 0; i--) {
      const day = days[i] as number;
      if (day >= firstStored) {
        path[i] = stored.get(day) ?? NaN;
        continue;
      }
      // Gentle drift up: equities earn more than they lose over three years.
      if (!product.isCash) walk = Math.max(10_000, Math.round(walk / (1 + rng.between(-0.0115, 0.0125))));
      path[i] = walk;
      newPrices.push({ productId: product.id, date: isoOf(day), micros: walk });
    }
    // Days after the first stored price without a stored row take the latest price before them.
    for (let i = 0; i < days.length; i++) {
      if (Number.isNaN(path[i])) path[i] = i > 0 ? (path[i - 1] as number) : latest;
      latest = path[i] as number;
    }
    priceOn.set(product.id, path);
  }

  const values: { accountId: number; date: string; valueCents: number; flowCents: number; feeCents: number }[] = [];
  const quarterEnds = new Set<number>();
  for (let i = 0; i + 1 < days.length; i++) {
    const here = new Date((days[i] as number) * 86_400_000);
    const next = new Date((days[i + 1] as number) * 86_400_000);
    if (here.getUTCMonth() !== next.getUTCMonth() && here.getUTCMonth() % 3 === 2) quarterEnds.add(i);
  }
  const flowRng = new Random(options.seed ^ 0xf10f);
  for (const account of input.accounts) {
    const holdings = days.map((_, i) => account.positions.reduce((sum, p) => sum + (p.sharesMicros / 1e6) * ((priceOn.get(p.productId)?.[i] ?? 0) / 1e4), 0));
    // One account in four received a contribution, kept as cash, on a day of the last two years.
    const contributionAt = flowRng.chance(0.25) && account.cashCents > 0 ? flowRng.int(Math.floor(days.length / 3), days.length - 1) : -1;
    const contribution = contributionAt >= 0 ? Math.round(account.cashCents * flowRng.between(0.2, 0.6)) : 0;
    let cash = account.cashCents;
    const rows: typeof values = [];
    for (let i = days.length - 1; i >= 0; i--) {
      const fee = quarterEnds.has(i) ? Math.round(holdings[i]! * QUARTERLY_FEE) : 0;
      const flow = i === contributionAt ? contribution : 0;
      rows.push({ accountId: account.id, date: isoOf(days[i] as number), valueCents: Math.round(holdings[i]!) + cash, flowCents: flow, feeCents: fee });
      // The close before this day: the fee had not been paid, the contribution had not arrived.
      cash = cash + fee - flow;
    }
    values.push(...rows.reverse());
  }
  await repo.write(firmId, newPrices, values);
  return { values: values.length, prices: newPrices.length };
}
