// One file on purpose, past 400 lines: it is the whole contract between the engine and its loaders, read as one.
// Plain data in, plain data out. These types are the contract between the
// rebalancing engine and whoever loads snapshots (database, files, tests).
// Percentages are percent numbers (30 = 30 %), money is dollars, quantities
// are shares, dates are ISO `YYYY-MM-DD` strings; ids are integers.

import type { EntityCode } from '../shared/entity-enum.js';

/** Sell priority list of spec 2.8; the ids are the ones stored in plans. */
export const SellPriority = {
  DoNotSell: 1,
  HardToSell: 2,
  SellIfNoGain: 3,
  CanSell: 4,
  SellToTarget: 5,
  PrioritySell: 6,
} as const;
export type SellPriorityId = (typeof SellPriority)[keyof typeof SellPriority];

/** Buy priority list of spec 2.8. */
export const BuyPriority = {
  DoNotBuy: 1,
  HardToBuy: 2,
  CanBuy: 3,
  BuyToTarget: 4,
  PriorityBuy: 5,
  PreferredIfHeld: 6,
} as const;
export type BuyPriorityId = (typeof BuyPriority)[keyof typeof BuyPriority];

export const REBALANCE_TYPES = ['NeedReview', 'Withdraw', 'Add', 'Withdraw100Pct', 'TaxLossHarvest'] as const;
export type RebalanceType = (typeof REBALANCE_TYPES)[number];
export type RoundingLogic = 'Default' | 'LowestPrice' | 'None';
export type AssetValues = 'PendingTransactionsAndOrders' | 'Pending' | 'Current' | 'UseDefault';
export type ProductSubstitutionUse = 'Use' | 'Ignore';

export type ProductType = 'Equity' | 'ETF' | 'MutualFund' | 'FixedIncome' | 'Cash';

export interface Product {
  readonly id: number;
  readonly ticker: string;
  readonly type: ProductType;
  /** Latest price in dollars; null when no price is known (the product cannot be valued or traded). */
  readonly price: number | null;
  /** The custodian accepts fractional quantities (3 decimals under Default rounding). */
  readonly fractionalShares: boolean;
  /** Products of one group are substantially identical for wash sales; absent: only identical to itself. */
  readonly washSaleGroup?: string | null;
  /** What tax-loss harvesting buys when it sells this product (before the model's equivalents). */
  readonly harvestReplacementProductId?: number | null;
}

/**
 * One catalog is shared by every account of a batch: building a product map per
 * account would cost more than the rebalance itself.
 */
export type ProductCatalog = ReadonlyMap<number, Product>;

export interface TaxLot {
  /** The stored lot's id; tax-aware sells name the lots they relieve by it. */
  readonly id?: number;
  readonly shares: number;
  /** Total cost of the lot in dollars. */
  readonly costBasis: number;
  readonly acquiredOn?: string;
}

export type TaxStatus = 'Taxable' | 'TaxDeferred' | 'TaxExempt';
export type LotSelection = 'MinTax' | 'HIFO' | 'FIFO';

/** The optional tax options of a rebalance request (docs/tax-aware.md). */
export interface TaxOptions {
  readonly lotSelection?: LotSelection;
  readonly avoidWashSales?: boolean;
  /** Dollars per household for the calendar year, gains already realized included; null: no limit. */
  readonly maxShortTermGain?: number | null;
  readonly maxLongTermGain?: number | null;
  readonly harvestLosses?: { readonly minLossDollars: number; readonly minLossPercent: number } | null;
}

export interface Position {
  readonly productId: number;
  readonly shares: number;
  /** Total cost basis in dollars, used when no tax lots are given (Sell If No Gain). */
  readonly costBasis?: number | null;
  /** When present, Sell If No Gain may sell only the shares of lots at a loss. */
  readonly taxLots?: readonly TaxLot[];
  /**
   * What the lots hold at most, when the caller knows it without reading them: a tax-aware run
   * then skips the lots of positions with no loss to harvest and no buy in the wash-sale window
   * (a direct-indexing book reads a few of its lots, not all). Optional hints: without them the
   * lots themselves are read.
   */
  readonly lotsSummary?: LotsSummary;
}

