// Tax-aware rebalancing: the examples and rules of docs/tax-aware.md as trade rows.
import { describe, expect, test } from 'vitest';
import { rebalanceHousehold, type AccountSnapshot, type HouseholdSnapshot, type RebalanceOptions, type TaxLot, type TaxOptions, type Trade } from '../index.js';
import { account, BND, codes, model, PRODUCTS, rows, SCHB, VFIAX, VTI } from './fixtures.js';

const AS_OF = '2024-06-28';

function household(accounts: AccountSnapshot[], extra: Partial<HouseholdSnapshot> = {}): HouseholdSnapshot {
  return { householdId: 7, asOfDate: AS_OF, accounts, realizedShortTermGain: 0, realizedLongTermGain: 0, recentTrades: [], ...extra };
}

function run(hh: HouseholdSnapshot, tax: TaxOptions, options: Omit<RebalanceOptions, 'taxOptions'> = { reason: 'NeedReview' }) {
  return rebalanceHousehold(hh, () => ({ ...options, taxOptions: tax }), tax);
}

/** `L12 10 Short -300` per lot of a sell. */
function lotRows(t: Trade | undefined): string[] {
  return (t?.lots ?? []).map((l) => `L${l.taxLotId} ${l.shares} ${l.term} ${l.estimatedGain}${l.washSale ? ' wash' : ''}`);
}

function withLots(base: AccountSnapshot, productId: number, lots: TaxLot[], extra: Partial<AccountSnapshot> = {}): AccountSnapshot {
  const shares = lots.reduce((s, l) => s + l.shares, 0);
  return { ...base, positions: [{ productId, shares, costBasis: lots.reduce((s, l) => s + l.costBasis, 0), taxLots: lots }, ...base.positions], ...extra };
}

describe('lot selection (the page example: price 200, selling 15 shares)', () => {
  // L1 long-term gain 50/sh, L2 short-term loss 30/sh, L3 short-term gain 10/sh.
  const lots: TaxLot[] = [
    { id: 1, shares: 10, costBasis: 1500, acquiredOn: '2022-06-01' },
    { id: 2, shares: 10, costBasis: 2300, acquiredOn: '2024-04-28' },
    { id: 3, shares: 10, costBasis: 1900, acquiredOn: '2023-12-28' },
  ];
  // 30 VTI (6,000) and 6,000 cash against VTI 25 % / BND 75 %: sell 15 VTI, buy BND.
  const snap = withLots(account([], 6000, model([[VTI, 25, 1], [BND, 75, 1]], 0)), VTI.id, lots);

  test('MinTax relieves L2 10 + L1 5 (short-term −300, long-term +250)', () => {
    const sell = run(household([snap]), { lotSelection: 'MinTax' }).accounts[0]!.trades[0];
    expect(rows({ trades: [sell!] } as never)).toEqual(['Sell VTI 15 @200 = 3000']);
    expect(lotRows(sell)).toEqual(['L2 10 Short -300', 'L1 5 Long 250']);
    expect([sell?.estimatedShortTermGain, sell?.estimatedLongTermGain]).toEqual([-300, 250]);
  });

  test('HIFO relieves L2 10 + L3 5 (short-term −250)', () => {
    const sell = run(household([snap]), { lotSelection: 'HIFO' }).accounts[0]!.trades[0];
    expect(lotRows(sell)).toEqual(['L2 10 Short -300', 'L3 5 Short 50']);
    expect([sell?.estimatedShortTermGain, sell?.estimatedLongTermGain]).toEqual([-250, 0]);
  });

  test('FIFO relieves L1 10 + L3 5 (long-term +500, short-term +50)', () => {
    const sell = run(household([snap]), { lotSelection: 'FIFO' }).accounts[0]!.trades[0];
    expect(lotRows(sell)).toEqual(['L1 10 Long 500', 'L3 5 Short 50']);
  });

  test('a harvest skipped for want of a replacement keeps the FIFO order: L1 10 + L3 5', () => {
    const result = run(household([snap]), { lotSelection: 'FIFO', harvestLosses: { minLossDollars: 250, minLossPercent: 0 } });
    const a = result.accounts[0]!;
    expect(codes(a)).toContain('Info:HARVEST_SKIPPED');
    expect(lotRows(a.trades[0])).toEqual(['L1 10 Long 500', 'L3 5 Short 50']);
  });

  test('a tax-deferred account sells the same shares and reports no lots or gains', () => {
    const result = run(household([{ ...snap, taxStatus: 'TaxDeferred' }]), {});
    expect(rows(result.accounts[0]!)).toEqual(['Sell VTI 15 @200 = 3000', 'Buy BND 112 @80 = 8960']);
    expect(result.accounts[0]!.trades[0]!.lots).toBeUndefined();
    expect(result.summary).toMatchObject({ shortTermGain: 0, longTermGain: 0 });
  });
});

