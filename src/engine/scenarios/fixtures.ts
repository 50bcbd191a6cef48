// Shared builders for the scenario tests: a small product universe and terse
// constructors, so each scenario reads like the case a portfolio manager describes.

import type { AccountResult, AccountSnapshot, Model, ModelTarget, Product, ProductType } from '../types.js';

function product(id: number, ticker: string, type: ProductType, price: number | null, fractionalShares = false): Product {
  return { id, ticker, type, price, fractionalShares };
}

export const VTI = product(1, 'VTI', 'ETF', 200);
export const BND = product(2, 'BND', 'ETF', 80);
export const VXUS = product(3, 'VXUS', 'ETF', 60);
export const VFIAX = product(4, 'VFIAX', 'MutualFund', 450);
export const AAPL = product(5, 'AAPL', 'Equity', 150);
export const MSFT = product(6, 'MSFT', 'Equity', 400);
export const ITOT = product(7, 'ITOT', 'ETF', 100);
export const SCHB = product(8, 'SCHB', 'ETF', 50);
export const NOPX = product(9, 'NOPX', 'Equity', null);
export const GE = product(10, 'GE', 'Equity', 10);

export const PRODUCTS: ReadonlyMap<number, Product> = new Map([VTI, BND, VXUS, VFIAX, AAPL, MSFT, ITOT, SCHB, NOPX, GE].map((p) => [p.id, p]));

/** `[product, target %, tolerance ±]` rows; equivalents and priorities via `extra`. */
export function model(rows: ReadonlyArray<readonly [Product, number, number, Partial<ModelTarget>?]>, cashTargetPercent: number, extra: Partial<Model> = {}): Model {
  return {
    id: 100,
    name: 'Test model',
    cashTargetPercent,
    targets: rows.map(([p, target, tol, more]) => ({ productId: p.id, targetPercent: target, lowerTolerance: tol, upperTolerance: tol, ...more })),
    ...extra,
  };
}

export function account(holdings: ReadonlyArray<readonly [Product, number]>, cash: number, m: Model | null, extra: Partial<AccountSnapshot> = {}): AccountSnapshot {
  return {
    accountId: 1,
    asOfDate: '2024-06-28',
    products: PRODUCTS,
    positions: holdings.map(([p, shares]) => ({ productId: p.id, shares, costBasis: null })),
    custodialCash: cash,
    model: m,
    ...extra,
  };
}

/** Trades as compact rows: `Sell VTI 10 @200 = 2000`. */
export function rows(result: AccountResult): string[] {
  return result.trades.map((t) => `${t.side} ${t.ticker} ${t.shares} @${t.price} = ${t.estimatedAmount}`);
}

export function codes(result: AccountResult): string[] {
  return result.messages.map((m) => `${m.severity}:${m.code}`);
}
