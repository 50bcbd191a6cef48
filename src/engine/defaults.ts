// What a rebalance does with an option its request leaves out (spec 2.9), declared once: the
// engine applies these, and the trading definition route shows them to a desk.

import type { RebalanceOptions } from './types.js';

export const REBALANCE_DEFAULTS = {
  exactTrades: false,
  maxTrades: 1000,
  minTradeAmount: 0,
  minTradePercent: 0,
  roundingLogic: 'Default',
  assetValues: 'PendingTransactionsAndOrders',
  includeCustodialCash: true,
  useProductSubstitution: 'Use',
} as const satisfies Required<Omit<RebalanceOptions, 'reason' | 'amount' | 'taxOptions'>>;
