// Emits the account result: trades in a fixed order (sells, then buys, each by
// ticker then product id), weights before and after, and the cash summary.

import type { AccountState } from './state.js';
import { sellLots } from './tax/trade-lots.js';
import type { AccountResult, EngineMessage, RebalanceType, Trade, WeightRow } from './types.js';

function byTicker(a: Trade, b: Trade): number {
  return a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : a.productId - b.productId;
}

function isSorted(trades: Trade[]): boolean {
  for (let i = 1; i < trades.length; i++) if (byTicker(trades[i - 1] as Trade, trades[i] as Trade) > 0) return false;
  return true;
}

export function finishState(st: AccountState): AccountResult {
  const accountId = st.snap.accountId;
  const sells: Trade[] = [];
  const buys: Trade[] = [];
  let positionsAfter = 0;
  for (const line of st.lines) {
    let v = 0;
    for (const h of line.holdings) {
      v += (h.shares - h.sold) * h.price;
      if (h.sold > 0) {
        const lots = h.lotSource === null ? null : sellLots(h, h.price);
        // One literal each, with the fields in the same order: fields added to an object after it is
        // made move them to a second store (an allocation for each tax-aware sell).
        const sell: Trade =
          lots === null
            ? { accountId, productId: h.product.id, ticker: h.product.ticker, side: 'Sell', shares: h.sold, estimatedAmount: h.soldCents / 100, price: h.price, reason: h.reason }
            : {
                accountId,
                productId: h.product.id,
                ticker: h.product.ticker,
                side: 'Sell',
                shares: h.sold,
                estimatedAmount: h.soldCents / 100,
                price: h.price,
                reason: h.reason,
                lots: lots.lots,
                estimatedShortTermGain: lots.estimatedShortTermGain,
                estimatedLongTermGain: lots.estimatedLongTermGain,
              };
        sells.push(sell);
      }
    }
    const bp = line.buyProduct;
    if (line.bought > 0 && bp) {
      v += line.bought * (bp.price as number);
      // A tax-aware run says when a wash-sale rule moved the buy to this product.
      const reason = line.washMovedFrom === null ? line.buyReason : `${line.buyReason}; ${bp.ticker} instead of ${line.washMovedFrom.ticker}: ${line.washCause} (wash-sale rule)`;
      buys.push({ accountId, productId: bp.id, ticker: bp.ticker, side: 'Buy', shares: line.bought, estimatedAmount: line.boughtCents / 100, price: bp.price as number, reason });
    }
    line.afterValue = v;
    positionsAfter += v;
  }
  // Lines are already in ticker order; only equivalents can break it.
  if (!isSorted(sells)) sells.sort(byTicker);
  if (!isSorted(buys)) buys.sort(byTicker);
  const cashAfter = st.cashNow();
  st.valueAfterTrades = positionsAfter + cashAfter;
  const I0 = st.investable;
  const I1 = Math.max(0, positionsAfter + cashAfter - st.protectedCash);
  // Only a reader of the result (a test, a preview) looks at weights, never the batch writer: a
  // row object per line for every account of a batch cost ~6 % of a rebalance. The lines return to
  // a pool when the account is done, so their numbers are copied now and made into rows on first read.
  const n = st.lines.length;
  const numbers: number[] = new Array<number>(n * LINE_NUMBERS);
  const tickers: string[] = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const line = st.lines[i] as (typeof st.lines)[number];
    const at = i * LINE_NUMBERS;
    numbers[at] = line.key;
    numbers[at + 1] = line.inModel ? 1 : 0;
    numbers[at + 2] = line.targetPct;
    numbers[at + 3] = line.lowerPct;
    numbers[at + 4] = line.upperPct;
    numbers[at + 5] = line.value;
    numbers[at + 6] = line.afterValue;
    tickers[i] = line.ticker;
  }
  let rows: readonly WeightRow[] | undefined;
  for (const b of buys) sells.push(b);
  const trades = sells;
  const freeBefore = st.cashBefore - st.protectedCash;
  const freeAfter = cashAfter - st.protectedCash;
  return {
    accountId,
    reason: st.settings.reason,
    trades,
    messages: st.messages,
    hasError: hasError(st.messages),
    accountValue: st.accountValue,
    investableValue: I0,
    cash: {
      before: st.cashBefore,
      after: cashAfter,
      target: st.cashTarget,
      protected: st.protectedCash,
      weightBefore: I0 > 0 ? (freeBefore / I0) * 100 : 0,
      weightAfter: I1 > 0 ? (freeAfter / I1) * 100 : 0,
      targetPercent: st.cashTargetFraction * 100,
    },
    get weights() {
      return (rows ??= weightRows(numbers, tickers, I0, I1));
    },
  };
}

/** Numbers copied per line for its weight row: key, inModel, target, lower, upper, value before, value after. */
const LINE_NUMBERS = 7;

function weightRows(numbers: readonly number[], tickers: readonly string[], I0: number, I1: number): WeightRow[] {
  return tickers.map((ticker, i) => {
    const at = i * LINE_NUMBERS;
    const valueBefore = numbers[at + 5] as number;
    const valueAfter = numbers[at + 6] as number;
    return {
      productId: numbers[at] as number,
      ticker,
      inModel: numbers[at + 1] === 1,
      targetPercent: numbers[at + 2] as number,
      lowerTolerance: numbers[at + 3] as number,
      upperTolerance: numbers[at + 4] as number,
      valueBefore,
      valueAfter,
      weightBefore: I0 > 0 ? (valueBefore / I0) * 100 : 0,
      weightAfter: I1 > 0 ? (valueAfter / I1) * 100 : 0,
    };
  });
}

export function hasError(messages: readonly EngineMessage[]): boolean {
  for (const m of messages) if (m.severity === 'Error') return true;
  return false;
}

/** A result with no trades, for an account that could not be rebalanced. */
export function errorResult(accountId: number, reason: RebalanceType, messages: readonly EngineMessage[]): AccountResult {
  return {
    accountId,
    reason,
    trades: [],
    messages,
    hasError: hasError(messages),
    accountValue: 0,
    investableValue: 0,
    cash: { before: 0, after: 0, target: 0, protected: 0, weightBefore: 0, weightAfter: 0, targetPercent: 0 },
    weights: [],
  };
}

/** The Error result for a key that names no known account (the caller resolves keys). */
export function unknownAccountResult(accountId: number, reason: RebalanceType): AccountResult {
  return errorResult(accountId, reason, [{ accountId, severity: 'Error', code: 'UNKNOWN_ACCOUNT', message: `account ${accountId} does not exist` }]);
}
