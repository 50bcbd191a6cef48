// The mutable working state of one account during a rebalance. Trades are
// accumulated on the holdings (sells) and lines (buys) so that each trade is
// priced and rounded to the cent exactly once, when the result is emitted.

import { SellPriority, BuyPriority } from './types.js';
import type {
  AccountSnapshot,
  BuyPriorityId,
  EngineMessage,
  Product,
  RebalanceType,
  RoundingLogic,
  SellPriorityId,
  Severity,
  TaxLot,
} from './types.js';
import { toCents } from './money.js';
import { reasonText, type WhyCode } from './reasons.js';
import type { LineTemplate } from './lines.js';
import { retally, taxCap } from './tax/caps.js';
import type { LotSource } from './tax/lot-source.js';
import { releaseSlices, type LotSlice } from './tax/lots.js';
import type { TaxPlan } from './tax/plan.js';

export interface Settings {
  readonly reason: RebalanceType;
  readonly amount: number;
  readonly exactTrades: boolean;
  readonly maxTrades: number;
  readonly minTradeAmount: number;
  readonly minTradePercent: number;
  readonly rounding: RoundingLogic;
  readonly includeCustodialCash: boolean;
  readonly useSubstitution: boolean;
  readonly countPending: boolean;
  readonly countOrders: boolean;
}

// Lines and holdings are pooled: a large batch builds about fifty of them per
// account, and they die as soon as the result is emitted (which copies what it
// needs). `newLine`/`newHolding` take one from the pool, `releaseState` gives
// an account's back once its result exists.
export class Holding {
  sold = 0;
  soldCents = 0;
  reason = '';
  product!: Product;
  price = 0;
  decimals = 0;
  shares = 0;
  sellPriority: SellPriorityId = SellPriority.CanSell;
  /** Shares that may be sold under Sell If No Gain (all shares for other priorities). */
  lossShares = 0;
  line!: Line;
  // Tax-aware runs only (see tax/caps.ts); `tax` is null otherwise and none of these is read.
  tax: TaxPlan | null = null;
  /** The positions whose lots the holding relieves (null when the run tracks no lots); their lots are read by rawLotsOf. */
  lotSource: LotSource | null = null;
  rawLots: readonly TaxLot[] | null = null;
  lots: LotSlice[] | null = null;
  freeShares = 0;
  gainShort = 0;
  gainLong = 0;
  frozen = false;
  /** Shares a sell wanted beyond what the tax rules let it take, and whether the budget (else rule 2) stopped it. */
  taxCut = 0;
  taxCutByBudget = false;
}

export class Line {
  readonly holdings: Holding[] = [];
  key = 0;
  ticker = '';
  inModel = false;
  target = 0;
  targetPct = 0;
  lowerPct = 0;
  upperPct = 0;
  /** Market value before trades. */
  value = 0;
  /** Market value as trades are planned. */
  now = 0;
  targetDollars = 0;
  buyProduct: Product | null = null;
  buyPriority: BuyPriorityId = BuyPriority.CanBuy;
  buyDecimals = 0;
  bought = 0;
  boughtCents = 0;
  buyReason = '';
  /** Dollars the current buy phase wants to spend on this line. */
  want = 0;
  tier = 0;
  /** Scratch of the overweight sort (0 when the line holds a Priority Sell product). */
  sellRank = 1;
  /** Set when a filter dropped this line's buy, so a recomputation skips it. */
  buyDropped = false;
  /** Market value after the planned trades, set when the result is emitted. */
  afterValue = 0;
  // Tax-aware runs only: the model's buy product that a wash-sale rule moved away from (or left
  // with nothing to buy), and the buy product before a harvest put its replacement there.
  washMovedFrom: Product | null = null;
  /** Why washMovedFrom may not be bought: the sale that bars it, in words (tax/plan.ts washSaleCause). */
  washCause = '';
  washBlocked = false;
  harvestedFrom: { product: Product | null; priority: BuyPriorityId; decimals: number } | null = null;
}

const linePool: Line[] = [];
const holdingPool: Holding[] = [];

