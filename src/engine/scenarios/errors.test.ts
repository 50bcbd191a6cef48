// Errors: an account without a model, a product without a price, an unknown account.
import { describe, expect, test } from 'vitest';
import { rebalanceAccount, unknownAccountResult } from '../index.js';
import { account, BND, codes, model, NOPX, rows, VTI } from './fixtures.js';

describe('errors', () => {
  test('an account without a model is an Error and gets no trades', () => {
    const r = rebalanceAccount(account([[VTI, 10]], 100, null), { reason: 'NeedReview' });
    expect(r.hasError).toBe(true);
    expect(codes(r)).toEqual(['Error:NO_MODEL']);
    expect(rows(r)).toEqual([]);
  });

  test('a held product without a price: the account cannot be valued', () => {
    const m = model([[VTI, 95, 5]], 5);
    const r = rebalanceAccount(account([[VTI, 10], [NOPX, 5]], 100, m), { reason: 'NeedReview' });
    expect(codes(r)).toEqual(['Error:NO_PRICE']);
    expect(r.messages[0]?.message).toBe('NOPX has no price; the account cannot be valued');
    expect(rows(r)).toEqual([]);
  });

  test('a model product without a price is not bought; the other trades stand', () => {
    const m = model([[NOPX, 30, 5], [BND, 65, 5]], 5);
    const r = rebalanceAccount(account([], 10000, m), { reason: 'NeedReview' });
    expect(rows(r)).toEqual(['Buy BND 81 @80 = 6480']);
    expect(codes(r)).toEqual(['Error:NO_PRICE']);
    expect(r.hasError).toBe(true);
  });

  test('an unknown account id gets an Error result from the helper', () => {
    const r = unknownAccountResult(404, 'NeedReview');
    expect(r).toMatchObject({ accountId: 404, hasError: true, trades: [] });
    expect(codes(r)).toEqual(['Error:UNKNOWN_ACCOUNT']);
  });
});
