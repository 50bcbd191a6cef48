// Tax-loss harvesting (docs/tax-aware.md): in a taxable account, sell exactly the lots whose
// loss passes both thresholds and buy a replacement for the proceeds, so the line keeps its
// dollars while the loss is realized. The replacement is the product's own configured one, else
// the line's first buyable member outside the harvested groups and the groups the household may
// not buy.

import { floorShares, shareDecimals, toCents, unitOf } from '../money.js';
import { amount as formatDollars } from './amount.js';
import { Why } from '../reasons.js';
import { recordBuy, recordSell, type AccountState, type Holding, type Line } from '../state.js';
import { BuyPriority, SellPriority, type Product, type TaxLot } from '../types.js';
import type { LineTemplate } from '../lines.js';
import { costPerShareOf, longTermCutoff, type LotSlice } from './lots.js';
import { groupOf, type HarvestThresholds, type TaxPlan } from './plan.js';
import { lotsOf } from './caps.js';
import { lotCeilingOf, rawLotsOf } from './lot-source.js';
import { firstOf } from './short-sorts.js';

/**
 * A holding's harvest: the shares and the losses it would realize. One class, its number fields
 * made fractions (NaN) before the constructor stores them: V8 gives a field the representation of
 * the first value stored in it, and picks made as object literals whose first loss was a whole 0
 * took small-integer fields, so the first fractional loss deoptimized sumOf; in about half the
 * processes that repeated dozens of times (a deoptimization loop, "lost precision or NaN"), and the
 * harvest ran slow for the rest of the run. A fraction first makes the fields doubles for good.
 */
class Pick {
  readonly shares: number = NaN;
  readonly lossShort: number = NaN;
  readonly lossLong: number = NaN;

  constructor(
    readonly h: Holding,
    shares: number,
    lossShort: number,
    lossLong: number,
  ) {
    this.shares = shares;
    this.lossShort = lossShort;
    this.lossLong = lossLong;
  }
}

function harvestable(s: LotSlice, t: HarvestThresholds): boolean {
  return !s.heldBack && s.id !== null && passes(s.shares, s.costPerShare, s.gainPerShare, t);
}

/** Whether a lot not held back, with an id, passes both thresholds: read from a slice or from a lot as given alike. */
function passes(shares: number, costPerShare: number, gainPerShare: number, t: HarvestThresholds): boolean {
  if (!(gainPerShare < 0)) return false;
  const loss = -gainPerShare * shares;
  const cost = costPerShare * shares;
  return loss >= t.minLossDollars - 1e-9 && cost > 0 && (loss / cost) * 100 >= t.minLossPercent - 1e-9;
}

/**
 * What harvesting the holding would sell and realize, or null. Read from the lots as given (no
 * relief order is built: most candidates of a direct-indexing account find no replacement), as
 * long as they hold no more shares than the holding; pending sells trim the first lots of the
 * order, and then only the ordered lots tell which remain.
 */
function candidate(h: Holding, plan: TaxPlan, t: HarvestThresholds): Pick | null {
  if (h.lotSource === null || h.frozen || h.sold > 0) return null;
  if (h.sellPriority === SellPriority.DoNotSell || h.sellPriority === SellPriority.HardToSell) return null;
  if (plan.recentBuyGroups.size > 0 && plan.recentBuyGroups.has(groupOf(h.product))) return null;
  if (cannotPass(h, t)) return null;
  const raw = rawLotsOf(h);
  // Most holdings have nothing to harvest: look at the lots as given before anything else.
  let any = false;
  let total = 0;
  for (const lot of raw) {
    const loss = lot.costBasis - lot.shares * h.price;
    if (lot.shares > 0) total += lot.shares;
    if (!any && lot.id !== undefined && lot.shares > 0 && loss > 0 && loss >= t.minLossDollars - 1e-9 && (loss / lot.costBasis) * 100 >= t.minLossPercent - 1e-9) any = true;
  }
  if (!any) return null;
  return h.lots !== null || total > h.shares + 1e-9 ? sumOf(h, lotsOf(h), t) : sumOfLots(h, raw, plan.asOfDate, t);
}

