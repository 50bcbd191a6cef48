// Turns a snapshot into the working state: holdings grouped into model lines,
// priorities attached, values, protected cash and the cash target computed.

import { REBALANCE_DEFAULTS } from './defaults.js';
import { buyPriorityOf, lineTemplate, sellPriorityOf, type LineTemplate } from './lines.js';
import { formatDollars, shareDecimals } from './money.js';
import { AccountState, newHolding, newLine, type Holding, type Line, type Settings } from './state.js';
import { BuyPriority, SellPriority, type AccountSnapshot, type Position, type RebalanceOptions } from './types.js';
import { countedItems, protectedCash } from './values.js';
import { countedNotes } from './counted.js';
import { mightTradeAgain } from './needreview.js';
import { holdingLots } from './tax/holding-lots.js';
import { withPosition } from './tax/lot-source.js';
import { groupOf, type TaxPlan, washSaleCause } from './tax/plan.js';

export function settingsOf(opts: RebalanceOptions, snap: AccountSnapshot): Settings {
  const counted = countedItems(opts.assetValues ?? REBALANCE_DEFAULTS.assetValues, snap.firmDefaultAssetValues);
  return {
    reason: opts.reason,
    amount: opts.amount !== undefined && opts.amount > 0 ? opts.amount : 0,
    exactTrades: opts.exactTrades ?? REBALANCE_DEFAULTS.exactTrades,
    maxTrades: opts.maxTrades ?? REBALANCE_DEFAULTS.maxTrades,
    minTradeAmount: opts.minTradeAmount ?? REBALANCE_DEFAULTS.minTradeAmount,
    minTradePercent: opts.minTradePercent ?? REBALANCE_DEFAULTS.minTradePercent,
    rounding: opts.roundingLogic ?? REBALANCE_DEFAULTS.roundingLogic,
    includeCustodialCash: opts.includeCustodialCash ?? REBALANCE_DEFAULTS.includeCustodialCash,
    useSubstitution: (opts.useProductSubstitution ?? REBALANCE_DEFAULTS.useProductSubstitution) === 'Use',
    countPending: counted.pending,
    countOrders: counted.orders,
  };
}

// Loss shares of one position for Sell If No Gain: with tax lots only the lots
// at or below cost may go; without lots the average cost decides for all shares.
function lossSharesOf(p: Position, price: number): number {
  if (p.taxLots && p.taxLots.length > 0) {
    let s = 0;
    for (const lot of p.taxLots) if (lot.shares > 0 && price * lot.shares <= lot.costBasis + 1e-9) s += lot.shares;
    return s < p.shares ? s : p.shares;
  }
  if (p.costBasis == null || p.shares <= 0) return 0;
  return price * p.shares <= p.costBasis + 1e-9 ? p.shares : 0;
}

