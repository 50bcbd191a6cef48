// Request checks: amounts belong to keys, Add and Withdraw accept only entity = Account.
import { describe, expect, test } from 'vitest';
import { resolveRequest } from '../index.js';

describe('resolveRequest', () => {
  test('amounts[i] belongs to keys[i]', () => {
    const r = resolveRequest({ reason: 'Withdraw', entity: 'Account', keys: [5, 6], amounts: [100, 250] });
    expect(r.ok && [...r.perKey.entries()].map(([k, o]) => [k, o.amount])).toEqual([
      [5, 100],
      [6, 250],
    ]);
  });

  test('a length mismatch or another entity for Add/Withdraw is a 400', () => {
    expect(resolveRequest({ reason: 'Add', keys: [5, 6], amounts: [100] })).toEqual({ ok: false, errors: ['amounts has 1 values for 2 keys'] });
    expect(resolveRequest({ reason: 'Withdraw', entity: 'TradeGroup', keys: [5], amounts: [1] })).toEqual({ ok: false, errors: ['Withdraw accepts only entity = Account'] });
  });

  test('amounts are ignored for other reasons', () => {
    const r = resolveRequest({ reason: 'NeedReview', keys: [5], amounts: [1, 2, 3] });
    expect(r.ok && r.perKey.get(5)?.amount).toBeUndefined();
  });
});