export interface LotsSummary {
  /** The highest cost per share among the position's lots with shares. */
  readonly maxCostPerShare: number;
  /** The newest lot's acquired date (ISO). */
  readonly latestAcquiredOn: string;
  /** The highest cost of one lot, in dollars: with maxCostPerShare it bounds any lot's loss. */
  readonly maxLotCost: number;
}

/**
 * A pending transaction or an open order as signed deltas: a pending buy of 10
 * shares for $1,000 is `{ productId, shares: 10, cash: -1000 }`, a pending
 * deposit is `{ productId: null, shares: 0, cash: 500 }`. Both kinds share one
 * shape so that `assetValues` only decides which lists are counted.
 */
export interface PendingItem {
  readonly productId: number | null;
  readonly shares: number;
  readonly cash: number;
  /** The trade instance an open order or sleeve transfer belongs to; named in the account's messages. */
  readonly tradeInstanceId?: number;
}

export interface ModelTarget {
  readonly productId: number;
  readonly targetPercent: number;
  /** Percentage points below the target before the product is out of tolerance. */
  readonly lowerTolerance: number;
  readonly upperTolerance: number;
  /** Ordered alternates; holding one of them counts toward this target. */
  readonly equivalents?: readonly number[];
  /** Security-set priorities; a restricted plan's priorities override them. */
  readonly buyPriority?: BuyPriorityId | null;
  readonly sellPriority?: SellPriorityId | null;
}

export interface Model {
  readonly id: number;
  readonly name: string;
  readonly targets: readonly ModelTarget[];
  readonly cashTargetPercent: number;
  /** Cash above `cashTarget + cashUpperTolerance` is excess and gets invested. Default 0. */
  readonly cashUpperTolerance?: number;
  /** Security-set priorities of any product, typically the equivalents (targets carry their own). */
  readonly productPriorities?: readonly ProductPriority[];
}

export interface ProductPriority {
  readonly productId: number;
  readonly buyPriority?: BuyPriorityId | null;
  readonly sellPriority?: SellPriorityId | null;
}

/** Active set aside cash record (spec 2.12); codes kept as stored. */
export interface SetAsideCash {
  readonly id: number;
  /** 1 dollars, 2 percent. */
  readonly cashAmountTypeId: 1 | 2;
  readonly cashAmount: number;
  readonly minCashAmount?: number | null;
  readonly maxCashAmount?: number | null;
  /** 0 managed value (default), 1 total value, 2 excluded value. */
  readonly percentCalculationTypeId?: 0 | 1 | 2 | null;
  /** 1 Date, 2 Transaction, 3 None. */
  readonly expirationTypeId: 1 | 2 | 3;
  /** For Date expiry: the last day the cash is protected. */
  readonly expirationDate?: string | null;
  /** Set by transaction processing (Transaction expiry) or by an update. */
  readonly isExpired?: boolean;
  readonly isDeleted?: boolean;
  readonly startDate?: string | null;
}

export interface RestrictedPlanSecurity {
  readonly productId: number;
  readonly buyPriorityId?: BuyPriorityId | null;
  readonly sellPriorityId?: SellPriorityId | null;
  /** When true the security is not bought in accounts without a restricted plan. */
  readonly doNotBuyGroupEquivalency?: boolean;
}

export interface RestrictedPlan {
  readonly id: number;
  readonly name: string;
  readonly securities: readonly RestrictedPlanSecurity[];
}

export interface Substitution {
  /** The stored substitution's id, named in the message of a rebalance that applies it. */
  readonly id?: number;
  /** The model product that is replaced. */
  readonly productId: number;
  readonly substituteProductId: number;
  /** Account substitutions win over firm substitutions of the same product. */
  readonly scope: 'Account' | 'Firm';
}