/**
 * sumOf over the lots as given, each read as sliceOf reads it (same numbers, same order) without
 * making the slice: most candidates find no replacement, and their slices were garbage at once.
 * No lot is held back here (candidate returned before for a group bought in the window).
 */
function sumOfLots(h: Holding, raw: readonly TaxLot[], tradeDate: string, t: HarvestThresholds): Pick | null {
  let shares = 0;
  let lossShort = 0;
  let lossLong = 0;
  let found = false;
  const cutoff = longTermCutoff(tradeDate);
  for (const lot of raw) {
    if (!(lot.shares > 0) || (lot.id ?? null) === null) continue;
    const costPerShare = costPerShareOf(lot);
    const gainPerShare = h.price - costPerShare;
    if (!passes(lot.shares, costPerShare, gainPerShare, t)) continue;
    found = true;
    shares += lot.shares;
    if ((lot.acquiredOn ?? tradeDate) < cutoff) lossLong -= gainPerShare * lot.shares;
    else lossShort -= gainPerShare * lot.shares;
  }
  return found ? new Pick(h, shares, lossShort, lossLong) : null;
}

/**
 * True when the holding's lot summaries show that no lot passes the thresholds, so its lots need
 * not be read (most holdings of a direct-indexing book). A lot's loss percent is 1 - price / its
 * cost per share, highest for the costliest share; its loss is its cost times that percent, so at
 * most the costliest lot's cost times the highest percent. Both bounds lean to reading the lots.
 */
function cannotPass(h: Holding, t: HarvestThresholds): boolean {
  const c = lotCeilingOf(h);
  if (c === undefined) return false;
  if (h.price > c.maxCostPerShare * (1 - Math.max(0, t.minLossPercent) / 100) * (1 + 1e-9) + 1e-9) return true;
  const maxLoss = c.maxLotCost * (1 - h.price / c.maxCostPerShare);
  return maxLoss * (1 + 1e-9) + 1e-6 < t.minLossDollars - 1e-9;
}

function sumOf(h: Holding, slices: readonly LotSlice[], t: HarvestThresholds): Pick | null {
  let shares = 0;
  let lossShort = 0;
  let lossLong = 0;
  let found = false;
  for (const s of slices) {
    if (!harvestable(s, t)) continue;
    found = true;
    shares += s.shares;
    if (s.long) lossLong -= s.gainPerShare * s.shares;
    else lossShort -= s.gainPerShare * s.shares;
  }
  return found ? new Pick(h, shares, lossShort, lossLong) : null;
}

/** Puts the harvestable lots first (each part keeps the method's order), and sums them in that order. */
function harvestOrder(p: Pick, t: HarvestThresholds): Pick {
  const take: LotSlice[] = [];
  const rest: LotSlice[] = [];
  for (const s of lotsOf(p.h)) (harvestable(s, t) ? take : rest).push(s);
  p.h.lots = take.concat(rest);
  return sumOf(p.h, take, t) ?? p;
}

/** Whether one of the picks harvests group `g` (a line has one pick or two: no set is made for them). */
function harvests(picks: readonly Pick[], g: string): boolean {
  for (const p of picks) if (groupOf(p.h.product) === g) return true;
  return false;
}

function mayBuy(tpl: LineTemplate | null, product: Product | undefined, plan: TaxPlan, picks: readonly Pick[]): product is Product {
  if (!product || !(product.price !== null && product.price > 0)) return false;
  const g = groupOf(product);
  if (harvests(picks, g) || plan.noBuyGroups.has(g) || plan.lossGroups.has(g)) return false;
  if (!tpl) return true;
  if ((tpl.buy.get(product.id) ?? BuyPriority.CanBuy) === BuyPriority.DoNotBuy) return false;
  return tpl.plan ? tpl.plan.securities.some((s) => s.productId === product.id) : !tpl.blockedBuy.has(product.id);
}

function replacementFor(st: AccountState, plan: TaxPlan, line: Line, picks: Pick[]): Product | null {
  const tpl = st.template;
  for (const p of picks) {
    const id = p.h.product.harvestReplacementProductId;
    if (id != null) {
      const product = st.snap.products.get(id);
      if (mayBuy(tpl, product, plan, picks)) return product;
    }
  }
  if (!tpl || !line.inModel) return null;
  const index = tpl.lineOf.get(line.key);
  const spec = index === undefined ? undefined : tpl.lines[index];
  for (const id of spec?.buyable ?? []) {
    const product = tpl.memberOf.get(id)?.product;
    if (mayBuy(tpl, product, plan, picks)) return product;
  }
  return null;
}

