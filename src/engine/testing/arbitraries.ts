// fast-check generators of random portfolios for the property tests: zero
// cash, single positions, unheld model products, non-model holdings,
// fractional shares, tiny and huge values.

import fc from 'fast-check';
import type { AccountSnapshot, Model, Position, Product, ProductType, SetAsideCash } from '../types.js';

export interface GenOptions {
  /** Allow unheld model products without a price (they yield Error messages). */
  readonly nullPrices?: boolean;
  /** Smallest tolerance band drawn, in percentage points. */
  readonly minTolerance?: number;
}

const TYPES: ProductType[] = ['Equity', 'ETF', 'MutualFund', 'FixedIncome'];

const priceArb = fc.oneof(
  { weight: 1, arbitrary: fc.double({ min: 0.01, max: 1, noNaN: true }) },
  { weight: 6, arbitrary: fc.double({ min: 1, max: 1000, noNaN: true }) },
  { weight: 1, arbitrary: fc.double({ min: 1000, max: 200000, noNaN: true }) },
).map((p) => Math.round(p * 10000) / 10000);

const sharesArb = fc.oneof(
  { weight: 2, arbitrary: fc.constant(0) },
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 5000 }) },
  { weight: 2, arbitrary: fc.double({ min: 0.001, max: 100, noNaN: true }).map((s) => Math.round(s * 1000) / 1000) },
  { weight: 1, arbitrary: fc.integer({ min: 100000, max: 5_000_000 }) },
);

const cashArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 6, arbitrary: fc.double({ min: 0, max: 100000, noNaN: true }).map((c) => Math.round(c * 100) / 100) },
  { weight: 1, arbitrary: fc.double({ min: 0, max: 1e9, noNaN: true }).map((c) => Math.round(c * 100) / 100) },
);

interface RawProduct {
  type: ProductType;
  price: number;
  fractional: boolean;
  inModel: boolean;
  weight: number;
  tol: number;
  shares: number;
  nullPrice: boolean;
}

const rawProductArb = (minTol: number) => fc.record({
  type: fc.constantFrom(...TYPES),
  price: priceArb,
  fractional: fc.boolean(),
  inModel: fc.boolean(),
  weight: fc.integer({ min: 1, max: 100 }),
  tol: fc.constantFrom(0, 0.5, 1, 2, 5).map((t) => Math.max(t, minTol)),
  shares: sharesArb,
  nullPrice: fc.boolean(),
});

export function accountArb(opts: GenOptions = {}): fc.Arbitrary<AccountSnapshot> {
  return fc
    .record({
      raw: fc.array(rawProductArb(opts.minTolerance ?? 0), { minLength: 1, maxLength: 10 }),
      cash: cashArb,
      cashPct: fc.constantFrom(0, 1, 2, 5, 10),
      cashTol: fc.constantFrom(0, 1),
      setAside: fc.option(fc.record({ type: fc.constantFrom(1 as const, 2 as const), amount: fc.integer({ min: 0, max: 20000 }) }), { nil: null }),
    })
    .map(({ raw, cash, cashPct, cashTol, setAside }) => {
      const products = new Map<number, Product>();
      const positions: Position[] = [];
      const modelRows: RawProduct[] = [];
      raw.forEach((r, i) => {
        const id = 10 + i;
        const held = r.shares > 0;
        const noPrice = opts.nullPrices === true && r.nullPrice && !held && r.inModel;
        products.set(id, { id, ticker: `P${id}`, type: r.type, price: noPrice ? null : r.price, fractionalShares: r.fractional });
        if (held) positions.push({ productId: id, shares: r.shares, costBasis: r.shares * r.price });
        if (r.inModel) modelRows.push(r);
      });
      const totalWeight = modelRows.reduce((s, r) => s + r.weight, 0);
      let assigned = 0;
      const targets = raw
        .map((r, i) => ({ r, id: 10 + i }))
        .filter((x) => x.r.inModel)
        .map((x, k, arr) => {
          // The last target takes the remainder so the model totals exactly 100.
          const pct = k === arr.length - 1 ? Math.round((100 - cashPct - assigned) * 1e6) / 1e6 : Math.round(((100 - cashPct) * x.r.weight * 1e4) / totalWeight) / 1e4;
          assigned += pct;
          return { productId: x.id, targetPercent: pct, lowerTolerance: x.r.tol, upperTolerance: x.r.tol };
        });
      const model: Model = { id: 1, name: 'random', targets, cashTargetPercent: targets.length > 0 ? cashPct : 100, cashUpperTolerance: cashTol };
      const setAsideCash: SetAsideCash[] = setAside
        ? [{ id: 1, cashAmountTypeId: setAside.type, cashAmount: setAside.type === 1 ? setAside.amount : setAside.amount / 1000, expirationTypeId: 3 }]
        : [];
      return { accountId: 1, asOfDate: '2024-06-28', products, positions, custodialCash: cash, model, setAsideCash };
    });
}
