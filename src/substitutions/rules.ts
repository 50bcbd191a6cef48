// The rules a firm's product substitutions keep, checked the same way for the HTTP routes and for
// `wealth import`. A rebalance replaces a model product by the substitute of the account's scope
// (its own substitution, else the firm's) and never follows a substitute to its own substitute:
// so a product has one substitute per scope, never itself, and no scope an account sees may hold
// a chain (A → B beside B → C), which would leave the reader unsure whether A ends on B or C.

export interface SubstitutionRow {
  /** Absent for a row not yet stored (an import's row checked before it is written). */
  readonly id?: number;
  /** null: the whole firm. */
  readonly accountId: number | null;
  readonly productId: number;
  readonly substituteProductId: number;
}

export type RuleBreak =
  | { readonly kind: 'self'; readonly field: 'substituteProductId' }
  /** The scope already substitutes the product: `other`. */
  | { readonly kind: 'duplicate'; readonly field: 'productId'; readonly other: SubstitutionRow }
  /** `other` ends on the new row's product (other → product → substitute). */
  | { readonly kind: 'chain'; readonly field: 'productId'; readonly other: SubstitutionRow }
  /** `other` starts from the new row's substitute (product → substitute → other's substitute). */
  | { readonly kind: 'chain'; readonly field: 'substituteProductId'; readonly other: SubstitutionRow };

const first = <T>(set: Set<T> | undefined): T | undefined => (set ? set.values().next().value : undefined);

function push<K, V>(map: Map<K, Set<V>>, key: K, value: V) {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

/**
 * A firm's substitutions (or the part of them a check needs), indexed so that checking one more
 * costs a few lookups, however many there are: an import checks each of its rows against the
 * stored ones and the rows before it.
 */
export class SubstitutionRules {
  private readonly firmByProduct = new Map<number, SubstitutionRow>();
  private readonly firmBySubstitute = new Map<number, Set<SubstitutionRow>>();
  private readonly accountByProduct = new Map<number, Map<number, SubstitutionRow>>();
  private readonly accountBySubstitute = new Map<number, Map<number, Set<SubstitutionRow>>>();
  /** product id → account rows substituting it; substitute id → account rows ending on it. */
  private readonly accountRowsOfProduct = new Map<number, Set<SubstitutionRow>>();
  private readonly accountRowsOfSubstitute = new Map<number, Set<SubstitutionRow>>();

  constructor(rows: Iterable<SubstitutionRow> = []) {
    for (const row of rows) this.add(row);
  }

  add(row: SubstitutionRow): void {
    if (row.accountId === null) {
      this.firmByProduct.set(row.productId, row);
      push(this.firmBySubstitute, row.substituteProductId, row);
      return;
    }
    let own = this.accountByProduct.get(row.accountId);
    if (!own) this.accountByProduct.set(row.accountId, (own = new Map<number, SubstitutionRow>()));
    own.set(row.productId, row);
    let ending = this.accountBySubstitute.get(row.accountId);
    if (!ending) this.accountBySubstitute.set(row.accountId, (ending = new Map<number, Set<SubstitutionRow>>()));
    push(ending, row.substituteProductId, row);
    push(this.accountRowsOfProduct, row.productId, row);
    push(this.accountRowsOfSubstitute, row.substituteProductId, row);
  }

  /** The substitution a rebalance of the account applies to the product: the account's own, else the firm's. */
  private effective(accountId: number, productId: number): SubstitutionRow | undefined {
    return this.accountByProduct.get(accountId)?.get(productId) ?? this.firmByProduct.get(productId);
  }

  private overrides(accountId: number, productId: number): boolean {
    return this.accountByProduct.get(accountId)?.has(productId) ?? false;
  }

  /** The first rule the row would break beside the rows held, or null when it may be added. */
  check(row: SubstitutionRow): RuleBreak | null {
    const { accountId, productId: p, substituteProductId: s } = row;
    if (p === s) return { kind: 'self', field: 'substituteProductId' };
    if (accountId === null) {
      const same = this.firmByProduct.get(p);
      if (same) return { kind: 'duplicate', field: 'productId', other: same };
      // Accounts without substitutions of their own see the firm's alone.
      const into = first(this.firmBySubstitute.get(p));
      if (into) return { kind: 'chain', field: 'productId', other: into };
      const onward = this.firmByProduct.get(s);
      if (onward) return { kind: 'chain', field: 'substituteProductId', other: onward };
      // Accounts with their own: the firm's row reaches them unless they substitute p themselves.
      for (const other of this.accountRowsOfSubstitute.get(p) ?? []) {
        if (!this.overrides(other.accountId as number, p)) return { kind: 'chain', field: 'productId', other };
      }
      for (const other of this.accountRowsOfProduct.get(s) ?? []) {
        if (!this.overrides(other.accountId as number, p)) return { kind: 'chain', field: 'substituteProductId', other };
      }
      return null;
    }
    const same = this.accountByProduct.get(accountId)?.get(p);
    if (same) return { kind: 'duplicate', field: 'productId', other: same };
    const into = first(this.accountBySubstitute.get(accountId)?.get(p));
    if (into) return { kind: 'chain', field: 'productId', other: into };
    // A firm row ending on p reaches the account unless the account substitutes its product itself.
    for (const other of this.firmBySubstitute.get(p) ?? []) {
      if (!this.overrides(accountId, other.productId)) return { kind: 'chain', field: 'productId', other };
    }
    const onward = this.effective(accountId, s);
    if (onward) return { kind: 'chain', field: 'substituteProductId', other: onward };
    return null;
  }
}

/** How a person reads a substitution: `BND → AGG (substitution 4, firm-wide)`. */
export function describeSubstitution(row: SubstitutionRow, tickerOf: (productId: number) => string, accountLabel: (accountId: number) => string = (id) => `account ${id}`): string {
  const scope = row.accountId === null ? 'firm-wide' : accountLabel(row.accountId);
  const where = row.id === undefined ? scope : `substitution ${row.id}, ${scope}`;
  return `${tickerOf(row.productId)} → ${tickerOf(row.substituteProductId)} (${where})`;
}

/** The message of a broken rule, naming the substitution it collides with. */
export function ruleMessage(broken: RuleBreak, row: SubstitutionRow, tickerOf: (productId: number) => string, accountLabel?: (accountId: number) => string): string {
  const product = tickerOf(row.productId);
  const substitute = tickerOf(row.substituteProductId);
  switch (broken.kind) {
    case 'self':
      return `${product} cannot substitute itself`;
    case 'duplicate':
      return `${product} already has a substitute in this scope: ${describeSubstitution(broken.other, tickerOf, accountLabel)}; remove it first`;
    case 'chain':
      return broken.field === 'productId'
        ? `${product} is itself a substitute in ${describeSubstitution(broken.other, tickerOf, accountLabel)}; substitutions are not chained`
        : `${substitute} has a substitute of its own in ${describeSubstitution(broken.other, tickerOf, accountLabel)}; substitutions are not chained`;
  }
}
