import { addDays } from './dates.js';
import type { Random } from './random.js';
import type { BookTables, ChunkRows } from './rows.js';
import type { profileExtras } from './profiles.js';

type Extras = NonNullable<ReturnType<typeof profileExtras>>;


interface Universe {
  representatives: number;
  custodians: readonly { name: string; prefix: string }[];
  registrationTypes: readonly string[];
  firstNames: readonly string[];
  lastNames: readonly string[];
  tradeGroups: number;
}

interface ModelView {
  cash: { target: number; lower: number; upper: number };
  allocations: { product: number; target: number; lower: number; upper: number }[];
}

const MAX_LOT_AGE_DAYS = 3650;
const PENDING_TYPES = ['Buy', 'Sell', 'Deposit', 'Withdrawal'] as const;

/**
 * Builds one household at a time into the current chunk. Positions drift from the model on
 * purpose: the rebalancer needs accounts in band, out of band and holding non-model products.
 */
export class HouseholdBuilder {
  private accountSerial = 0;
  private readonly models: ModelView[];
  private readonly outsideModel: number[];
  private readonly lotDates: string[];
  private readonly stamp: string;

  constructor(
    private readonly rng: Random,
    private readonly asOf: string,
    private readonly firm: BookTables,
    private readonly universe: Universe,
    /** What a profile other than demo adds; absent, the book is the demo's. */
    private readonly extras?: Extras,
  ) {
    this.models = firm.models.map((m, id) => ({
      cash: { target: m.cash_target_pct, lower: m.cash_lower_pct, upper: m.cash_upper_pct },
      allocations: firm.model_allocations
        .filter((a) => a.model_id === id)
        .map((a) => ({ product: a.product_id, target: a.target_pct, lower: a.lower_pct, upper: a.upper_pct })),
    }));
    // Non-model holdings are stocks and ETFs a client brought in, never cash or bonds.
    this.outsideModel = firm.products.flatMap((p, i) => (p.type === 'Equity' || p.type === 'ETF' ? [i] : []));
    // Formatting a date per lot is the hot path at 100,000 households; precompute them once.
    this.lotDates = Array.from({ length: MAX_LOT_AGE_DAYS + 1 }, (_, d) => addDays(asOf, -d));
    this.stamp = `${asOf}T00:00:00.000Z`;
  }

  household(chunk: ChunkRows): void {
    const { rng, universe } = this;
    const first = rng.pick(universe.firstNames);
    const last = rng.pick(universe.lastNames);
    const partner = rng.chance(0.45) ? rng.pick(universe.firstNames) : null;
    const client_id = chunk.clients.length;
    chunk.clients.push({
      representative_id: rng.int(0, universe.representatives - 1),
      name: partner ? `${first} & ${partner} ${last}` : `${first} ${last}`,
      notes: rng.chance(0.1) ? 'Prefers quarterly reviews' : null,
    });

    const value = 10 ** rng.between(4.4, 6.7) * (this.extras?.valueScale ?? 1);
    const registrations = 1 + rng.weighted([45, 35, 20]);
    const shares = Array.from({ length: registrations }, () => rng.between(0.2, 1));
    const shareTotal = shares.reduce((a, b) => a + b, 0);
    for (let r = 0; r < registrations; r++) {
      const type = rng.pick(universe.registrationTypes);
      const sleeved = rng.chance(0.05);
      const registration_id = chunk.registrations.length;
      const name = `${first} ${last} ${type}`;
      chunk.registrations.push({
        client_id,
        name,
        type,
        is_sleeved: sleeved ? 1 : 0,
        do_not_trade: rng.chance(0.01) ? 1 : 0,
      });
      const regValue = (value * (shares[r] as number)) / shareTotal;
      if (sleeved) this.sleeves(chunk, registration_id, name, regValue);
      else {
        // A larger profile keeps 2% of accounts unmanaged (no model), as firms hold some; the demo
        // book has a model on every account, so that a newcomer's first rebalance of every
        // account ends Complete. The draw is made either way, so each book stays a function of its seed.
        const unmanaged = rng.chance(0.02) && this.extras !== undefined;
        this.account(chunk, registration_id, name, regValue, unmanaged ? null : this.modelAt(rng.int(0, this.modelCount - 1)), null);
      }
    }
  }

