import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ruleMessage, SubstitutionRules, type SubstitutionRow } from './rules.js';

const firm = (productId: number, substituteProductId: number, id?: number): SubstitutionRow => ({ id, accountId: null, productId, substituteProductId });
const own = (accountId: number, productId: number, substituteProductId: number, id?: number): SubstitutionRow => ({ id, accountId, productId, substituteProductId });
const TICKERS = ['', 'VTI', 'SCHB', 'ITOT', 'BND', 'AGG', 'VXUS'];
const ticker = (id: number) => TICKERS[id] ?? `#${id}`;

/** What a rebalance of the account reads: its own substitution of a product, else the firm's. */
function seenBy(rows: readonly SubstitutionRow[], accountId: number): Map<number, number> {
  const map = new Map<number, number>();
  for (const r of rows) if (r.accountId === null) map.set(r.productId, r.substituteProductId);
  for (const r of rows) if (r.accountId === accountId) map.set(r.productId, r.substituteProductId);
  return map;
}

describe('substitution rules', () => {
  it('refuses a product substituting itself', () => {
    expect(new SubstitutionRules().check(firm(1, 1))).toEqual({ kind: 'self', field: 'substituteProductId' });
  });

  it('allows one substitute per product and scope; an account overrides the firm', () => {
    const rules = new SubstitutionRules([firm(1, 2, 10)]);
    expect(rules.check(firm(1, 3))).toMatchObject({ kind: 'duplicate', field: 'productId', other: { id: 10 } });
    expect(rules.check(own(7, 1, 3))).toBeNull();
    rules.add(own(7, 1, 3, 11));
    expect(rules.check(own(7, 1, 2))).toMatchObject({ kind: 'duplicate', other: { id: 11 } });
    expect(rules.check(own(8, 1, 2))).toBeNull();
  });

  it('refuses a chain in either order, within a scope and across the firm\'s and an account\'s', () => {
    const rules = new SubstitutionRules([firm(2, 3, 10)]);
    // A → B while B → C exists.
    expect(rules.check(firm(1, 2))).toMatchObject({ kind: 'chain', field: 'substituteProductId', other: { id: 10 } });
    // The reverse: C → D while B → C exists.
    expect(rules.check(firm(3, 4))).toMatchObject({ kind: 'chain', field: 'productId', other: { id: 10 } });
    // A cycle is a chain.
    expect(rules.check(firm(3, 2))).toMatchObject({ kind: 'chain' });
    // An account sees the firm's: its own A → B would chain to the firm's B → C.
    expect(rules.check(own(7, 1, 2))).toMatchObject({ kind: 'chain', other: { id: 10 } });
    expect(rules.check(own(7, 3, 4))).toMatchObject({ kind: 'chain', field: 'productId', other: { id: 10 } });
    // Unless the account replaces the firm's B → C by its own B → A... which is a chain again; by B → D it is not.
    rules.add(own(7, 2, 4, 11));
    expect(rules.check(own(7, 3, 5))).toBeNull();
    // A firm row reaching account 7 (which has no own 5) would chain with its 2 → 4.
    expect(rules.check(firm(5, 2))).toMatchObject({ kind: 'chain' });
    expect(rules.check(firm(4, 5))).toMatchObject({ kind: 'chain', field: 'productId', other: { id: 11 } });
  });

  it('names the substitution a refused row collides with', () => {
    const rules = new SubstitutionRules([firm(2, 3, 10)]);
    const row = firm(1, 2);
    expect(ruleMessage(rules.check(row)!, row, ticker)).toBe('SCHB has a substitute of its own in SCHB → ITOT (substitution 10, firm-wide); substitutions are not chained');
    const again = firm(2, 4);
    expect(ruleMessage(rules.check(again)!, again, ticker)).toBe('SCHB already has a substitute in this scope: SCHB → ITOT (substitution 10, firm-wide); remove it first');
  });

  it('whatever is tried, what it accepts leaves every account one substitute per product, never itself, never chained', () => {
    const row = fc.record({ accountId: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }), productId: fc.integer({ min: 1, max: 6 }), substituteProductId: fc.integer({ min: 1, max: 6 }) });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 30 }), (tries) => {
        const rules = new SubstitutionRules();
        const accepted: SubstitutionRow[] = [];
        for (const candidate of tries) {
          if (rules.check(candidate) !== null) continue;
          rules.add(candidate);
          accepted.push(candidate);
        }
        const scopes = new Set(accepted.map((r) => `${r.accountId}:${r.productId}`));
        expect(scopes.size).toBe(accepted.length);
        // Account 4 has no rows of its own: it reads the firm's alone.
        for (const accountId of [1, 2, 3, 4]) {
          const map = seenBy(accepted, accountId);
          for (const [product, substitute] of map) {
            expect(substitute).not.toBe(product);
            expect(map.has(substitute), `account ${accountId}: ${product} → ${substitute} → ${map.get(substitute)}`).toBe(false);
          }
        }
      }),
    );
  });
});
