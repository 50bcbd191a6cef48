import { describe, expect, it } from 'vitest';
import { MODELS, PRODUCTS } from './demo-data.js';
import { generateFirmBook, generateHouseholdChunks, type GeneratorOptions } from './generator.js';

const options: GeneratorOptions = { households: 120, seed: 2024, asOf: '2025-06-30', chunkSize: 50 };
const generate = (o: GeneratorOptions) => {
  const firm = generateFirmBook(o);
  return { firm, chunks: [...generateHouseholdChunks(o, firm)] };
};

describe('demo data', () => {
  it('has 30+ products of every kind with tickers unique', () => {
    expect(PRODUCTS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(PRODUCTS.map((p) => p.ticker)).size).toBe(PRODUCTS.length);
    for (const type of ['Equity', 'ETF', 'MutualFund', 'FixedIncome', 'Cash']) {
      expect(PRODUCTS.some((p) => p.type === type)).toBe(true);
    }
  });

  it('has 5-10 models whose targets and cash total exactly 100, naming known tickers', () => {
    expect(MODELS.length).toBeGreaterThanOrEqual(5);
    expect(MODELS.length).toBeLessThanOrEqual(10);
    const tickers = new Set(PRODUCTS.map((p) => p.ticker));
    for (const model of MODELS) {
      const total = model.allocations.reduce((sum, [, target]) => sum + target, model.cash.target);
      expect(total, model.name).toBe(100);
      expect(model.cash.target).toBeGreaterThan(0);
      for (const [ticker, target, lower, upper] of model.allocations) {
        expect(tickers.has(ticker), ticker).toBe(true);
        expect(lower).toBeGreaterThan(0);
        expect(upper).toBeGreaterThan(0);
        expect(lower).toBeLessThan(target);
      }
    }
  });

  it('prices mutual funds to four decimals and everything else to cents', () => {
    const { firm } = generate(options);
    for (const p of firm.products) {
      expect(p.price_micros! % (p.type === 'MutualFund' ? 100 : 10_000), p.ticker).toBe(0);
    }
    for (const row of firm.product_prices) {
      const p = firm.products[row.product_id]!;
      expect(row.price_micros % (p.type === 'MutualFund' ? 100 : 10_000)).toBe(0);
    }
  });
});

describe('generator', () => {
  it('is deterministic: the same seed gives the same rows', () => {
    expect(generate(options)).toEqual(generate(options));
  });

  it('gives a different book for a different seed', () => {
    expect(generate({ ...options, seed: 2025 }).chunks).not.toEqual(generate(options).chunks);
  });

  it('streams households in chunks of the requested size', () => {
    const { chunks } = generate(options);
    expect(chunks.map((c) => c.clients.length)).toEqual([50, 50, 20]);
  });

  it('keeps lots summing to positions and sleeve targets summing to 100', () => {
    const { chunks } = generate({ ...options, households: 400, chunkSize: 400 });
    const chunk = chunks[0]!;
    const lots = new Map<number, { shares: number; cost: number; count: number }>();
    for (const lot of chunk.tax_lots) {
      const sum = lots.get(lot.position_id) ?? { shares: 0, cost: 0, count: 0 };
      expect(lot.shares_micros).toBeGreaterThan(0);
      expect(lot.cost_cents).toBeGreaterThanOrEqual(0);
      lots.set(lot.position_id, { shares: sum.shares + lot.shares_micros, cost: sum.cost + lot.cost_cents, count: sum.count + 1 });
    }
    chunk.positions.forEach((p, i) => {
      const sum = lots.get(i);
      expect(sum).toBeDefined();
      expect(sum!.count).toBeGreaterThanOrEqual(1);
      expect(sum!.count).toBeLessThanOrEqual(3);
      expect([sum!.shares, sum!.cost]).toEqual([p.shares_micros, p.cost_cents]);
    });

    const sleeved = chunk.registrations.flatMap((r, i) => (r.is_sleeved ? [i] : []));
    expect(sleeved.length).toBeGreaterThan(0);
    for (const reg of sleeved) {
      const accounts = chunk.accounts.filter((a) => a.registration_id === reg);
      const sleeves = accounts.filter((a) => a.sleeve_type === 'Normal Sleeve');
      expect(sleeves.length).toBeGreaterThanOrEqual(3);
      expect(sleeves.length).toBeLessThanOrEqual(4);
      expect(sleeves.reduce((s, a) => s + (a.sleeve_target_pct ?? 0), 0)).toBe(100);
      // Beside them, the custodial account as the system sleeve, holding nothing, and the settings row.
      const custodial = accounts.filter((a) => a.sleeve_type !== 'Normal Sleeve');
      expect(custodial.map((a) => [a.sleeve_type, a.sleeve_target_pct, a.model_id, a.cash_cents])).toEqual([['Custodial Account', null, null, 0]]);
      expect(chunk.positions.some((p) => p.account_id === chunk.accounts.indexOf(custodial[0]!))).toBe(false);
      expect(chunk.sleeve_registrations.filter((r) => r.registration_id === reg)).toHaveLength(1);
    }
    expect(chunk.sleeve_registrations).toHaveLength(sleeved.length);
    const unsleeved = chunk.registrations.flatMap((r, i) => (r.is_sleeved ? [] : [i]));
    for (const reg of unsleeved) expect(chunk.accounts.filter((a) => a.registration_id === reg)).toHaveLength(1);
  });

  it('draws positions both inside and outside the model bands, and some non-model holdings', () => {
    const { firm, chunks } = generate({ ...options, households: 300, chunkSize: 300 });
    const chunk = chunks[0]!;
    let inBand = 0;
    let outOfBand = 0;
    let nonModel = 0;
    chunk.accounts.forEach((account, a) => {
      if (account.model_id === null) return;
      const positions = chunk.positions.filter((p) => p.account_id === a);
      const value = (p: (typeof positions)[number]) => (p.shares_micros / 1e6) * (firm.products[p.product_id]!.price_micros! / 1e6);
      const total = positions.reduce((s, p) => s + value(p), 0) + account.cash_cents / 100;
      const allocations = firm.model_allocations.filter((m) => m.model_id === account.model_id);
      for (const p of positions) {
        const target = allocations.find((m) => m.product_id === p.product_id);
        if (!target) {
          nonModel++;
          continue;
        }
        const weight = (value(p) / total) * 100;
        if (weight < target.target_pct - target.lower_pct || weight > target.target_pct + target.upper_pct) outOfBand++;
        else inBand++;
      }
    });
    expect(inBand).toBeGreaterThan(0);
    expect(outOfBand).toBeGreaterThan(0);
    expect(nonModel).toBeGreaterThan(0);
  });

  it('gives every account a unique number', () => {
    const { chunks } = generate(options);
    const numbers = chunks.flatMap((c) => c.accounts.map((a) => a.number));
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});
