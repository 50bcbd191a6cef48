import { describe, expect, it } from 'vitest';
import { generateFirmBook, generateHouseholdChunks } from './generator.js';
import { parseProfile } from './profiles.js';
import { SubstitutionRules } from '../substitutions/rules.js';

const book = (profile: 'advisory' | 'direct-indexing', households: number) => {
  const options = { households, seed: 5, asOf: '2025-06-30', profile };
  const firm = generateFirmBook(options);
  const chunks = [...generateHouseholdChunks(options, firm)];
  return { firm, chunks };
};

const positionsPerManagedAccount = (chunks: ReturnType<typeof book>['chunks']) =>
  chunks.flatMap((c) => {
    const counts = new Map<number, number>();
    for (const p of c.positions) counts.set(p.account_id, (counts.get(p.account_id) ?? 0) + 1);
    return c.accounts.flatMap((a, i) => (a.model_id === null ? [] : [counts.get(i) ?? 0]));
  });

describe('book profiles', () => {
  it('advisory: a 500+ product shelf, 10+ models, 20–30 positions an account, plans, set asides, blocks and substitutions', () => {
    const { firm, chunks } = book('advisory', 400);
    expect(firm.products.length).toBeGreaterThanOrEqual(500);
    expect(firm.models.length).toBeGreaterThanOrEqual(10);
    const counts = positionsPerManagedAccount(chunks);
    const median = [...counts].sort((a, b) => a - b)[Math.floor(counts.length / 2)]!;
    expect(median).toBeGreaterThanOrEqual(20);
    expect(median).toBeLessThanOrEqual(30);
    const all = <K extends 'set_aside_cash' | 'trade_block_details' | 'product_substitutions' | 'accounts'>(k: K) => chunks.flatMap((c) => c[k] as unknown[]);
    expect(all('set_aside_cash').length).toBeGreaterThan(0);
    expect(all('trade_block_details').length).toBeGreaterThan(0);
    expect(chunks.flatMap((c) => c.accounts).some((a) => a.restricted_plan_id !== undefined && a.restricted_plan_id !== null)).toBe(true);
    expect(firm.restricted_plan_securities?.length).toBeGreaterThan(0);
    expect(firm.product_substitutions.length).toBeGreaterThan(2);
    // The substitutions keep the rules the routes and the import enforce: one a scope, none of itself, no chain.
    const rules = new SubstitutionRules();
    const rows = [
      ...firm.product_substitutions.map((x) => ({ accountId: null, productId: x.product_id, substituteProductId: x.substitute_product_id })),
      ...chunks.flatMap((c, ci) => c.product_substitutions.map((x) => ({ accountId: ci * 1_000_000 + (x.account_id as number), productId: x.product_id, substituteProductId: x.substitute_product_id }))),
    ];
    expect(rows.length).toBeGreaterThan(firm.product_substitutions.length);
    for (const row of rows) {
      expect(rules.check(row), JSON.stringify(row)).toBeNull();
      rules.add(row);
    }
  });

  it('direct-indexing: 300–500 single stocks an account, many lots with short and long term gains and losses', () => {
    const { firm, chunks } = book('direct-indexing', 20);
    const counts = positionsPerManagedAccount(chunks);
    const median = [...counts].sort((a, b) => a - b)[Math.floor(counts.length / 2)]!;
    expect(median).toBeGreaterThanOrEqual(300);
    expect(median).toBeLessThanOrEqual(500);
    const lots = chunks.flatMap((c) => c.tax_lots);
    const positions = chunks.flatMap((c) => c.positions);
    expect(lots.length / positions.length).toBeGreaterThan(4);
    const yearAgo = '2024-06-30';
    expect(lots.some((l) => l.acquired_date > yearAgo)).toBe(true);
    expect(lots.some((l) => l.acquired_date <= yearAgo)).toBe(true);
    // Gains and losses: lot cost per share on both sides of today's price.
    const price = (position: number, chunk: number) => firm.products[chunks[chunk]!.positions[position]!.product_id]!.price_micros! / 1_000_000;
    const sides = new Set(chunks.flatMap((c, ci) => c.tax_lots.map((l) => Math.sign(l.cost_cents / 100 / (l.shares_micros / 1_000_000) - price(l.position_id, ci)))));
    expect(sides.has(1) && sides.has(-1)).toBe(true);
    // Lots sum to their position.
    for (const c of chunks) {
      const sum = new Map<number, number>();
      for (const l of c.tax_lots) sum.set(l.position_id, (sum.get(l.position_id) ?? 0) + l.shares_micros);
      c.positions.forEach((p, i) => expect(sum.get(i)).toBe(p.shares_micros));
    }
  });

  it('direct-indexing: every stock but the first of its sector names an earlier stock of its sector as harvest replacement', () => {
    const { firm } = book('direct-indexing', 1);
    const generated = firm.products.map((p, i) => ({ ...p, i })).filter((p) => p.type === 'Equity' && p.harvest_replacement_product_id !== undefined);
    expect(generated.length).toBeGreaterThan(400);
    const firstOfSector = new Set<string>();
    for (const p of generated) {
      const replacement = p.harvest_replacement_product_id;
      if (replacement === null) {
        // Only the first stock of a sector has none.
        expect(firstOfSector.has(p.category!)).toBe(false);
        firstOfSector.add(p.category!);
        continue;
      }
      expect(replacement).toBeLessThan(p.i);
      expect(firm.products[replacement!]!.category).toBe(p.category);
    }
    // The advisory shelf leaves replacements to the firm.
    expect(book('advisory', 1).firm.products.every((p) => p.harvest_replacement_product_id === undefined)).toBe(true);
  });

  it('parses the profile option', () => {
    expect(parseProfile(undefined)).toBe('demo');
    expect(parseProfile('advisory')).toBe('advisory');
    expect(() => parseProfile('huge')).toThrow(/demo, advisory, direct-indexing/);
  });
});
