// One account, end to end: build the state, honour trade blocks, run the
// rebalance type, apply the trade filters, emit the result.

import { addBuys, withdrawAllSells, withdrawSells } from './cashflows.js';
import { buildState, retargetAfterTrades, settingsOf } from './build.js';
import { dropSmallBuys, dropSmallSells, enforceMaxTrades } from './filters.js';
import { needReviewBuys, needReviewSells } from './needreview.js';
import { errorResult, finishState } from './result.js';
import { releaseState, type AccountState } from './state.js';
import type { AccountResult, AccountSnapshot, RebalanceOptions, TradeBlock } from './types.js';
import { activeTradeBlock } from './values.js';
import { harvestLosses } from './tax/harvest.js';
import { taxNotes } from './tax/notes.js';
import type { TaxPlan } from './tax/plan.js';
import { EntityEnum } from '../shared/entity-enum.js';

/** Rebalances one account. Pure: the same snapshot and options always give the same result. */
export function rebalanceAccount(snapshot: AccountSnapshot, options: RebalanceOptions): AccountResult {
  return runAccount(snapshot, options, 0, null);
}

function blockText(b: TradeBlock): string {
  const what = b.entityEnum === EntityEnum.Registration ? `registration ${b.entityId}` : `account ${b.entityId}`;
  return `${what} is trade blocked (${b.reason}${b.description ? `: ${b.description}` : ''}); no trades`;
}

/**
 * `cashAdjustment` moves cash in or out before the rebalance (sleeve
 * transfers); `outerBlock` is a registration block found by the caller.
 */
export function runAccount(snap: AccountSnapshot, options: RebalanceOptions, cashAdjustment: number, outerBlock: TradeBlock | null, tax: TaxPlan | null = null): AccountResult {
  const settings = settingsOf(options, snap);
  const block = outerBlock ?? activeTradeBlock(snap.tradeBlocks, snap.accountId, snap.registrationId);
  const st = buildState(snap, settings, cashAdjustment, tax);
  if (block) {
    const warning = { accountId: snap.accountId, severity: 'Warning' as const, code: 'TRADE_BLOCKED', message: blockText(block) };
    // A blocked account is not being traded, so data problems that would stop
    // a rebalance (no model yet, a missing price) are not batch errors here.
    if (st.failed) return done(st, errorResult(snap.accountId, settings.reason, [warning]));
    st.messages.push(warning);
    return done(st, finishState(st));
  }
  if (st.failed) return done(st, errorResult(snap.accountId, settings.reason, st.messages));
  const messageCount = st.messages.length;
  plan(st);
  let result = finishState(st);
  if (settings.reason === 'NeedReview') {
    // Trades move cash by their cent-rounded estimates while holdings move by
    // shares × price, so the post-trade investable value differs from the one
    // the targets came from by the sub-cent rounding of each trade. A second
    // run judges the post-trade portfolio against targets of that value. When
    // it differs and that run might trade (a conservative check), plan again
    // on it so both runs compare the same numbers (a fixed point). About one
    // account in a thousand re-plans; at most twice.
    for (let k = 0; k < 2 && retargetAfterTrades(st); k++) {
      st.resetPlan(messageCount);
      plan(st);
      result = finishState(st);
    }
  }
  // The result holds the state's message list, so the notes land in it.
  if (st.tax !== null) taxNotes(st);
  return done(st, result);
}

function done(st: AccountState, result: AccountResult): AccountResult {
  releaseState(st);
  return result;
}

type Phase = (s: AccountState) => void;

function plan(st: AccountState): void {
  let buys: Phase | null = null;
  switch (st.settings.reason) {
    case 'TaxLossHarvest':
      harvestLosses(st);
      return;
    case 'NeedReview':
      // Harvest first (a no-op without harvestLosses), then rebalance the result.
      if (st.tax !== null) harvestLosses(st);
      needReviewSells(st);
      buys = needReviewBuys;
      break;
    case 'Withdraw':
      withdrawSells(st);
      break;
    case 'Add':
      buys = addBuys;
      break;
    case 'Withdraw100Pct':
      withdrawAllSells(st);
      break;
  }
  dropSmallSells(st);
  if (buys) {
    buys(st);
    dropSmallBuys(st);
  }
  enforceMaxTrades(st, buys);
}
