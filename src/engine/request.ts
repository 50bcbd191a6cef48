// Turning a rebalance request (spec 2.9) into per-account options. Request
// errors are the caller's 400; the engine only checks what it needs.

import { REBALANCE_TYPES, type AssetValues, type RebalanceOptions, type RebalanceType, type RoundingLogic } from './types.js';

export interface RebalanceRequest {
  readonly reason: RebalanceType;
  readonly entity?: 'Account' | 'TradeGroup' | 'ModelAgg';
  readonly keys: readonly number[];
  readonly amounts?: readonly number[] | null;
  readonly level?: 'Account' | 'Registration';
  readonly exactTrades?: boolean;
  readonly maxTrades?: number;
  readonly minTradeAmount?: number;
  readonly minTradePercent?: number;
  readonly roundingLogic?: RoundingLogic;
  readonly assetValues?: AssetValues;
  readonly includeCustodialCash?: boolean;
  readonly useProductSubstitution?: 'Use' | 'Ignore';
}

export type ResolvedRequest =
  | { readonly ok: true; readonly perKey: ReadonlyMap<number, RebalanceOptions> }
  | { readonly ok: false; readonly errors: readonly string[] };

/** Validates a request and matches `amounts[i]` to `keys[i]`; errors mean HTTP 400. */
export function resolveRequest(req: RebalanceRequest): ResolvedRequest {
  const errors: string[] = [];
  if (!REBALANCE_TYPES.includes(req.reason)) errors.push(`reason must be one of ${REBALANCE_TYPES.join(', ')}`);
  const needsAmounts = req.reason === 'Add' || req.reason === 'Withdraw';
  if (needsAmounts) {
    if ((req.entity ?? 'Account') !== 'Account') errors.push(`${req.reason} accepts only entity = Account`);
    const amounts = req.amounts ?? [];
    if (amounts.length !== req.keys.length) errors.push(`amounts has ${amounts.length} values for ${req.keys.length} keys`);
    for (const a of amounts) if (!Number.isFinite(a) || a < 0) errors.push(`amount ${a} must be a non-negative number`);
  }
  if (req.maxTrades !== undefined && (!Number.isInteger(req.maxTrades) || req.maxTrades < 0)) errors.push('maxTrades must be a non-negative integer');
  if (req.minTradeAmount !== undefined && !(req.minTradeAmount >= 0)) errors.push('minTradeAmount must be >= 0');
  if (req.minTradePercent !== undefined && !(req.minTradePercent >= 0)) errors.push('minTradePercent must be >= 0');
  if (errors.length > 0) return { ok: false, errors };
  const perKey = new Map<number, RebalanceOptions>();
  req.keys.forEach((key, i) => {
    perKey.set(key, {
      reason: req.reason,
      amount: needsAmounts ? req.amounts?.[i] : undefined,
      exactTrades: req.exactTrades,
      maxTrades: req.maxTrades,
      minTradeAmount: req.minTradeAmount,
      minTradePercent: req.minTradePercent,
      roundingLogic: req.roundingLogic,
      assetValues: req.assetValues,
      includeCustodialCash: req.includeCustodialCash,
      useProductSubstitution: req.useProductSubstitution,
    });
  });
  return { ok: true, perKey };
}
