// What one account's tax-aware run knows of its household and what it reports back: the gains
// budget left, the wash-sale groups it may not buy, the groups it may not sell at a loss, and the
// tallies of the batch's tax summary. The household planner (household.ts) makes one per account.

import type { LotSelection, Product, TaxOptions, TaxStatus } from '../types.js';
import { TAX_DEFAULTS } from '../defaults.js';

export interface HarvestThresholds {
  readonly minLossDollars: number;
  readonly minLossPercent: number;
}

export interface TaxPlan {
  readonly method: LotSelection;
  readonly taxable: boolean;
  readonly asOfDate: string;
  /** Net gain this account's sells may still realize (Infinity: no limit). */
  readonly budgetShort: number;
  readonly budgetLong: number;
  /** Net gain of the sells planned so far in this account. */
  plannedShort: number;
  plannedLong: number;
  /** Withdraw and Withdraw100Pct raise their cash whatever the budget (with a Warning). */
  readonly forceBudget: boolean;
  /** Set while cash must be raised (withdrawals, a cash shortfall): wash-sale rule 2 gives way, with a Warning. */
  forcingWash: boolean;
  /** Wash-sale groups no account of the household may buy (rules 1 and 3). */
  readonly noBuyGroups: Pick<ReadonlySet<string>, 'has' | 'size'>;
  /** Wash-sale groups bought in the household in the last 30 days (rule 2). */
  readonly recentBuyGroups: ReadonlySet<string>;
  readonly harvest: HarvestThresholds | null;
  /** Tallies for the summary, filled by the run. */
  harvestedLoss: number;
  readonly lossGroups: Set<string>;
  washMoves: number;
  budgetCuts: number;
}

const groups = new WeakMap<Product, string>();

/** The wash-sale identity of a product: its group, or itself. Kept per product object: it is asked for often. */
export function groupOf(product: Product): string {
  let group = groups.get(product);
  if (group === undefined) {
    group = product.washSaleGroup ? `g:${product.washSaleGroup}` : `p:${product.id}`;
    groups.set(product, group);
  }
  return group;
}

/** Two sets read as one, without copying either (a household's barred groups and its batch's loss sales). */
export class UnionSet implements Pick<ReadonlySet<string>, 'has' | 'size'> {
  constructor(
    private readonly a: ReadonlySet<string>,
    private readonly b: ReadonlySet<string>,
  ) {}

  has(value: string): boolean {
    return this.a.has(value) || this.b.has(value);
  }

  get size(): number {
    return this.a.size + this.b.size;
  }
}

export const NO_GROUPS: ReadonlySet<string> = new Set();

export interface PlanInputs {
  readonly options: TaxOptions;
  readonly reason: string;
  readonly taxStatus: TaxStatus;
  readonly asOfDate: string;
  readonly budgetShort: number;
  readonly budgetLong: number;
  readonly noBuyGroups: Pick<ReadonlySet<string>, 'has' | 'size'>;
  readonly recentBuyGroups: ReadonlySet<string>;
}

/**
 * The lot method a tax-aware run sells by: the one asked for, MinTax when none is named. Recording
 * the run's executions later relieves lots by the same method (trading/service.ts stores it).
 */
export function lotMethodOf(options: TaxOptions): LotSelection {
  return options.lotSelection ?? TAX_DEFAULTS.lotSelection;
}

export function newTaxPlan(i: PlanInputs): TaxPlan {
  const forced = i.reason === 'Withdraw' || i.reason === 'Withdraw100Pct';
  const taxable = i.taxStatus === 'Taxable';
  return {
    method: lotMethodOf(i.options),
    taxable,
    asOfDate: i.asOfDate,
    budgetShort: i.budgetShort,
    budgetLong: i.budgetLong,
    plannedShort: 0,
    plannedLong: 0,
    forceBudget: forced,
    forcingWash: forced,
    noBuyGroups: i.noBuyGroups,
    recentBuyGroups: i.recentBuyGroups,
    harvest: taxable && i.options.harvestLosses ? i.options.harvestLosses : null,
    harvestedLoss: 0,
    lossGroups: new Set(),
    washMoves: 0,
    budgetCuts: 0,
  };
}