export function newLine(key: number, ticker: string, inModel: boolean, target: number, targetPct: number, lowerPct: number, upperPct: number): Line {
  const l = linePool.pop() ?? new Line();
  l.key = key;
  l.ticker = ticker;
  l.inModel = inModel;
  l.target = target;
  l.targetPct = targetPct;
  l.lowerPct = lowerPct;
  l.upperPct = upperPct;
  l.value = 0;
  l.now = 0;
  l.targetDollars = 0;
  l.buyProduct = null;
  l.buyPriority = BuyPriority.CanBuy;
  l.buyDecimals = 0;
  l.bought = 0;
  l.boughtCents = 0;
  l.buyReason = '';
  l.want = 0;
  l.tier = 0;
  l.sellRank = 1;
  l.buyDropped = false;
  l.washMovedFrom = null;
  l.washCause = '';
  l.washBlocked = false;
  l.harvestedFrom = null;
  return l;
}

export function newHolding(product: Product, price: number, decimals: number, sellPriority: SellPriorityId, line: Line): Holding {
  const h = holdingPool.pop() ?? new Holding();
  h.sold = 0;
  h.soldCents = 0;
  h.reason = '';
  h.product = product;
  h.price = price;
  h.decimals = decimals;
  h.shares = 0;
  h.sellPriority = sellPriority;
  h.lossShares = 0;
  h.line = line;
  h.tax = null;
  h.lotSource = null;
  h.rawLots = null;
  h.lots = null;
  h.freeShares = 0;
  h.gainShort = 0;
  h.gainLong = 0;
  h.frozen = false;
  h.taxCut = 0;
  h.taxCutByBudget = false;
  return h;
}

/** Gives the lines and holdings of a finished account back to the pools; the state must not be used after. */
export function releaseState(st: AccountState): void {
  const lines = st.lines;
  while (lines.length > 0) {
    const line = lines.pop() as Line;
    const hs = line.holdings;
    while (hs.length > 0) {
      const h = hs.pop() as Holding;
      h.tax = null;
      h.lotSource = null;
      h.rawLots = null;
      if (h.lots !== null) releaseSlices(h.lots);
      h.lots = null;
      holdingPool.push(h);
    }
    line.buyProduct = null;
    linePool.push(line);
  }
}

export class AccountState {
  readonly lines: Line[] = [];
  readonly messages: EngineMessage[] = [];
  cashBefore = 0;
  accountValue = 0;
  /** Investable value before trades: reported, and the base of the weights in reasons. */
  investable = 0;
  /**
   * Investable value the targets are computed from. It starts as `investable`;
   * NeedReview re-plans once with the value the account has after its trades
   * (see `planningBasis` in account.ts), so a second run judges the same targets.
   */
  basis = 0;
  protectedCash = 0;
  /** Account value after the planned trades, as the result sums it (per line, then cash), which is how a later build sums the post-trade holdings. */
  valueAfterTrades = 0;
  cashTarget = 0;
  cashTargetFraction = 0;
  cashUpper = 0;
  sellCents = 0;
  buyCents = 0;
  /** Raising cash for NeedReview fell short (a CASH_SHORT warning was given). */
  cashShort = false;
  /** A filter dropped a sell: buys are then planned on the cash that stays, with no new sells. */
  sellsFrozen = false;
  /** An Error stopped the account (no model, unpriced holding): no trades. */
  failed = false;
  /** Tax-aware runs only: the household's rules for this account. */
  tax: TaxPlan | null = null;
  /** Tax-aware runs only: the model's line template (harvesting picks replacements from it). */
  template: LineTemplate | null = null;
  constructor(
    readonly snap: AccountSnapshot,
    readonly settings: Settings,
  ) {}

  cashNow(): number {
    return this.cashBefore + (this.sellCents - this.buyCents) / 100;
  }

  /** Whole cents a buy may still spend without taking cash below its target. */
  availableCents(): number {
    const c = Math.floor((this.cashNow() - this.cashTarget) * 100 + 1e-6);
    return c > 0 ? c : 0;
  }