describe('gains budget', () => {
  // 100 VTI, one long-term lot at 150/sh; NeedReview wants to sell 50.
  const lot: TaxLot[] = [{ id: 9, shares: 100, costBasis: 15000, acquiredOn: '2020-01-15' }];
  const snap = withLots(account([], 20000, model([[VTI, 25, 1], [BND, 75, 1]], 0)), VTI.id, lot);

  test('the page example: 20 of 50 shares sold (gain 1,000), 30 stay with a Warning', () => {
    const result = run(household([snap]), { maxLongTermGain: 1000 });
    const a = result.accounts[0]!;
    expect(rows(a)[0]).toBe('Sell VTI 20 @200 = 4000');
    expect(a.messages.find((m) => m.code === 'TAX_BUDGET_CUT')?.message).toBe('30 shares of VTI not sold: 1,500.00 long-term gain over budget');
    expect(result.summary).toMatchObject({ longTermGain: 1000, budgetCuts: 1 });
  });

  test('gains realized earlier this year count against the budget', () => {
    const result = run(household([snap], { realizedLongTermGain: 600 }), { maxLongTermGain: 1000 });
    expect(rows(result.accounts[0]!)[0]).toBe('Sell VTI 8 @200 = 1600');
  });

  test('a loss sold in an earlier account of the household raises what is left', () => {
    const loser = withLots({ ...account([], 0, model([[VTI, 25, 1], [BND, 75, 1]], 0)), accountId: 1 }, BND.id, [{ id: 20, shares: 100, costBasis: 10000, acquiredOn: '2020-01-15' }]);
    // Account 1 holds only BND (at a long-term loss of 20/sh) and sells 25 of it for VTI.
    const result = run(household([{ ...snap, accountId: 2 }, loser]), { maxLongTermGain: 1000, avoidWashSales: false });
    const [first, second] = result.accounts;
    expect(first!.accountId).toBe(1);
    expect(rows(first!)[0]).toBe('Sell BND 25 @80 = 2000');
    expect(rows(second!)[0]).toBe('Sell VTI 30 @200 = 6000');
  });

  test('a Withdraw raises its cash anyway, with a Warning naming the excess', () => {
    const result = run(household([withLots(account([], 0, model([[VTI, 100, 1]], 0)), VTI.id, lot)]), { maxLongTermGain: 1000 }, { reason: 'Withdraw', amount: 10000 });
    const a = result.accounts[0]!;
    expect(rows(a)).toEqual(['Sell VTI 50 @200 = 10000']);
    expect(a.messages.find((m) => m.code === 'TAX_BUDGET_EXCEEDED')?.message).toBe("the Withdraw sells exceed the household's gains budget by 1,500.00 long-term");
  });
});

const WITH_SCHB = model([[VTI, 50, 1, { equivalents: [SCHB.id] }], [BND, 50, 1]], 0);

