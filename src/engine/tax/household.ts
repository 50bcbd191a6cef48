// One household, planned together (docs/tax-aware.md): its accounts in account id order share
// the gains budget of the year, and the wash-sale rules hold across all of them. A loss sale in
// one account stops buys of that group in every account; when an account planned earlier bought
// what a later one sells at a loss, the household is planned again with that group barred (the
// sale stands, the buy moves). The barred set only grows, so this ends.

import { runAccount } from '../account.js';
import { TAX_DEFAULTS } from '../defaults.js';
import { roundCents } from '../money.js';
import type { AccountResult, AccountSnapshot, HouseholdResult, HouseholdSnapshot, Product, RebalanceOptions, TaxOptions, Trade } from '../types.js';
import { daysBefore } from './lots.js';
import { groupOf, type LossSale, newTaxPlan, NO_GROUPS, UnionSet, type TaxPlan } from './plan.js';

const WINDOW_DAYS = 30;

function groupOfId(products: ReadonlyMap<number, Product>, id: number): string {
  const p = products.get(id);
  return p ? groupOf(p) : `p:${id}`;
}

/**
 * Groups the household bought, and groups it sold at a loss, in the 30 days before the run; for
 * each loss-sold group its latest loss sale (trades come in date order).
 */
function history(hh: HouseholdSnapshot): { bought: Set<string>; lossSold: Set<string>; lossSales: Map<string, LossSale> } {
  const bought = new Set<string>();
  const lossSold = new Set<string>();
  const lossSales = new Map<string, LossSale>();
  const products = hh.accounts[0]?.products ?? new Map<number, Product>();
  // ISO dates compare as strings: one comparison per lot, no date parsing (and no closure to
  // make per household).
  const from = daysBefore(hh.asOfDate, WINDOW_DAYS);
  const to = hh.asOfDate;
  for (const t of hh.recentTrades) {
    if (!(t.date >= from && t.date <= to)) continue;
    const group = groupOfId(products, t.productId);
    if (t.kind === 'Buy') bought.add(group);
    else {
      lossSold.add(group);
      lossSales.set(group, { productId: t.productId, accountId: t.accountId ?? null });
    }
  }
  // A lot acquired in the last 30 days is a buy, in any account of the household.
  for (const a of hh.accounts) {
    for (const p of a.positions) {
      // Lots older than the window are the rule: their summary spares reading them.
      if (p.lotsSummary && p.lotsSummary.latestAcquiredOn < from) continue;
      // Most positions of an account that is not taxable have no lots: no empty list made for each.
      const lots = p.taxLots;
      if (!lots) continue;
      for (const lot of lots) if (lot.acquiredOn && lot.acquiredOn >= from && lot.acquiredOn <= to) bought.add(groupOfId(a.products, p.productId));
    }
  }
  return { bought, lossSold, lossSales };
}

interface Pass {
  results: AccountResult[];
  plans: TaxPlan[];
  /** Groups sold at a loss in taxable accounts by this pass. */
  lossSold: Set<string>;
  /** For each group of lossSold, the first account's sale of it. */
  lossSales: Map<string, LossSale>;
}

function limit(value: number | null | undefined, realized: number): number {
  return value === null || value === undefined ? Infinity : value - realized;
}

/** A sell that realizes a net loss or relieves any lot at a loss (a loop: no list or closure made per sell). */
function soldAtALoss(t: Trade): boolean {
  if ((t.estimatedShortTermGain ?? 0) + (t.estimatedLongTermGain ?? 0) < 0) return true;
  if (t.lots) for (const l of t.lots) if (l.estimatedGain < 0) return true;
  return false;
}

/** The loss sale that bars a group: this pass's first, else the earlier one that barred it. */
function lossSaleIn(lossSales: ReadonlyMap<string, LossSale>, barredSales: ReadonlyMap<string, LossSale>, group: string): LossSale | undefined {
  return lossSales.get(group) ?? barredSales.get(group);
}

function inIdOrder(accounts: readonly AccountSnapshot[]): boolean {
  for (let i = 1; i < accounts.length; i++) if ((accounts[i - 1] as AccountSnapshot).accountId > (accounts[i] as AccountSnapshot).accountId) return false;
  return true;
}