  private sleeves(chunk: ChunkRows, registration_id: number, name: string, value: number): void {
    const { rng } = this;
    const count = rng.int(3, 4);
    const weights = Array.from({ length: count }, () => rng.int(10, 40));
    const total = weights.reduce((a, b) => a + b, 0);
    // Whole percents with the rounding remainder on the last sleeve: targets total exactly 100.
    const targets = weights.map((w) => Math.floor((w * 100) / total));
    targets[count - 1] = 100 - targets.slice(0, -1).reduce((a, b) => a + b, 0);
    const models = rng.sample(this.modelCount, count).map((k) => this.modelAt(k));
    const first = chunk.accounts.length;
    targets.forEach((target, k) => {
      const tolerance = rng.pick([2, 3, 5]);
      // Sleeves drift too, so that some registrations need cash moved between sleeves.
      const current = (value * target * rng.between(0.85, 1.15)) / 100;
      this.account(chunk, registration_id, `${name} - Sleeve ${k + 1}`, current, models[k] as number, {
        target,
        tolerance,
      });
    });
    // The registration's custodial account is its system sleeve: no target, no model, nothing
    // held (the sleeves hold the value). It draws nothing from the random stream, so the rest
    // of the book does not depend on it.
    const custodian = this.universe.custodians.find((c) => c.name === chunk.accounts[first]?.custodian) ?? this.universe.custodians[0]!;
    chunk.accounts.push({
      registration_id,
      number: `${custodian.prefix}${String(++this.accountSerial).padStart(8, '0')}`,
      name: `${name} - Custodial`,
      custodian: custodian.name,
      model_id: null,
      cash_cents: 0,
      is_trading_blocked: 0,
      is_active: 1,
      sleeve_type: 'Custodial Account',
      sleeve_target_pct: null,
      sleeve_tolerance_lower: null,
      sleeve_tolerance_upper: null,
    });
    chunk.sleeve_registrations.push({
      registration_id,
      sleeve_strategy_id: null,
      is_active: 1,
      as_of_date: this.asOf,
      contribution_method: 'Sleeve Current Percent',
      distribution_method: 'Sleeve Current Percent',
      corporate_action_method: 'Sleeve Current Percent',
      auto_rebal_frequency: 'None',
      auto_rebal_month: null,
      auto_rebal_day: null,
      mandate: 0,
    });
  }

  private account(
    chunk: ChunkRows,
    registration_id: number,
    name: string,
    value: number,
    model: number | null,
    sleeve: { target: number; tolerance: number } | null,
  ): void {
    const { rng, universe } = this;
    const custodian = rng.pick(universe.custodians);
    const account_id = chunk.accounts.length;
    const serial = this.accountSerial++;
    const weights = model === null ? this.unmanagedWeights() : this.driftedWeights(this.models[model] as ModelView);
    let total = weights.cash;
    for (const w of weights.products.values()) total += w;

    chunk.accounts.push({
      registration_id,
      number: `${custodian.prefix}${String(serial + 1).padStart(8, '0')}`,
      name,
      custodian: custodian.name,
      model_id: model,
      cash_cents: Math.round(((value * weights.cash) / total) * 100),
      is_trading_blocked: 0,
      is_active: 1,
      sleeve_type: sleeve ? 'Normal Sleeve' : null,
      sleeve_target_pct: sleeve ? sleeve.target : null,
      sleeve_tolerance_lower: sleeve ? sleeve.tolerance : null,
      sleeve_tolerance_upper: sleeve ? sleeve.tolerance : null,
    });

    const held: number[] = [];
    for (const [product, weight] of weights.products) {
      if (this.position(chunk, account_id, product, (value * weight) / total)) held.push(product);
    }
    if (rng.chance(0.025)) this.pending(chunk, account_id, held);
    if (rng.chance(0.015)) chunk.trade_group_accounts.push({ trade_group_id: rng.int(0, universe.tradeGroups - 1), account_id });
    // One account-level substitution shows the override beside the firm-wide ones.
    if (serial === 0) {
      const [from, to] = [this.productIdOf('VTI'), this.productIdOf('VOO')];
      chunk.product_substitutions.push({ account_id, product_id: from, substitute_product_id: to });
    }
    this.extras?.account(chunk, account_id, registration_id, value);
  }

  private get modelCount(): number {
    return this.extras?.models.length ?? this.models.length;
  }

  private modelAt(k: number): number {
    return this.extras ? (this.extras.models[k] as number) : k;
  }

  private productIdOf(ticker: string): number {
    return this.firm.products.findIndex((p) => p.ticker === ticker);
  }

  private driftedWeights(model: ModelView): { products: Map<number, number>; cash: number } {
    const { rng } = this;
    const drifted = rng.chance(0.45);
    const products = new Map<number, number>();
    for (const a of model.allocations) {
      if (drifted && rng.chance(0.03)) continue;
      const up = rng.chance(0.5);
      const band = up ? a.upper : a.lower;
      const distance = drifted && rng.chance(0.5) ? band * rng.between(1.3, 3) : band * rng.between(0, 0.7);
      const weight = a.target + (up ? distance : -distance);
      if (weight > 0) products.set(a.product, weight);
    }
    if (rng.chance(0.12)) {
      for (let i = rng.int(1, 2); i > 0; i--) {
        const product = rng.pick(this.outsideModel);
        if (!products.has(product)) products.set(product, rng.between(1, 4));
      }
    }
    const cash = Math.max(0, model.cash.target + rng.between(-model.cash.lower, model.cash.upper * (drifted ? 2 : 0.8)));
    return { products, cash };
  }

