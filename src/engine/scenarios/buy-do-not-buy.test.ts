// Buy priority 1 Do Not Buy: never bought.
import { expect, test } from 'vitest';
import { BuyPriority, rebalanceAccount } from '../index.js';
import { account, BND, codes, model, rows, VTI } from './fixtures.js';

test('an underweight Do Not Buy product stays unbought; the cash goes to the others', () => {
  const m = model([[VTI, 60, 5, { buyPriority: BuyPriority.DoNotBuy }], [BND, 35, 5]], 5);
  const r = rebalanceAccount(account([[BND, 400]], 68000, m), { reason: 'NeedReview' });
  expect(rows(r)).toEqual(['Buy BND 37 @80 = 2960']);
  expect(codes(r)).toEqual(['Info:NOT_BUYABLE']);
});