/** Builds the state; `failed` is set, with an Error message, when the account cannot be rebalanced. */
export function buildState(snap: AccountSnapshot, settings: Settings, cashAdjustment: number, tax: TaxPlan | null = null): AccountState {
  const st = new AccountState(snap, settings);
  st.tax = tax;
  const model = snap.model;
  if (!model && settings.reason !== 'Withdraw100Pct') {
    st.message('Error', 'NO_MODEL', `account ${snap.accountId} has no model; it cannot be rebalanced`);
    st.failed = true;
    return st;
  }
  const tpl: LineTemplate | null = model ? lineTemplate(snap, settings.useSubstitution) : null;
  if (tpl) {
    for (const n of tpl.notes) st.message(n.severity, n.code, n.message, n.productId);
    for (const spec of tpl.lines) st.lines.push(newLine(spec.key, spec.ticker, true, spec.targetPct / 100, spec.targetPct, spec.lowerPct, spec.upperPct));
  }
  const modelLines = st.lines.length;
  // A taxable account's holdings learn here which positions their lots come from (tax/holding-lots.ts).
  const lotted = tax !== null && tax.taxable;
  let fatal = false;
  for (const p of snap.positions) {
    const h = holdingFor(st, tpl, modelLines, p.productId);
    if (!h) {
      fatal = true;
      continue;
    }
    if (lotted) h.lotSource = withPosition(h.lotSource, p);
    h.shares += p.shares;
    h.lossShares += h.sellPriority === SellPriority.SellIfNoGain ? lossSharesOf(p, h.price) : p.shares;
  }
  let cash = (settings.includeCustodialCash ? snap.custodialCash : 0) + cashAdjustment;
  for (let k = 0; k < 2; k++) {
    const list = k === 0 ? (settings.countPending ? snap.pendingTransactions : undefined) : settings.countOrders ? snap.openOrders : undefined;
    if (!list) continue;
    for (const it of list) {
      cash += it.cash;
      if (it.productId === null || it.shares === 0) continue;
      const h = holdingFor(st, tpl, modelLines, it.productId);
      if (!h) {
        fatal = true;
        continue;
      }
      h.shares += it.shares;
      // Pending shares carry no lots: they only count as sellable when no gain test applies.
      if (h.sellPriority !== SellPriority.SellIfNoGain) h.lossShares += it.shares;
    }
  }
  countedNotes(st, settings.countPending ? snap.pendingTransactions : undefined, settings.countOrders ? snap.openOrders : undefined);
  if (fatal) {
    st.failed = true;
    return st;
  }

  if (st.lines.length > modelLines + 1) {
    const extra = st.lines.splice(modelLines).sort((a, b) => (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : a.key - b.key));
    for (const l of extra) st.lines.push(l);
  }

  let positionsValue = 0;
  for (const line of st.lines) {
    let value = 0;
    for (const h of line.holdings) {
      if (h.shares < -1e-9) {
        st.message('Warning', 'NEGATIVE_POSITION', `${h.product.ticker} nets to ${h.shares} shares after pending items; treated as 0`, h.product.id);
      }
      if (h.shares < 1e-9) h.shares = 0;
      if (h.lossShares > h.shares) h.lossShares = h.shares;
      if (h.shares > 0 && !(h.price > 0)) {
        st.message('Error', 'NO_PRICE', `${h.product.ticker} has no price; the account cannot be valued`, h.product.id);
        fatal = true;
      }
      value += h.shares * h.price;
    }
    line.value = value;
    line.now = value;
    positionsValue += value;
  }
  if (fatal) {
    st.failed = true;
    return st;
  }

  if (tpl) {
    for (let i = 0; i < modelLines; i++) chooseBuyProduct(st, tpl, st.lines[i] as Line, i);
  }
  if (tax !== null) {
    st.template = tpl;
    if (tax.taxable) holdingLots(st, tax);
  }
  for (const line of st.lines) if (line.holdings.length > 1) line.holdings.sort(sellOrder);

  if (settings.reason === 'Add' && settings.amount > cash) {
    st.message('Info', 'ADD_CASH_RAISED', `cash ${formatDollars(cash)} raised to the added amount ${formatDollars(settings.amount)} for the calculation`);
    cash = settings.amount;
  }
  const value = positionsValue + cash;
  const prot = protectedCash(snap.setAsideCash, snap.asOfDate, { managed: value, excluded: snap.excludedValue ?? 0 });
  let investable = value - prot;
  if (investable < 0) {
    st.message('Warning', 'PROTECTED_EXCEEDS_VALUE', `protected cash ${formatDollars(prot)} exceeds the account value ${formatDollars(value)}`);
    investable = 0;
  }
  st.cashBefore = cash;
  st.accountValue = value;
  st.investable = investable;
  st.cashTargetFraction = tpl ? tpl.cashTarget : 0;
  st.cashUpper = tpl ? tpl.cashUpper : 0;
  setTargets(st, prot, investable);
  return st;
}

/** Targets of the lines and of cash from an account value (the value before trades, or after them when re-planning). */
export function setTargets(st: AccountState, prot: number, investable: number): void {
  st.protectedCash = prot;
  st.basis = investable;
  st.cashTarget = st.cashTargetFraction * investable + prot + (st.settings.reason === 'Withdraw' ? st.settings.amount : 0);
  for (const line of st.lines) line.targetDollars = line.target * investable;
}

/**
 * Re-targets the account on the value it has after its planned trades (set
 * by finishState), when
 * that value differs from the one the targets came from and a NeedReview of
 * the post-trade portfolio on it might trade. Returns whether it re-targeted
 * (the caller then plans again).
 */
export function retargetAfterTrades(st: AccountState): boolean {
  const value = st.valueAfterTrades;
  const snap = st.snap;
  const prot = protectedCash(snap.setAsideCash, snap.asOfDate, { managed: value, excluded: snap.excludedValue ?? 0 });
  const investable = value - prot > 0 ? value - prot : 0;
  // Below this the difference is binary noise of the sums, not the rounding of a trade.
  if (Math.abs(investable - st.basis) <= 1e-12 * Math.abs(value) + 1e-9) return false;
  if (!mightTradeAgain(st, investable, prot)) return false;
  setTargets(st, prot, investable);
  return true;
}