describe('wash sales', () => {
  test('rule 1: after a loss sale of VTI in the household the buy moves to SCHB', () => {
    const snap = account([[BND, 250]], 20000, WITH_SCHB);
    const result = run(household([snap], { recentTrades: [{ productId: VTI.id, date: '2024-06-10', kind: 'LossSale' }] }), {});
    const a = result.accounts[0]!;
    expect(rows(a)).toEqual(['Buy SCHB 400 @50 = 20000']);
    expect(a.messages.find((m) => m.code === 'WASH_SALE_MOVED')?.message).toBe('buy of VTI moved to SCHB: VTI was sold at a loss in the household within 30 days');
    expect(result.summary.washSaleMoves).toBe(1);
  });

  test('rule 1 without an equivalent: the money stays in cash with a Warning', () => {
    const snap = account([[BND, 250]], 20000, model([[VTI, 50, 1], [BND, 50, 1]], 0));
    const a = run(household([snap], { recentTrades: [{ productId: VTI.id, date: '2024-06-10', kind: 'LossSale' }] }), {}).accounts[0]!;
    expect(rows(a)).toEqual([]);
    expect(codes(a)).toContain('Warning:WASH_SALE_CASH');
  });

  test('a loss sale 31 days ago does not stop the buy', () => {
    const snap = account([[BND, 250]], 20000, WITH_SCHB);
    const a = run(household([snap], { recentTrades: [{ productId: VTI.id, date: '2024-05-28', kind: 'LossSale' }] }), {}).accounts[0]!;
    expect(rows(a)).toEqual(['Buy VTI 100 @200 = 20000']);
  });

  test('a shared wash-sale group counts as the same product', () => {
    const products = new Map(PRODUCTS);
    products.set(SCHB.id, { ...SCHB, washSaleGroup: 'US total market' });
    products.set(VTI.id, { ...VTI, washSaleGroup: 'US total market' });
    // A model of its own: line templates keep the products of the catalog they were first built with.
    const snap = { ...account([[BND, 250]], 20000, model([[VTI, 50, 1, { equivalents: [SCHB.id] }], [BND, 50, 1]], 0)), products };
    const a = run(household([snap], { recentTrades: [{ productId: VTI.id, date: '2024-06-10', kind: 'LossSale' }] }), {}).accounts[0]!;
    expect(rows(a)).toEqual([]);
    expect(codes(a)).toContain('Warning:WASH_SALE_CASH');
  });

  // 60 VTI over target: 30 shares at a loss (lot 1), 30 at a gain (lot 2).
  const mixed: TaxLot[] = [
    { id: 1, shares: 30, costBasis: 7500, acquiredOn: '2023-01-10' },
    { id: 2, shares: 30, costBasis: 4500, acquiredOn: '2023-01-11' },
  ];

  test('rule 2: VTI bought in the IRA 10 days ago: the taxable account sells only its gain lot', () => {
    const taxable = withLots({ ...account([], 4000, model([[VTI, 25, 1], [BND, 75, 1]], 0)), accountId: 1 }, VTI.id, mixed);
    const ira = withLots({ ...account([], 0, model([[VTI, 100, 1]], 0)), accountId: 2, taxStatus: 'TaxDeferred' }, VTI.id, [{ id: 5, shares: 10, costBasis: 2000, acquiredOn: '2024-06-18' }]);
    const a = run(household([taxable, ira]), {}).accounts[0]!;
    expect(rows(a)[0]).toBe('Sell VTI 30 @200 = 6000');
    expect(lotRows(a.trades[0])).toEqual(['L2 30 Long 1500']);
    expect(codes(a)).toContain('Info:WASH_SALE_KEPT');
  });

  test('rule 2 gives way to a withdrawal, with a Warning naming the disallowed loss', () => {
    const taxable = withLots(account([], 0, model([[VTI, 100, 1]], 0)), VTI.id, mixed);
    const a = run(household([taxable], { recentTrades: [{ productId: VTI.id, date: '2024-06-20', kind: 'Buy' }] }), {}, { reason: 'Withdraw', amount: 12000 }).accounts[0]!;
    expect(lotRows(a.trades[0])).toEqual(['L2 30 Long 1500', 'L1 30 Long -1500 wash']);
    expect(a.messages.find((m) => m.code === 'WASH_SALE_FORCED')?.message).toBe('sold 30 shares of VTI at a loss within 30 days of a buy in the household to raise cash: the loss of 1,500.00 will be disallowed (wash sale)');
  });

  test('rule 3: the IRA (planned first) would buy VTI that the taxable account sells at a loss: the buy moves', () => {
    const ira = { ...account([[BND, 125]], 10000, WITH_SCHB), accountId: 1, taxStatus: 'TaxDeferred' as const };
    const taxable = withLots({ ...account([], 0, model([[VTI, 25, 1], [BND, 75, 1]], 0)), accountId: 2 }, VTI.id, [{ id: 3, shares: 50, costBasis: 12500, acquiredOn: '2023-01-10' }]);
    const result = run(household([taxable, ira]), {});
    const [first, second] = result.accounts;
    expect(rows(first!)[0]).toBe('Buy SCHB 200 @50 = 10000');
    expect(rows(second!)[0]).toBe('Sell VTI 38 @200 = 7600');
    expect(lotRows(second!.trades[0])).toEqual(['L3 38 Long -1900']);
  });

  test('avoidWashSales false buys VTI anyway', () => {
    const snap = account([[BND, 250]], 20000, WITH_SCHB);
    const a = run(household([snap], { recentTrades: [{ productId: VTI.id, date: '2024-06-10', kind: 'LossSale' }] }), { avoidWashSales: false }).accounts[0]!;
    expect(rows(a)).toEqual(['Buy VTI 100 @200 = 20000']);
  });
});

