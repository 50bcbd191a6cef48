/**
 * The taxOptions the benches run with (bench/rebalance.ts times them, bench/_trades-hash.ts checks
 * their trades): MinTax lots, a long-term gains budget, wash sales avoided and losses harvested,
 * so every rule of docs/tax-aware.md is at work at once.
 */
export const BENCH_TAX_OPTIONS = { lotSelection: 'MinTax', avoidWashSales: true, maxShortTermGain: 0, maxLongTermGain: 5000, harvestLosses: { minLossDollars: 500, minLossPercent: 5 } } as const;