// The holding of a product, created in its model line (or a line of its own
// when the model does not hold it) the first time the product is seen.
function holdingFor(st: AccountState, tpl: LineTemplate | null, modelLines: number, productId: number): Holding | null {
  const member = tpl ? tpl.memberOf.get(productId) : undefined;
  let line: Line | undefined;
  if (member !== undefined) {
    line = st.lines[member.line];
  } else {
    for (let i = modelLines; i < st.lines.length; i++) if ((st.lines[i] as Line).key === productId) line = st.lines[i];
  }
  if (line) for (const h of line.holdings) if (h.product.id === productId) return h;
  const product = member ? member.product : st.snap.products.get(productId);
  if (!product) {
    st.message('Error', 'UNKNOWN_PRODUCT', `product ${productId} is held but missing from the product catalog`, productId);
    return null;
  }
  if (!line) {
    line = newLine(productId, product.ticker, false, 0, 0, 0, 0);
    st.lines.push(line);
  }
  const sp = member ? member.sell : tpl ? sellPriorityOf(tpl, productId) : SellPriority.CanSell;
  const h = newHolding(product, product.price ?? 0, shareDecimals(product, st.settings.rounding), sp, line);
  line.holdings.push(h);
  return h;
}

function sellRank(h: Holding): number {
  switch (h.sellPriority) {
    case SellPriority.PrioritySell:
      return 0;
    case SellPriority.SellIfNoGain:
      return 2;
    case SellPriority.HardToSell:
      return 3;
    case SellPriority.DoNotSell:
      return 4;
    default:
      return 1;
  }
}

// Inside a line, sell what the account would not buy back first.
function sellOrder(a: Holding, b: Holding): number {
  const r = sellRank(a) - sellRank(b);
  if (r !== 0) return r;
  const ab = a.line.buyProduct === a.product ? 1 : 0;
  const bb = b.line.buyProduct === b.product ? 1 : 0;
  if (ab !== bb) return ab - bb;
  return a.product.id - b.product.id;
}

function chooseBuyProduct(st: AccountState, tpl: LineTemplate, line: Line, index: number): void {
  pickBuyProduct(st, tpl, line, index);
  if (st.tax !== null && st.tax.noBuyGroups.size > 0) avoidWashBuy(st, tpl, line, index, st.tax.noBuyGroups);
}

function pickBuyProduct(st: AccountState, tpl: LineTemplate, line: Line, index: number): void {
  const spec = tpl.lines[index];
  if (!spec || spec.buyable.length === 0) return;
  if (!spec.hasPreferred) {
    if (!spec.firstBuy) return;
    line.buyProduct = spec.firstBuy;
    line.buyPriority = spec.firstBuyPriority;
    line.buyDecimals = shareDecimals(spec.firstBuy, st.settings.rounding);
    return;
  }
  let chosen = spec.buyable[0] as number;
  if (spec.hasPreferred) {
    for (const id of spec.buyable) {
      if (buyPriorityOf(tpl, id) !== BuyPriority.PreferredIfHeld) continue;
      if (line.holdings.some((h) => h.product.id === id && h.shares > 0)) {
        chosen = id;
        break;
      }
    }
  }
  const product = tpl.memberOf.get(chosen)?.product;
  if (!product) return;
  line.buyProduct = product;
  line.buyPriority = buyPriorityOf(tpl, chosen);
  line.buyDecimals = shareDecimals(product, st.settings.rounding);
}

/**
 * Wash-sale rules 1 and 3: a buy of a group the household sold at a loss in the last 30 days (or
 * in this batch) moves to the line's next buyable member outside those groups; with none the line
 * buys nothing and its money stays in cash (reported by tax/notes.ts).
 */
function avoidWashBuy(st: AccountState, tpl: LineTemplate, line: Line, index: number, blocked: Pick<ReadonlySet<string>, 'has'>): void {
  const original = line.buyProduct;
  if (!original || !blocked.has(groupOf(original))) return;
  line.washMovedFrom = original;
  line.washCause = washSaleCause(st.snap.products, st.snap.accountId, original, st.tax?.lossSaleOf(groupOf(original)));
  line.buyProduct = null;
  const spec = tpl.lines[index];
  for (const id of spec?.buyable ?? []) {
    const product = tpl.memberOf.get(id)?.product;
    if (!product || blocked.has(groupOf(product))) continue;
    line.buyProduct = product;
    line.buyPriority = buyPriorityOf(tpl, id);
    line.buyDecimals = shareDecimals(product, st.settings.rounding);
    return;
  }
  line.washBlocked = true;
}
