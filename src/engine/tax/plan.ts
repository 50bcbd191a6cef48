// What one account's tax-aware run knows of its household and what it reports back: the gains
// budget left, the wash-sale groups it may not buy, the groups it may not sell at a loss, and the
// tallies of the batch's tax summary. The household planner (household.ts) makes one per account.

import type { LotSelection, Product, ProductCatalog, TaxOptions, TaxStatus } from '../types.js';
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
  /** The loss sale that bars a group of noBuyGroups: what was sold, and in which account. */
  readonly lossSaleOf: (group: string) => LossSale | undefined;
  /** Wash-sale groups bought in the household in the last 30 days (rule 2). */
  readonly recentBuyGroups: ReadonlySet<string>;
  readonly harvest: HarvestThresholds | null;
  /** Tallies for the summary, filled by the run. */
  harvestedLoss: number;
  readonly lossGroups: Set<string>;
  washMoves: number;
  budgetCuts: number;
}

/** A sale at a loss that keeps its wash-sale group from being bought. */
export interface LossSale {
  readonly productId: number;
  /** null when the household's records do not say. */
  readonly accountId: number | null;
}

export const NO_LOSS_SALE = (): LossSale | undefined => undefined;

/**
 * Why a buy of `wanted` may not happen, resolved once when the buy moves (trade reason and message
 * both read it): the product the household actually sold, e.g. VTSAX for a buy of VTI in its
 * group, and the account it was sold in.
 */
export function washSaleCause(products: ProductCatalog, accountId: number, wanted: Product, sale: LossSale | undefined): string {
  const sold = sale === undefined ? undefined : products.get(sale.productId);
  const what = sold === undefined || sold.id === wanted.id ? wanted.ticker : `${sold.ticker} (same wash-sale group as ${wanted.ticker})`;
  const where =
    sale === undefined || sale.accountId === null ? 'in the household' : sale.accountId === accountId ? 'in this account' : `in account ${sale.accountId} of the household`;
  return `${what} was sold at a loss ${where} within 30 days`;
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
  readonly lossSaleOf?: (group: string) => LossSale | undefined;
  readonly recentBuyGroups: ReadonlySet<string>;
}

/**
 * The lot method a tax-aware run sells by: the one asked for, MinTax when none is named. Recording
 * the run's executions later relieves lots by the same method (trading/service.ts stores it).
 */
export function lotMethodOf(options: TaxOptions): LotSelection {
  return options.lotSelection ?? TAX_DEFAULTS.lotSelection;
}

/** The lossGroups of every plan without a harvest: never added to. */
const NO_LOSS_GROUPS = new Set<string>();

export function newTaxPlan(i: PlanInputs): TaxPlan {
  const forced = i.reason === 'Withdraw' || i.reason === 'Withdraw100Pct';
  const taxable = i.taxStatus === 'Taxable';
  const harvest = taxable && i.options.harvestLosses ? i.options.harvestLosses : null;
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
    lossSaleOf: i.lossSaleOf ?? NO_LOSS_SALE,
    recentBuyGroups: i.recentBuyGroups,
    harvest,
    harvestedLoss: 0,
    // Only a harvest adds to it (tax/harvest.ts): a plan that harvests nothing shares one set that stays empty.
    lossGroups: harvest === null ? NO_LOSS_GROUPS : new Set(),
    washMoves: 0,
    budgetCuts: 0,
  };
}
