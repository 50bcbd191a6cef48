// Sleeved registration (level = Registration): cash moves from the sleeve above its band
// to the one below, then each sleeve is rebalanced to its own model.
import { describe, expect, test } from 'vitest';
import { rebalanceRegistration, type RegistrationSnapshot } from '../index.js';
import { account, BND, model, rows, VTI, VXUS } from './fixtures.js';

const growth = model([[VTI, 95, 2]], 5);
const income = model([[BND, 95, 2]], 5);

function registration(vtiShares: number, vtiCash: number, bndShares: number, bndCash: number): RegistrationSnapshot {
  return {
    registrationId: 9,
    asOfDate: '2024-06-28',
    sleeves: [
      { account: account([[VTI, vtiShares]], vtiCash, growth, { accountId: 11, registrationId: 9 }), targetAllocation: 60, toleranceLower: 5, toleranceUpper: 5 },
      { account: account([[BND, bndShares]], bndCash, income, { accountId: 12, registrationId: 9 }), targetAllocation: 40, toleranceLower: 5, toleranceUpper: 5 },
    ],
  };
}

describe('sleeves', () => {
  test('a sleeve above its band sends cash to the one below; each sleeve then trades to its model', () => {
    // Growth sleeve 70,000 (70% vs 60 ±5), income sleeve 30,000 (30% vs 40 ±5).
    const r = rebalanceRegistration(registration(332, 3600, 356, 1520), { reason: 'NeedReview' });
    expect(r.transfers.map((t) => [t.accountId, t.currentAllocation, t.outOfBand, t.amount])).toEqual([
      [11, 70, true, -10000],
      [12, 30, true, 10000],
    ]);
    expect(r.accounts.map((a) => [a.accountId, rows(a)])).toEqual([
      [11, ['Sell VTI 47 @200 = 9400']],
      [12, ['Buy BND 119 @80 = 9520']],
    ]);
    expect(r.hasError).toBe(false);
  });

  test('sleeves inside their bands move no cash; each is still rebalanced to its model', () => {
    // 62,000 / 40,000: 60.8% and 39.2%. The growth sleeve's cash (2,000) is short of its 3,100 target.
    const r = rebalanceRegistration(registration(300, 2000, 475, 2000), { reason: 'NeedReview' });
    expect(r.transfers.every((t) => t.amount === 0)).toBe(true);
    expect(r.accounts.map((a) => rows(a))).toEqual([['Sell VTI 6 @200 = 1200'], []]);
  });

  test('what the senders give equals what the receivers get, to the cent', () => {
    // 33.33 / 33.33 / 33.34: the cent-rounded deltas total one cent more out than in.
    const intl = model([[VXUS, 95, 2]], 5);
    const sleeve = (id: number, holdings: [typeof VTI, number][], cash: number, m: typeof growth, target: number) => ({
      account: account(holdings, cash, m, { accountId: id, registrationId: 9 }),
      targetAllocation: target,
      toleranceLower: 3,
      toleranceUpper: 3,
    });
    const r = rebalanceRegistration(
      {
        registrationId: 9,
        asOfDate: '2024-06-28',
        sleeves: [sleeve(11, [[VTI, 200]], 2_000.39, growth, 33.33), sleeve(12, [[BND, 300]], 1_500.41, income, 33.33), sleeve(13, [[VXUS, 313]], 1_300.37, intl, 33.34)],
      },
      { reason: 'NeedReview' },
    );
    const moved = r.transfers.filter((t) => t.amount !== 0);
    expect(moved.some((t) => t.amount < 0) && moved.some((t) => t.amount > 0)).toBe(true);
    expect(r.transfers.reduce((s, t) => s + Math.round(t.amount * 100), 0)).toBe(0);
  });

  test('a registration block stops every sleeve', () => {
    const reg = { ...registration(332, 3600, 356, 1520), tradeBlocks: [{ id: 1, entityEnum: 6 as const, entityId: 9, reason: 'Manual', startDate: '2024-01-01' }] };
    const r = rebalanceRegistration(reg, { reason: 'NeedReview' });
    expect(r.accounts.flatMap((a) => a.trades)).toEqual([]);
    expect(r.accounts.map((a) => a.messages[0]?.code)).toEqual(['TRADE_BLOCKED', 'TRADE_BLOCKED']);
  });
});