/** Trade block detail (spec 2.3); entityEnum 6 = Registration, 7 = Account. */
export interface TradeBlock {
  readonly id: number;
  readonly entityEnum: EntityCode;
  readonly entityId: number;
  /** Reason name, e.g. `Manual`, `Fixed Income`; named in the warning. */
  readonly reason: string;
  readonly description?: string;
  readonly startDate: string;
  readonly endDate?: string | null;
  readonly isDeleted?: boolean;
  readonly isDisabled?: boolean;
}

export interface AccountSnapshot {
  readonly accountId: number;
  readonly registrationId?: number | null;
  /** The business date of the run: expiry of blocks and set asides is judged against it, never the clock. */
  readonly asOfDate: string;
  readonly products: ProductCatalog;
  readonly positions: readonly Position[];
  /** Custodial cash balance in dollars (may be negative for a debit). */
  readonly custodialCash: number;
  readonly pendingTransactions?: readonly PendingItem[];
  /** Trades generated earlier and not yet executed or cancelled. */
  readonly openOrders?: readonly PendingItem[];
  /** Value of assets excluded from management (base 2 of percent set asides). */
  readonly excludedValue?: number;
  readonly model: Model | null;
  readonly restrictedPlan?: RestrictedPlan | null;
  /**
   * Securities flagged doNotBuyGroupEquivalency in the firm's plans. Only used
   * when the account has no restricted plan, which is why it is not on the plan.
   */
  readonly doNotBuyGroupEquivalency?: readonly number[];
  readonly substitutions?: readonly Substitution[];
  readonly setAsideCash?: readonly SetAsideCash[];
  /** Blocks of the account and of its registration (as the trade block API returns them). */
  readonly tradeBlocks?: readonly TradeBlock[];
  /** What `assetValues = UseDefault` means for this firm. */
  readonly firmDefaultAssetValues?: Exclude<AssetValues, 'UseDefault'>;
  /** Read by tax-aware runs only; absent means Taxable. */
  readonly taxStatus?: TaxStatus;
}

/** The per-account options of a rebalance request (spec 2.9), amount already matched to the key. */
export interface RebalanceOptions {
  readonly reason: RebalanceType;
  /** Dollars for Withdraw and Add; ignored otherwise. */
  readonly amount?: number;
  readonly exactTrades?: boolean;
  readonly maxTrades?: number;
  readonly minTradeAmount?: number;
  readonly minTradePercent?: number;
  readonly roundingLogic?: RoundingLogic;
  readonly assetValues?: AssetValues;
  readonly includeCustodialCash?: boolean;
  readonly useProductSubstitution?: ProductSubstitutionUse;
  /** Present only on tax-aware runs; without it the engine ignores taxes entirely. */
  readonly taxOptions?: TaxOptions;
}

export type Severity = 'Error' | 'Warning' | 'Info';

export interface EngineMessage {
  readonly accountId: number | null;
  readonly severity: Severity;
  /** Stable machine code, e.g. NO_MODEL, NO_PRICE, TRADE_BLOCKED, TRADE_DROPPED. */
  readonly code: string;
  readonly message: string;
  readonly productId?: number;
}

export type TradeSide = 'Buy' | 'Sell';

export interface Trade {
  readonly accountId: number;
  readonly productId: number;
  readonly ticker: string;
  readonly side: TradeSide;
  readonly shares: number;
  /** shares × price, rounded to the cent half away from zero. */
  readonly estimatedAmount: number;
  readonly price: number;
  /** A sentence saying why the trade exists. */
  readonly reason: string;
  /** Tax-aware sells in taxable accounts: the lots relieved, in the order they are relieved. */
  readonly lots?: readonly TradeLot[];
  readonly estimatedShortTermGain?: number;
  readonly estimatedLongTermGain?: number;
}

