// Trade blocks: an active block on the account or its registration stops every trade, with a warning.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount, type TradeBlock } from '../index.js';
import { account, BND, codes, model, rows, VTI } from './fixtures.js';

const m = model([[VTI, 60, 5], [BND, 35, 5]], 5);
const drifted = (tradeBlocks: TradeBlock[], extra = {}) => account([[VTI, 400], [BND, 200]], 4000, m, { tradeBlocks, ...extra });
const block = (more: Partial<TradeBlock>): TradeBlock => ({ id: 3, entityEnum: 7, entityId: 1, reason: 'Manual', description: 'client review', startDate: '2024-06-01', ...more });

describe('trade blocks', () => {
  test('an account block: no trades, the warning names the reason', () => {
    const r = rebalanceAccount(drifted([block({})]), { reason: 'NeedReview' });
    expect(rows(r)).toEqual([]);
    expect(codes(r)).toEqual(['Warning:TRADE_BLOCKED']);
    expect(r.messages[0]?.message).toBe('account 1 is trade blocked (Manual: client review); no trades');
    expect(r.weights.find((w) => w.ticker === 'VTI')?.weightAfter).toBe(80);
  });

  test('a block on the registration stops the account too', () => {
    const r = rebalanceAccount(drifted([block({ entityEnum: 6, entityId: 9, reason: 'Fixed Income', description: '' })], { registrationId: 9 }), { reason: 'Withdraw100Pct' });
    expect(rows(r)).toEqual([]);
    expect(r.messages[0]?.message).toBe('registration 9 is trade blocked (Fixed Income); no trades');
  });

  test('deleted or disabled blocks, and blocks of other accounts, do not stop trading', () => {
    const r = rebalanceAccount(drifted([block({ isDeleted: true }), block({ isDisabled: true }), block({ entityId: 2 })]), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Sell VTI 100 @200 = 20000', 'Buy BND 237 @80 = 18960']);
  });

  test('a blocked account without a model is a warning, not a batch error', () => {
    const r = rebalanceAccount(account([[VTI, 1]], 0, null, { tradeBlocks: [block({})] }), { reason: 'NeedReview' });
    expect(r.hasError).toBe(false);
    expect(codes(r)).toEqual(['Warning:TRADE_BLOCKED']);
  });
});
