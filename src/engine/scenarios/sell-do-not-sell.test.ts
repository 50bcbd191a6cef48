// Sell priority 1 Do Not Sell: never sold, even out of tolerance; buys are cut back to the cash there is.
import { expect, test } from 'vitest';
import { rebalanceAccount, SellPriority } from '../index.js';
import { account, BND, codes, model, rows, VTI } from './fixtures.js';

test('an overweight Do Not Sell product is kept and the underweight buy is cut to the cash available', () => {
  const m = model([[VTI, 50, 5, { sellPriority: SellPriority.DoNotSell }], [BND, 45, 5]], 5);
  // VTI 70% (out of band), BND 24% (out of band), cash 6% against 5%.
  const r = rebalanceAccount(account([[VTI, 350], [BND, 300]], 6000, m), { reason: 'NeedReview' });
  expect(rows(r)).toEqual(['Buy BND 12 @80 = 960']);
  expect(codes(r)).toEqual(['Warning:CASH_SHORT']);
});