describe('tax-loss harvesting', () => {
  // The page example: 100 VTI, one lot at 230/sh bought 60 days ago, price 200.
  const snap = withLots(account([], 0, model([[VTI, 100, 1, { equivalents: [SCHB.id] }]], 0)), VTI.id, [{ id: 4, shares: 100, costBasis: 23000, acquiredOn: '2024-04-29' }]);

  test('TaxLossHarvest sells the lot and buys 400 SCHB at 50, with an Info', () => {
    const result = run(household([snap]), { harvestLosses: { minLossDollars: 1000, minLossPercent: 0 } }, { reason: 'TaxLossHarvest' });
    const a = result.accounts[0]!;
    expect(rows(a)).toEqual(['Sell VTI 100 @200 = 20000', 'Buy SCHB 400 @50 = 20000']);
    expect(lotRows(a.trades[0])).toEqual(['L4 100 Short -3000']);
    expect(a.messages.find((m) => m.code === 'HARVESTED')?.message).toBe('harvested 3,000.00 short-term loss: VTI → SCHB');
    expect(result.summary).toMatchObject({ shortTermGain: -3000, harvestedLosses: 3000 });
    expect(a.trades[1]!.reason).toBe("tax-loss harvest: buy SCHB with the proceeds of VTI to keep the model's exposure");
  });

  test('below the thresholds nothing is harvested', () => {
    expect(run(household([snap]), { harvestLosses: { minLossDollars: 5000, minLossPercent: 0 } }, { reason: 'TaxLossHarvest' }).accounts[0]!.trades).toEqual([]);
    expect(run(household([snap]), { harvestLosses: { minLossDollars: 0, minLossPercent: 20 } }, { reason: 'TaxLossHarvest' }).accounts[0]!.trades).toEqual([]);
  });

  test("a lot summary that shows no lot can lose the minimum spares reading the lots; at the minimum they are read and harvested", () => {
    // The lot of 23,000 at 230/sh loses 13 % at 200: at most 3,000 (23,000 × 13 %) for any lot.
    let reads = 0;
    const summarized = (): AccountSnapshot => {
      const [position, ...rest] = snap.positions;
      const lots = position!.taxLots;
      const counted = { ...position!, lotsSummary: { maxCostPerShare: 230, latestAcquiredOn: '2024-04-29', maxLotCost: 23000 } };
      Object.defineProperty(counted, 'taxLots', { get: () => (reads++, lots) });
      return { ...snap, positions: [counted, ...rest] };
    };
    expect(run(household([summarized()]), { harvestLosses: { minLossDollars: 3000.01, minLossPercent: 5 } }, { reason: 'TaxLossHarvest' }).accounts[0]!.trades).toEqual([]);
    expect(reads).toBe(0);
    const a = run(household([summarized()]), { harvestLosses: { minLossDollars: 3000, minLossPercent: 5 } }, { reason: 'TaxLossHarvest' }).accounts[0]!;
    expect(rows(a)).toEqual(['Sell VTI 100 @200 = 20000', 'Buy SCHB 400 @50 = 20000']);
    expect(reads).toBeGreaterThan(0);
  });

  test('a configured harvest replacement wins over the equivalents', () => {
    const products = new Map(PRODUCTS);
    products.set(VTI.id, { ...VTI, harvestReplacementProductId: BND.id });
    const own = withLots(account([], 0, model([[VTI, 100, 1, { equivalents: [SCHB.id] }]], 0)), VTI.id, [{ id: 4, shares: 100, costBasis: 23000, acquiredOn: '2024-04-29' }]);
    const a = run(household([{ ...own, products }]), { harvestLosses: { minLossDollars: 1000, minLossPercent: 0 } }, { reason: 'TaxLossHarvest' }).accounts[0]!;
    expect(rows(a)).toEqual(['Sell VTI 100 @200 = 20000', 'Buy BND 250 @80 = 20000']);
  });

  test('without a replacement the harvest is skipped with an Info', () => {
    const alone = withLots(account([], 0, model([[VTI, 100, 1]], 0)), VTI.id, [{ id: 4, shares: 100, costBasis: 23000, acquiredOn: '2024-04-29' }]);
    const a = run(household([alone]), { harvestLosses: { minLossDollars: 1000, minLossPercent: 0 } }, { reason: 'TaxLossHarvest' }).accounts[0]!;
    expect(a.trades).toEqual([]);
    expect(codes(a)).toContain('Info:HARVEST_SKIPPED');
  });

  test('VTI bought in the household in the last 30 days is not harvested (rule 2)', () => {
    const a = run(household([snap], { recentTrades: [{ productId: VTI.id, date: '2024-06-20', kind: 'Buy' }] }), { harvestLosses: { minLossDollars: 1000, minLossPercent: 0 } }, { reason: 'TaxLossHarvest' }).accounts[0]!;
    expect(a.trades).toEqual([]);
  });

  test('never in a tax-deferred account', () => {
    const a = run(household([{ ...snap, taxStatus: 'TaxDeferred' }]), { harvestLosses: { minLossDollars: 1000, minLossPercent: 0 } }, { reason: 'TaxLossHarvest' }).accounts[0]!;
    expect(a.trades).toEqual([]);
  });

  test('on a NeedReview it harvests first, then rebalances; another account of the household does not buy VTI', () => {
    const other = { ...account([[BND, 125]], 10000, WITH_SCHB), accountId: 2, taxStatus: 'TaxExempt' as const };
    const result = run(household([snap, other]), { harvestLosses: { minLossDollars: 1000, minLossPercent: 0 } });
    expect(rows(result.accounts[0]!)).toEqual(['Sell VTI 100 @200 = 20000', 'Buy SCHB 400 @50 = 20000']);
    expect(rows(result.accounts[1]!)[0]).toBe('Buy SCHB 200 @50 = 10000');
  });
});