function planPass(
  hh: HouseholdSnapshot,
  accounts: readonly AccountSnapshot[],
  optionsFor: (accountId: number) => RebalanceOptions,
  tax: TaxOptions,
  barred: ReadonlySet<string>,
  recentBuys: ReadonlySet<string>,
  barredSales: ReadonlyMap<string, LossSale>,
): Pass {
  const avoid = tax.avoidWashSales ?? TAX_DEFAULTS.avoidWashSales;
  let budgetShort = limit(tax.maxShortTermGain, hh.realizedShortTermGain);
  let budgetLong = limit(tax.maxLongTermGain, hh.realizedLongTermGain);
  const lossSold = new Set<string>();
  const lossSales = new Map<string, LossSale>();
  // Bound, not a closure: tsx names every closure given a name (keepNames), a defineProperty per household.
  const lossSaleOf = lossSaleIn.bind(null, lossSales, barredSales);
  // Of the accounts' number, not grown by push from room for 17 (a household has one to three accounts).
  const results = new Array<AccountResult>(accounts.length);
  const plans = new Array<TaxPlan>(accounts.length);
  // One view for the pass: lossSold grows as its accounts are planned, and each reads it as it is then.
  const noBuy = avoid ? new UnionSet(barred, lossSold) : NO_GROUPS;
  for (let i = 0; i < accounts.length; i++) {
    const snap = accounts[i] as AccountSnapshot;
    const options = optionsFor(snap.accountId);
    const plan = newTaxPlan({
      options: tax,
      reason: options.reason,
      taxStatus: snap.taxStatus ?? 'Taxable',
      asOfDate: snap.asOfDate,
      budgetShort,
      budgetLong,
      noBuyGroups: noBuy,
      lossSaleOf,
      recentBuyGroups: avoid ? recentBuys : NO_GROUPS,
    });
    const result = runAccount(snap, options, 0, null, plan);
    results[i] = result;
    plans[i] = plan;
    if (!plan.taxable) continue;
    budgetShort -= plan.plannedShort;
    budgetLong -= plan.plannedLong;
    for (const t of result.trades) {
      if (t.side !== 'Buy' && soldAtALoss(t)) {
        const group = groupOfId(snap.products, t.productId);
        lossSold.add(group);
        if (!lossSales.has(group)) lossSales.set(group, { productId: t.productId, accountId: snap.accountId });
      }
    }
  }
  return { results, plans, lossSold, lossSales };
}

/**
 * The groups a pass bought, in any account. Read only when the pass sold a group at a loss (rule
 * 3): most households sell nothing at a loss, and a set of every group they buy was made for each.
 */
function boughtBy(pass: Pass, accounts: readonly AccountSnapshot[]): Set<string> {
  const bought = new Set<string>();
  pass.results.forEach((result, i) => {
    const products = (accounts[i] as AccountSnapshot).products;
    for (const t of result.trades) if (t.side === 'Buy') bought.add(groupOfId(products, t.productId));
  });
  return bought;
}

export function rebalanceHousehold(hh: HouseholdSnapshot, optionsFor: (accountId: number) => RebalanceOptions, tax: TaxOptions): HouseholdResult {
  // A chunk hands its accounts over in id order already: no copy to sort then.
  const accounts = inIdOrder(hh.accounts) ? hh.accounts : [...hh.accounts].sort((a, b) => a.accountId - b.accountId);
  const avoid = tax.avoidWashSales ?? TAX_DEFAULTS.avoidWashSales;
  const past = history(hh);
  // history's set and map are this household's own: they grow here rather than being copied.
  const barred = avoid ? past.lossSold : new Set<string>();
  const barredSales = past.lossSales;
  let pass = planPass(hh, accounts, optionsFor, tax, barred, past.bought, barredSales);
  // Rule 3: a group both sold at a loss and bought in this batch is barred and the household planned again.
  for (let round = 0; avoid && round < 64; round++) {
    if (pass.lossSold.size === 0) break;
    const bought = boughtBy(pass, accounts);
    const clash = [...pass.lossSold].filter((g) => bought.has(g) && !barred.has(g));
    if (clash.length === 0) break;
    for (const g of clash) {
      barred.add(g);
      const sale = pass.lossSales.get(g);
      if (sale) barredSales.set(g, sale);
    }
    pass = planPass(hh, accounts, optionsFor, tax, barred, past.bought, barredSales);
  }
  return { householdId: hh.householdId, accounts: pass.results, summary: summarize(hh.householdId, pass) };
}

function summarize(householdId: number, pass: Pass): HouseholdResult['summary'] {
  let shortCents = 0;
  let longCents = 0;
  let harvested = 0;
  let moves = 0;
  let cuts = 0;
  pass.plans.forEach((plan, i) => {
    moves += plan.washMoves;
    cuts += plan.budgetCuts;
    if (!plan.taxable) return;
    harvested += plan.harvestedLoss;
    for (const t of pass.results[i]?.trades ?? []) {
      shortCents += Math.round((t.estimatedShortTermGain ?? 0) * 100);
      longCents += Math.round((t.estimatedLongTermGain ?? 0) * 100);
    }
  });
  return { householdId, shortTermGain: shortCents / 100, longTermGain: longCents / 100, harvestedLosses: roundCents(harvested), washSaleMoves: moves, budgetCuts: cuts };
}
