import { describe, expect, test } from 'vitest';
import { planOf, resolveRequest } from './request.js';

type Request = Omit<Parameters<typeof resolveRequest>[0], 'routine'>;
const resolved = (request: Request) => {
  const r = resolveRequest({ routine: 'Rebalance', ...request });
  if ('problems' in r) throw new Error(JSON.stringify(r.problems));
  return r.stored;
};

describe('resolveRequest', () => {
  test('amounts[i] belongs to keys[i]', () => {
    const plan = planOf(resolved({ reason: 'Withdraw', entity: 'Account', keys: [5, 6], amounts: [100, 250] }));
    expect([5, 6].map((k) => plan.optionsFor(k).amount)).toEqual([100, 250]);
  });

  test('a length mismatch, another entity or level for Add/Withdraw, or a repeated key is a 400', () => {
    const problems = (request: Request) => {
      const r = resolveRequest({ routine: 'Rebalance', ...request });
      return 'problems' in r ? r.problems.map((p) => p.field) : [];
    };
    expect(problems({ reason: 'Add', entity: 'Account', keys: [5, 6], amounts: [100] })).toEqual(['amounts']);
    expect(problems({ reason: 'Withdraw', entity: 'TradeGroup', keys: [5], amounts: [1] })).toEqual(['entity']);
    expect(problems({ reason: 'Add', entity: 'Account', level: 'Registration', keys: [5], amounts: [1] })).toEqual(['level']);
    expect(problems({ reason: 'NeedReview', entity: 'Account', keys: [5, 5] })).toEqual(['keys']);
  });

  test('amounts are ignored for other reasons; the engine options are the request fields, stored once', () => {
    const stored = resolved({ reason: 'NeedReview', entity: 'Account', keys: [5], amounts: [1, 2, 3], maxTrades: 7, notes: 'n' });
    expect(stored.level).toBe('Account');
    expect(stored.options).toEqual({ reason: 'NeedReview', maxTrades: 7 });
    expect(planOf(stored).optionsFor(5).amount).toBeUndefined();
    // A stored request is JSON: what the worker parses runs the same way.
    expect(planOf(JSON.parse(JSON.stringify(stored))).optionsFor(5)).toEqual(stored.options);
  });
});