  /** Undoes every planned trade and the messages planning added, so the account can be planned again. */
  resetPlan(messageCount: number): void {
    for (const line of this.lines) {
      for (const h of line.holdings) {
        h.sold = 0;
        h.soldCents = 0;
        h.reason = '';
        h.gainShort = 0;
        h.gainLong = 0;
        h.taxCut = 0;
        h.frozen = false;
      }
      if (line.harvestedFrom) {
        line.buyProduct = line.harvestedFrom.product;
        line.buyPriority = line.harvestedFrom.priority;
        line.buyDecimals = line.harvestedFrom.decimals;
        line.harvestedFrom = null;
      }
      line.now = line.value;
      line.bought = 0;
      line.boughtCents = 0;
      line.buyReason = '';
      line.want = 0;
      line.tier = 0;
      line.buyDropped = false;
    }
    this.sellCents = 0;
    this.buyCents = 0;
    this.cashShort = false;
    this.sellsFrozen = false;
    this.messages.length = messageCount;
    if (this.tax) {
      this.tax.plannedShort = 0;
      this.tax.plannedLong = 0;
      this.tax.harvestedLoss = 0;
      this.tax.lossGroups.clear();
    }
  }

  message(severity: Severity, code: string, message: string, productId?: number): void {
    this.messages.push(productId === undefined ? { accountId: this.snap.accountId, severity, code, message } : { accountId: this.snap.accountId, severity, code, message, productId });
  }
}

/** Shares of a holding that the current phase may sell. */
export function sellableShares(h: Holding, allowHardToSell: boolean): number {
  const base = prioritySellable(h, allowHardToSell);
  return h.tax === null ? base : taxCap(h, base);
}

/** Shares the priorities alone let the current phase sell. */
export function prioritySellable(h: Holding, allowHardToSell: boolean): number {
  const left = h.shares - h.sold;
  if (left <= 0) return 0;
  switch (h.sellPriority) {
    case SellPriority.DoNotSell:
      return 0;
    case SellPriority.HardToSell:
      return allowHardToSell ? left : 0;
    case SellPriority.SellIfNoGain: {
      const loss = h.lossShares - h.sold;
      return loss < left ? (loss > 0 ? loss : 0) : left;
    }
    case SellPriority.SellToTarget: {
      const room = (h.line.now - h.line.targetDollars) / h.price;
      if (room <= 0) return 0;
      const f = 10 ** h.decimals;
      const s = Math.floor(room * f + 1e-7) / f;
      return s < left ? s : left;
    }
    default:
      return left;
  }
}

export function recordSell(st: AccountState, h: Holding, shares: number, why: WhyCode): void {
  if (shares <= 0) return;
  const left = h.shares - h.sold;
  // Selling (almost) everything sells exactly the shares held, never a float more.
  const delta = shares >= left - 1e-9 ? left : shares;
  if (delta === left) {
    h.sold = h.shares;
  } else {
    const f = 10 ** h.decimals;
    const sold = Math.round((h.sold + delta) * f) / f;
    h.sold = sold < h.shares ? sold : h.shares;
  }
  if (h.reason === '') h.reason = reasonText(st, why, h.line, h.product.ticker);
  st.sellCents -= h.soldCents;
  h.soldCents = toCents(h.sold * h.price);
  st.sellCents += h.soldCents;
  h.line.now -= delta * h.price;
  if (h.lotSource !== null) retally(h);
}

export function recordBuy(st: AccountState, line: Line, shares: number, why: WhyCode): void {
  if (shares <= 0 || !line.buyProduct) return;
  const price = line.buyProduct.price as number;
  const f = 10 ** line.buyDecimals;
  line.bought = Math.round((line.bought + shares) * f) / f;
  if (line.buyReason === '') line.buyReason = reasonText(st, why, line, line.buyProduct.ticker);
  st.buyCents -= line.boughtCents;
  line.boughtCents = toCents(line.bought * price);
  st.buyCents += line.boughtCents;
  line.now += shares * price;
}