export interface TradeLot {
  /** Null for shares no stored lot covers (pending buys), relieved at their price, with no gain. */
  readonly taxLotId: number | null;
  readonly shares: number;
  /** Cost of the shares relieved, dollars. */
  readonly costBasis: number;
  readonly acquiredDate: string;
  readonly term: 'Short' | 'Long';
  readonly estimatedGain: number;
  /** Sold at a loss within 30 days of a buy in the household (a forced sale): the loss will be disallowed. */
  readonly washSale?: boolean;
}

/** One model line (a model product with its equivalents) or one non-model holding. */
export interface WeightRow {
  /** The product that represents the line: the model product (or its substitute), or the held product. */
  readonly productId: number;
  readonly ticker: string;
  readonly inModel: boolean;
  readonly targetPercent: number;
  readonly lowerTolerance: number;
  readonly upperTolerance: number;
  readonly valueBefore: number;
  readonly valueAfter: number;
  /** Percent of the investable value (account value minus protected cash). */
  readonly weightBefore: number;
  readonly weightAfter: number;
}

export interface CashSummary {
  readonly before: number;
  readonly after: number;
  /** Cash target in dollars: model cash percent of investable value plus protected cash (plus a withdrawal). */
  readonly target: number;
  readonly protected: number;
  readonly weightBefore: number;
  readonly weightAfter: number;
  readonly targetPercent: number;
}

export interface AccountResult {
  readonly accountId: number;
  readonly reason: RebalanceType;
  readonly trades: readonly Trade[];
  readonly messages: readonly EngineMessage[];
  /** True when any message is an Error: the batch ends Failed while other accounts keep their trades. */
  readonly hasError: boolean;
  readonly accountValue: number;
  readonly investableValue: number;
  readonly cash: CashSummary;
  readonly weights: readonly WeightRow[];
}

export interface SleeveSnapshot {
  readonly account: AccountSnapshot;
  /** Percent of the registration value; all sleeves total 100. */
  readonly targetAllocation: number;
  readonly toleranceLower: number;
  readonly toleranceUpper: number;
}

export interface RegistrationSnapshot {
  readonly registrationId: number;
  readonly asOfDate: string;
  readonly sleeves: readonly SleeveSnapshot[];
  /** Registration-level blocks (entityEnum 6); account blocks live on each sleeve's account. */
  readonly tradeBlocks?: readonly TradeBlock[];
}

export interface SleeveTransfer {
  readonly accountId: number;
  readonly currentAllocation: number;
  readonly targetAllocation: number;
  readonly outOfBand: boolean;
  /** Cash moved into (+) or out of (−) the sleeve, in dollars. */
  readonly amount: number;
}

export interface RegistrationResult {
  readonly registrationId: number;
  readonly accounts: readonly AccountResult[];
  readonly transfers: readonly SleeveTransfer[];
  readonly messages: readonly EngineMessage[];
  readonly hasError: boolean;
}

/** A buy or a loss sale of the household in the last 30 days (executed, pending or an open order). */
export interface RecentTrade {
  readonly productId: number;
  readonly date: string;
  readonly kind: 'Buy' | 'LossSale';
  /** The account of a loss sale, named when it moves a buy; absent when not known. */
  readonly accountId?: number;
}

/** Every account of one household (client), planned together in account id order. */
export interface HouseholdSnapshot {
  readonly householdId: number;
  readonly asOfDate: string;
  readonly accounts: readonly AccountSnapshot[];
  /** Gains realized this calendar year before the batch, dollars. */
  readonly realizedShortTermGain: number;
  readonly realizedLongTermGain: number;
  readonly recentTrades: readonly RecentTrade[];
}

export interface TaxSummary {
  readonly householdId: number;
  readonly shortTermGain: number;
  readonly longTermGain: number;
  readonly harvestedLosses: number;
  /** Buys moved to an equivalent or left in cash by the wash-sale rules. */
  readonly washSaleMoves: number;
  /** Sells cut short by the gains budget. */
  readonly budgetCuts: number;
}

export interface HouseholdResult {
  readonly householdId: number;
  readonly accounts: readonly AccountResult[];
  readonly summary: TaxSummary;
}
