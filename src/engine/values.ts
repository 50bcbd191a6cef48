// Account values: which pending items count, protected (set aside) cash and
// trade blocks. Kept apart from the trading logic because the trading API
// shows these numbers to users before any trade exists.

import type { AccountSnapshot, AssetValues, SetAsideCash, TradeBlock } from './types.js';
import { EntityEnum } from '../shared/entity-enum.js';

export interface CountedItems {
  readonly pending: boolean;
  readonly orders: boolean;
}

export function countedItems(assetValues: AssetValues, firmDefault: AccountSnapshot['firmDefaultAssetValues']): CountedItems {
  const mode = assetValues === 'UseDefault' ? (firmDefault ?? 'PendingTransactionsAndOrders') : assetValues;
  return { pending: mode !== 'Current', orders: mode === 'PendingTransactionsAndOrders' };
}

/** A record protects cash when it is not deleted or expired and its dates cover the run date. */
export function isSetAsideActive(rec: SetAsideCash, asOfDate: string): boolean {
  if (rec.isDeleted || rec.isExpired) return false;
  if (rec.startDate && rec.startDate.slice(0, 10) > asOfDate) return false;
  if (rec.expirationTypeId === 1 && rec.expirationDate && rec.expirationDate.slice(0, 10) < asOfDate) return false;
  return true;
}

export interface ValueBases {
  /** Managed value: positions plus counted cash. */
  readonly managed: number;
  readonly excluded: number;
}

export function setAsideAmount(rec: SetAsideCash, bases: ValueBases): number {
  let amount: number;
  if (rec.cashAmountTypeId === 1) {
    amount = rec.cashAmount;
  } else {
    const kind = rec.percentCalculationTypeId ?? 0;
    const base = kind === 1 ? bases.managed + bases.excluded : kind === 2 ? bases.excluded : bases.managed;
    amount = (base * rec.cashAmount) / 100;
  }
  if (rec.minCashAmount != null && amount < rec.minCashAmount) amount = rec.minCashAmount;
  // A stored max of 0 means "no maximum" in the set aside screens, not "protect nothing".
  if (rec.maxCashAmount != null && rec.maxCashAmount > 0 && amount > rec.maxCashAmount) amount = rec.maxCashAmount;
  return amount > 0 ? amount : 0;
}

export function protectedCash(records: readonly SetAsideCash[] | undefined, asOfDate: string, bases: ValueBases): number {
  if (!records || records.length === 0) return 0;
  let total = 0;
  for (const rec of records) if (isSetAsideActive(rec, asOfDate)) total += setAsideAmount(rec, bases);
  return total;
}

/**
 * The block that stops this account, if any. Date ranges are already folded
 * into `isDisabled` by the trade block service (a firm option decides whether
 * dates matter), so the engine does not judge dates again. Lowest id wins so
 * the warning is the same on every run.
 */
export function activeTradeBlock(
  blocks: readonly TradeBlock[] | undefined,
  accountId: number,
  registrationId: number | null | undefined,
): TradeBlock | null {
  if (!blocks) return null;
  let found: TradeBlock | null = null;
  for (const b of blocks) {
    if (b.isDeleted || b.isDisabled) continue;
    const hits = (b.entityEnum === EntityEnum.Account && b.entityId === accountId) || (b.entityEnum === EntityEnum.Registration && registrationId != null && b.entityId === registrationId);
    if (hits && (found === null || b.id < found.id)) found = b;
  }
  return found;
}