// VFIAX stands in for VTSAX: a fund of the same wash-sale group as VTI, under another ticker.
describe('wash-sale messages name the product actually sold and its account', () => {
  const grouped = () => {
    const products = new Map(PRODUCTS);
    products.set(VTI.id, { ...VTI, washSaleGroup: 'US total market' });
    products.set(VFIAX.id, { ...VFIAX, washSaleGroup: 'US total market' });
    return products;
  };
  const moved = (a: { messages: readonly { code: string; message: string }[] }) => a.messages.find((m) => m.code === 'WASH_SALE_MOVED')?.message;

  test('a loss sale of VFIAX in another account 12 days ago moves the buy of VTI; the message says VFIAX and where', () => {
    const products = grouped();
    const snap = { ...account([[BND, 250]], 20000, model([[VTI, 50, 1, { equivalents: [SCHB.id] }], [BND, 50, 1]], 0)), products, accountId: 3 };
    const result = run(household([snap], { recentTrades: [{ productId: VFIAX.id, date: '2024-06-16', kind: 'LossSale', accountId: 9 }] }), {});
    const a = result.accounts[0]!;
    expect(rows(a)).toEqual(['Buy SCHB 400 @50 = 20000']);
    expect(moved(a)).toBe('buy of VTI moved to SCHB: VFIAX (same wash-sale group as VTI) was sold at a loss in account 9 of the household within 30 days');
    expect(a.trades[0]!.reason).toMatch(/; SCHB instead of VTI: VFIAX \(same wash-sale group as VTI\) was sold at a loss in account 9 of the household within 30 days \(wash-sale rule\)$/);
  });

  test('sold at a loss in this batch by an earlier account of the household: that account is named', () => {
    const products = grouped();
    // Account 1 holds VFIAX at a loss (cost 500, price 450) outside its model and sells it all.
    const seller = withLots({ ...account([], 0, model([[BND, 100, 1]], 0)), products, accountId: 1 }, VFIAX.id, [{ id: 40, shares: 20, costBasis: 10000, acquiredOn: '2023-02-01' }]);
    const buyer = { ...account([[BND, 250]], 20000, model([[VTI, 50, 1, { equivalents: [SCHB.id] }], [BND, 50, 1]], 0)), products, accountId: 2 };
    const result = run(household([buyer, seller]), {});
    const [first, second] = result.accounts;
    expect(rows(first!)).toEqual(['Sell VFIAX 20 @450 = 9000', 'Buy BND 112 @80 = 8960']);
    expect(rows(second!)).toEqual(['Buy SCHB 400 @50 = 20000']);
    expect(moved(second!)).toBe('buy of VTI moved to SCHB: VFIAX (same wash-sale group as VTI) was sold at a loss in account 1 of the household within 30 days');
  });

  test('without an equivalent the Warning names the sale the same way; a sale of the product itself in this account says so', () => {
    const products = grouped();
    const noEquivalent = { ...account([[BND, 250]], 20000, model([[VTI, 50, 1], [BND, 50, 1]], 0)), products, accountId: 3 };
    const cash = run(household([noEquivalent], { recentTrades: [{ productId: VFIAX.id, date: '2024-06-16', kind: 'LossSale', accountId: 9 }] }), {}).accounts[0]!;
    expect(cash.messages.find((m) => m.code === 'WASH_SALE_CASH')?.message).toBe(
      'VTI not bought: VFIAX (same wash-sale group as VTI) was sold at a loss in account 9 of the household within 30 days, and no equivalent may be bought; its money stays in cash',
    );
    const same = { ...account([[BND, 250]], 20000, WITH_SCHB), accountId: 3 };
    const own = run(household([same], { recentTrades: [{ productId: VTI.id, date: '2024-06-16', kind: 'LossSale', accountId: 3 }] }), {}).accounts[0]!;
    expect(moved(own)).toBe('buy of VTI moved to SCHB: VTI was sold at a loss in this account within 30 days');
  });
});
