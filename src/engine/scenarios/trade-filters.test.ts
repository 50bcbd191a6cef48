// Trade filters: minTradeAmount, minTradePercent, maxTrades; every dropped trade is a warning.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount } from '../index.js';
import { AAPL, account, BND, codes, model, rows, VTI } from './fixtures.js';

const m = model([[VTI, 60, 5], [BND, 35, 5]], 5);

describe('trade filters', () => {
  test('minTradeAmount drops the small sell; the buy spends only the cash that is really raised', () => {
    const snap = account([[VTI, 400], [BND, 200], [AAPL, 1]], 3850, m);
    expect(rows(rebalanceAccount(snap, { reason: 'NeedReview' }))).toEqual(['Sell AAPL 1 @150 = 150', 'Sell VTI 100 @200 = 20000', 'Buy BND 237 @80 = 18960']);
    const r = rebalanceAccount(snap, { reason: 'NeedReview', minTradeAmount: 500 });
    expect(rows(r)).toEqual(['Sell VTI 100 @200 = 20000', 'Buy BND 235 @80 = 18800']);
    expect(codes(r)).toEqual(['Warning:TRADE_DROPPED']);
    expect(r.messages[0]?.message).toBe('sell 1 AAPL ($150.00) dropped: below minTradeAmount $500.00');
  });

  test('minTradePercent drops a sell of a smaller share of the position', () => {
    // Withdraw 1,000 pro rata: VTI 4 of 300 shares (1.33%), BND 5 of 437.5 (1.14%).
    const snap = account([[VTI, 300], [BND, 437.5]], 5000, m);
    expect(rows(rebalanceAccount(snap, { reason: 'Withdraw', amount: 1000 }))).toEqual(['Sell BND 5 @80 = 400', 'Sell VTI 4 @200 = 800']);
    const r = rebalanceAccount(snap, { reason: 'Withdraw', amount: 1000, minTradePercent: 1.2 });
    expect(rows(r)).toEqual(['Sell VTI 4 @200 = 800']);
    expect(codes(r)).toEqual(['Warning:TRADE_DROPPED']);
  });

  test('maxTrades keeps the largest trades; a dropped sell shrinks the buys', () => {
    const snap = account([[VTI, 400], [BND, 200], [AAPL, 20]], 1000, m);
    expect(rows(rebalanceAccount(snap, { reason: 'NeedReview' }))).toEqual(['Sell AAPL 20 @150 = 3000', 'Sell VTI 100 @200 = 20000', 'Buy BND 237 @80 = 18960']);
    const r = rebalanceAccount(snap, { reason: 'NeedReview', maxTrades: 2 });
    expect(rows(r)).toEqual(['Sell VTI 100 @200 = 20000', 'Buy BND 200 @80 = 16000']);
    expect(r.messages.map((x) => x.message)).toEqual(['sell 20 AAPL ($3,000.00) dropped: beyond maxTrades 2']);
  });
});