  private unmanagedWeights(): { products: Map<number, number>; cash: number } {
    const products = new Map<number, number>();
    for (let i = this.rng.int(3, 6); i > 0; i--) products.set(this.rng.pick(this.outsideModel), this.rng.between(5, 30));
    return { products, cash: this.rng.between(2, 10) };
  }

  /** Adds the position and its lots; false when the dollars buy less than one tradable unit. */
  private position(chunk: ChunkRows, account_id: number, product: number, dollars: number): boolean {
    const { rng } = this;
    const p = this.firm.products[product];
    if (!p?.price_micros) return false;
    const price = p.price_micros / 1_000_000;
    // Lots are cut in whole tradable units: shares, or thousandths of a share where fractions are allowed.
    const unitMicros = p.allows_fractional ? 1000 : 1_000_000;
    const units = Math.floor((dollars / price) * (1_000_000 / unitMicros));
    if (units < 1) return false;
    const shares_micros = units * unitMicros;
    if (this.extras?.lots) return this.profileLots(chunk, account_id, product, units, unitMicros, price);
    const marketCents = Math.round((shares_micros / 1_000_000) * price * 100);
    const cost_cents = Math.round(marketCents * rng.between(0.65, 1.25));
    const position_id = chunk.positions.length;
    chunk.positions.push({ account_id, product_id: product, shares_micros, cost_cents });

    const lots = Math.min(units, 1 + rng.weighted([40, 40, 20]));
    const ages = Array.from({ length: lots }, () => rng.int(30, MAX_LOT_AGE_DAYS)).sort((a, b) => b - a);
    let unitsLeft = units;
    let costLeft = cost_cents;
    for (let i = 0; i < lots; i++) {
      const last = i === lots - 1;
      const lotUnits = last ? unitsLeft : rng.int(1, unitsLeft - (lots - 1 - i));
      // The last lot takes the remainder, so lots sum exactly to the position's shares and cost.
      const lotCost = last ? costLeft : Math.floor(cost_cents * (lotUnits / units));
      chunk.tax_lots.push({
        position_id,
        shares_micros: lotUnits * unitMicros,
        cost_cents: lotCost,
        acquired_date: this.lotDates[ages[i] as number] as string,
      });
      unitsLeft -= lotUnits;
      costLeft -= lotCost;
    }
    return true;
  }

  /** A profile's lots: each bought on its own day at its own price, the position's cost their sum. */
  private profileLots(chunk: ChunkRows, account_id: number, product: number, units: number, unitMicros: number, price: number): boolean {
    const extras = this.extras as Extras;
    const lots = extras.lots!(units);
    const position_id = chunk.positions.length;
    const position = { account_id, product_id: product, shares_micros: units * unitMicros, cost_cents: 0 };
    chunk.positions.push(position);
    // Five years of buys: about a quarter of the lots are younger than a year (short term).
    const ages = Array.from({ length: lots }, () => this.rng.int(5, 1825)).sort((a, b) => b - a);
    let unitsLeft = units;
    for (let i = 0; i < lots; i++) {
      const lotUnits = i === lots - 1 ? unitsLeft : this.rng.int(1, unitsLeft - (lots - 1 - i));
      const cost_cents = Math.round(((lotUnits * unitMicros) / 1_000_000) * price * (extras.lotCostFactor?.() ?? 1) * 100);
      position.cost_cents += cost_cents;
      chunk.tax_lots.push({ position_id, shares_micros: lotUnits * unitMicros, cost_cents, acquired_date: this.lotDates[Math.min(ages[i] as number, MAX_LOT_AGE_DAYS)] as string });
      unitsLeft -= lotUnits;
    }
    return true;
  }

  private pending(chunk: ChunkRows, account_id: number, held: number[]): void {
    const { rng } = this;
    const type = rng.pick(PENDING_TYPES);
    const trade_date = this.asOf;
    const created_at = this.stamp;
    if ((type === 'Buy' || type === 'Sell') && held.length > 0) {
      const product_id = rng.pick(held);
      const price = (this.firm.products[product_id]?.price_micros ?? 0) / 1_000_000;
      const shares = rng.int(1, 50);
      const amount_cents = Math.round(shares * price * 100);
      chunk.pending_transactions.push({ account_id, product_id, type, shares_micros: shares * 1_000_000, amount_cents, trade_date, created_at });
      return;
    }
    const amount_cents = rng.int(500, 50_000) * 100;
    const cashType = type === 'Sell' || type === 'Withdrawal' ? 'Withdrawal' : 'Deposit';
    chunk.pending_transactions.push({ account_id, product_id: null, type: cashType, shares_micros: 0, amount_cents, trade_date, created_at });
  }
}
