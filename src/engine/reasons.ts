// Readable trade reasons. Built only when a trade is actually recorded, since
// string formatting is a visible share of the per-account cost.

import { fixed1, formatBand, formatDollars, formatPct } from './money.js';

/** What a reason reads of the account and its line: stated here so that state.ts, which builds the
 * account, can use reasons without the two importing each other. */
interface AccountState {
  investable: number;
  settings: { amount: number; exactTrades: boolean };
}
interface Line {
  value: number;
  ticker: string;
  targetPct: number;
  inModel: boolean;
  lowerPct: number;
  upperPct: number;
}

export const Why = {
  Drift: 0,
  CashShort: 1,
  CashShortHardToSell: 2,
  ExcessCash: 3,
  WithdrawPrioritySell: 4,
  WithdrawOverweight: 5,
  WithdrawProRata: 6,
  WithdrawHardToSell: 7,
  AddUnderweight: 8,
  AddProRata: 9,
  SellAll: 10,
} as const;
export type WhyCode = (typeof Why)[keyof typeof Why];

function weightVsTarget(st: AccountState, line: Line): string {
  const w = st.investable > 0 ? line.value / st.investable : 0;
  return `${line.ticker} ${formatPct(w)} vs ${fixed1(line.targetPct)}%`;
}

export function reasonText(st: AccountState, why: WhyCode, line: Line, ticker: string): string {
  const amount = why >= Why.WithdrawPrioritySell && why <= Why.AddProRata ? formatDollars(st.settings.amount) : '';
  switch (why) {
    case Why.Drift:
      if (!line.inModel) return `not in model: ${weightVsTarget(st, line)}`;
      if (st.settings.exactTrades) return `exact trade to target: ${weightVsTarget(st, line)}`;
      return `out of tolerance: ${weightVsTarget(st, line)} ${formatBand(line.lowerPct, line.upperPct)}`;
    case Why.CashShort:
      return `cash below target: sell overweight ${weightVsTarget(st, line)}`;
    case Why.CashShortHardToSell:
      return `cash below target: hard to sell ${ticker}, no other source`;
    case Why.ExcessCash:
      return `excess cash: buy underweight ${weightVsTarget(st, line)}`;
    case Why.WithdrawPrioritySell:
      return `withdraw ${amount}: priority sell ${ticker}`;
    case Why.WithdrawOverweight:
      return `withdraw ${amount}: overweight ${weightVsTarget(st, line)}`;
    case Why.WithdrawProRata:
      return `withdraw ${amount}: pro rata to target ${line.ticker} ${fixed1(line.targetPct)}%`;
    case Why.WithdrawHardToSell:
      return `withdraw ${amount}: hard to sell ${ticker}, no other source`;
    case Why.AddUnderweight:
      return `add ${amount}: underweight ${weightVsTarget(st, line)}`;
    case Why.AddProRata:
      return `add ${amount}: pro rata to target ${line.ticker} ${fixed1(line.targetPct)}%`;
    case Why.SellAll:
      return `withdraw 100%: sell all ${ticker}`;
  }
  return '';
}