function lossText(short: number, long: number): string {
  if (short > 0 && long > 0) return `${formatDollars(short)} short-term and ${formatDollars(long)} long-term loss`;
  return short > 0 ? `${formatDollars(short)} short-term loss` : `${formatDollars(long)} long-term loss`;
}

export function harvestLosses(st: AccountState): void {
  const plan = st.tax;
  if (plan === null || plan.harvest === null || !plan.taxable) return;
  const t = plan.harvest;
  const skipped: Pick[] = [];
  for (const line of st.lines) {
    // Made for a line with a pick only: most lines of a taxable account have none.
    let picks: Pick[] | null = null;
    for (const h of line.holdings) {
      const pick = candidate(h, plan, t);
      if (pick) (picks ??= []).push(pick);
    }
    if (picks === null) continue;
    const replacement = replacementFor(st, plan, line, picks);
    if (!replacement) {
      for (const p of picks) skipped.push(p);
      continue;
    }
    const tickers = picks.map((p) => p.h.product.ticker).join(', ');
    let proceedsCents = 0;
    for (const p of picks.map((c) => harvestOrder(c, t))) {
      const before = p.h.soldCents;
      p.h.reason = `tax-loss harvest: sell the ${p.h.product.ticker} lots at a loss (${lossText(p.lossShort, p.lossLong)})`;
      recordSell(st, p.h, p.shares, Why.Drift);
      proceedsCents += p.h.soldCents - before;
      // The harvested holding is not traded again in this run: its line keeps its dollars through the replacement.
      p.h.frozen = true;
      plan.harvestedLoss += p.lossShort + p.lossLong;
      plan.lossGroups.add(groupOf(p.h.product));
      st.message('Info', 'HARVESTED', `harvested ${lossText(p.lossShort, p.lossLong)}: ${p.h.product.ticker} → ${replacement.ticker}`, p.h.product.id);
    }
    line.harvestedFrom = { product: line.buyProduct, priority: line.buyPriority, decimals: line.buyDecimals };
    line.buyProduct = replacement;
    line.buyPriority = BuyPriority.CanBuy;
    line.buyDecimals = shareDecimals(replacement, st.settings.rounding);
    const price = replacement.price as number;
    let shares = floorShares(proceedsCents / 100 / price, line.buyDecimals);
    const unit = unitOf(line.buyDecimals);
    while (shares > 0 && toCents(shares * price) > proceedsCents) shares = Math.round((shares - unit) / unit) * unit;
    line.buyReason = `tax-loss harvest: buy ${replacement.ticker} with the proceeds of ${tickers} to keep the model's exposure`;
    recordBuy(st, line, shares, Why.Drift);
    for (const other of st.lines) for (const h of other.holdings) if (h.product.id === replacement.id) h.frozen = true;
  }
  if (skipped.length > 0) noteSkipped(st, skipped);
}

function byLargestLoss(a: Pick, b: Pick): number {
  return b.lossShort + b.lossLong - (a.lossShort + a.lossLong) || a.h.product.id - b.h.product.id;
}

/**
 * One Info per account for the losses that found no replacement (a direct-indexing account can
 * have hundreds): the largest few by name, the rest counted.
 */
function noteSkipped(st: AccountState, skipped: Pick[]): void {
  let short = 0;
  let long = 0;
  for (const p of skipped) {
    short += p.lossShort;
    long += p.lossLong;
  }
  const largest = firstOf(skipped, byLargestLoss, 5);
  const named = largest.map((p) => p.h.product.ticker).join(', ');
  const more = skipped.length > largest.length ? ` and ${skipped.length - largest.length} more` : '';
  st.message('Info', 'HARVEST_SKIPPED', `${lossText(short, long)} not harvested in ${named}${more}: no replacement may be bought`, skipped.length === 1 ? skipped[0]?.h.product.id : undefined);
}
