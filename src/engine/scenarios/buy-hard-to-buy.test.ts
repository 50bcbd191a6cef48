// Buy priority 2 Hard To Buy: bought only after every other buy is filled.
import { expect, test } from 'vitest';
import { BuyPriority, rebalanceAccount, SellPriority } from '../index.js';
import { AAPL, account, BND, model, rows, VTI } from './fixtures.js';

test('when cash is short, the Hard To Buy product gets only what the others leave', () => {
  // AAPL (Do Not Sell, outside the model) holds 45% so cash cannot fill both buys.
  const m = model([[VTI, 50, 5, { buyPriority: BuyPriority.HardToBuy }], [BND, 45, 5]], 5, {
    productPriorities: [{ productId: AAPL.id, sellPriority: SellPriority.DoNotSell }],
  });
  const r = rebalanceAccount(account([[AAPL, 300]], 55000, m), { reason: 'NeedReview' });
  expect(rows(r)).toEqual(['Buy BND 562 @80 = 44960', 'Buy VTI 25 @200 = 5000']);
});
