import type { AssetValues, LotSelection, ProductSubstitutionUse, RoundingLogic } from './types.js';

/**
 * What a rebalance does with an option left out (spec 2.9): the one list of those defaults. The
 * engine reads an absent option as this value, the request schema declares it as the field's
 * `default` (so the OpenAPI says it), and TradeDefinition answers it.
 */
export const REBALANCE_DEFAULTS = {
  maxTrades: 1000,
  minTradePercent: 0,
  minTradeAmount: 0,
  exactTrades: false,
  level: 'Account' as 'Account' | 'Registration',
  assetValues: 'PendingTransactionsAndOrders' as AssetValues,
  useProductSubstitution: 'Use' as ProductSubstitutionUse,
  includeCustodialCash: true,
  roundingLogic: 'Default' as RoundingLogic,
  disableRealTimePrices: false,
} as const;

/** The tax-aware options left out of a `taxOptions` object (design tax-aware.md). */
export const TAX_DEFAULTS = {
  lotSelection: 'MinTax' as LotSelection,
  avoidWashSales: true,
  maxShortTermGain: null,
  maxLongTermGain: null,
  harvestLosses: null,
} as const;
