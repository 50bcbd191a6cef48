/**
 * Book profiles of the demo generator. `demo` is the original book (about 7 positions an account,
 * 41 products); `advisory` and `direct-indexing` are the books performance is measured on:
 *
 * - advisory: 20–30 positions an account drawn from a universe of 520 products, 12 models of
 *   20–28 funds and ETFs with equivalents, firm and account substitutions, set aside cash on about
 *   7 % of accounts, restricted plans on about 8 %, trade blocks on about 3 % of accounts and 1 %
 *   of registrations (some dated, some already ended).
 * - direct-indexing: 300–500 single stocks an account out of a 520 stock universe, 4 index models
 *   of 320–500 names, 4–12 tax lots a position bought over five years at prices 45 % below to 35 %
 *   above today's, so every account holds short and long term gains and losses; each stock but
 *   the first of its sector names the sector's stock before it as its harvest replacement.
 *
 * Extra draws use their own random streams, so the demo book is byte for byte what it was and a
 * profile's households do not shift when a feature's rate changes.
 */
import { PRODUCTS } from './demo-data.js';
import type { BookTables } from './rows.js';
import { Random } from './random.js';
import type { ChunkRows } from './rows.js';
import { type EntityCode, EntityEnum } from '../shared/entity-enum.js';

export const PROFILE_NAMES = ['demo', 'advisory', 'direct-indexing'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export function isProfileName(value: string): value is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(value);
}

/** A profile named on a command line; absent means demo. */
export function parseProfile(value: string | undefined): ProfileName {
  if (value === undefined) return 'demo';
  if (!isProfileName(value)) throw new Error(`--profile must be one of ${PROFILE_NAMES.join(', ')}, got ${value}`);
  return value;
}

const UNIVERSE_SIZE = 520;
const ADVISORY_MODELS = 12;
const INDEX_MODELS = [
  ['US Large Cap Direct Index', 500],
  ['US Total Market ESG Direct Index', 420],
  ['US Dividend Direct Index', 320],
  ['US Large Cap Tax-Managed Index', 460],
] as const;
const SECTORS = ['Technology', 'Health Care', 'Financials', 'Consumer Cyclical', 'Industrials', 'Communication Services', 'Consumer Defensive', 'Energy', 'Utilities', 'Real Estate', 'Basic Materials'];
const FUND_CLASSES = [
  ['Equity', 'US Large Cap', 'Large Blend'],
  ['Equity', 'US Mid Cap', 'Mid-Cap Blend'],
  ['Equity', 'US Small Cap', 'Small Blend'],
  ['Equity', 'International Developed', 'Foreign Large Blend'],
  ['Equity', 'Emerging Markets', 'Diversified Emerging Mkts'],
  ['Fixed Income', 'US Aggregate', 'Intermediate Core Bond'],
  ['Fixed Income', 'Corporate', 'Corporate Bond'],
  ['Fixed Income', 'Municipal', 'Muni National Interm'],
  ['Fixed Income', 'US Treasury', 'Short Government'],
  ['Alternatives', 'Real Estate', 'Real Estate'],
] as const;
const ADVISORY_MODEL_NAMES = ['Income', 'Conservative', 'Moderately Conservative', 'Moderate', 'Moderately Aggressive', 'Growth', 'Aggressive Growth', 'Global Equity', 'Tax-Aware Balanced', 'Multi-Asset Income', 'Dividend Growth', 'All Equity'];
const PLAN_NAMES = ['ESG Exclusions', 'No Tobacco', 'No Fossil Fuels', 'Concentrated Position Hold', 'Legacy Holdings Do Not Sell', 'Employer Stock Restriction', 'Faith-Based Screen', 'Tax-Sensitive Holds', 'Client Preferred Funds', 'Insider Restriction', 'No Leveraged ETFs', 'Gift Holdings', 'Low Turnover', 'Municipal Preference', 'Sector Cap'];

/** A made-up ticker of 4 letters from a running number, never one of the demo's real-looking tickers. */
function ticker(n: number, taken: Set<string>): string {
  for (let k = n * 7919 + 104_729; ; k += 1) {
    let t = '';
    let v = k;
    for (let i = 0; i < 4; i++) {
      t += String.fromCharCode(65 + (v % 26));
      v = Math.floor(v / 26);
    }
    if (!taken.has(t)) {
      taken.add(t);
      return t;
    }
  }
}

/** Firm-level tables of a profile, extending the demo firm's (so model and team names still resolve). */
export function profileFirmBook(profile: ProfileName, seed: number, asOf: string, base: BookTables): BookTables {
  if (profile === 'demo') return base;
  const rng = new Random(seed ^ 0x9e0f11e);
  const book: BookTables = { ...base, products: [...base.products], models: [...base.models], model_allocations: [...base.model_allocations], model_equivalents: [...base.model_equivalents], product_substitutions: [...base.product_substitutions] };
  const taken = new Set(PRODUCTS.map((p) => p.ticker));
  const first = book.products.length;
  // Direct indexing harvests a stock's losses into another stock of its sector (tax-aware.md):
  // each names the sector's stock before it (the first of a sector has none), chosen without a draw.
  const lastOfSector = new Map<string, number>();
  for (let i = first; i < UNIVERSE_SIZE; i++) {
    // Advisory: a fund-heavy shelf with some stocks; direct indexing: single stocks only.
    const kind = profile === 'direct-indexing' ? 'Equity' : i % 5 === 0 ? 'Equity' : i % 5 === 1 ? 'MutualFund' : 'ETF';
    const [cls, subClass, category] = kind === 'Equity' ? (['Equity', 'US Large Cap', rng.pick(SECTORS)] as const) : rng.pick(FUND_CLASSES);
    const step = kind === 'MutualFund' ? 100 : 10_000;
    const price = Math.max(step, Math.round((10 ** rng.between(1, 2.7) * 1_000_000) / step) * step);
    const symbol = ticker(i, taken);
    book.products.push({
      ticker: symbol,
      name: `${symbol} ${kind === 'Equity' ? 'Corporation' : kind === 'ETF' ? `${subClass} ETF` : `${subClass} Fund`}`,
      type: kind,
      class: cls,
      sub_class: subClass,
      category,
      price_micros: price,
      price_date: asOf,
      is_cash: 0,
      allows_fractional: kind === 'MutualFund' ? 1 : 0,
      ...(profile === 'direct-indexing' ? { harvest_replacement_product_id: lastOfSector.get(category) ?? null } : {}),
    });
    if (profile === 'direct-indexing') lastOfSector.set(category, i);
  }
  const productIds = book.products.map((_, i) => i);
  const stocks = productIds.filter((i) => book.products[i]!.type === 'Equity');
  const funds = productIds.filter((i) => book.products[i]!.type === 'ETF' || book.products[i]!.type === 'MutualFund');

  const addModel = (name: string, description: string, cash: number, members: number[], weights: number[]) => {
    const model_id = book.models.length;
    book.models.push({ name, description, cash_target_pct: cash, cash_lower_pct: cash / 2, cash_upper_pct: cash / 2, is_active: 1 });
    const total = weights.reduce((a, b) => a + b, 0);
    members.forEach((product_id, k) => {
      const target_pct = Math.round(((weights[k]! * (100 - cash)) / total) * 10_000) / 10_000;
      const band = Math.max(0.01, Math.round(target_pct * 0.25 * 10_000) / 10_000);
      book.model_allocations.push({ model_id, product_id, target_pct, lower_pct: band, upper_pct: band });
    });
    return model_id;
  };

  if (profile === 'advisory') {
    for (let m = 0; m < ADVISORY_MODELS; m++) {
      const size = rng.int(20, 28);
      const members = rng.sample(funds.length, size).map((k) => funds[k]!);
      const first = book.model_allocations.length;
      addModel(`${ADVISORY_MODEL_NAMES[m]} Strategy`, 'Advisory model of funds and ETFs', rng.pick([1, 2, 3, 5]), members, members.map(() => rng.between(1, 8)));
      // About one line in five names an equivalent of the same class.
      for (let a = first; a < book.model_allocations.length; a++) {
        if (!rng.chance(0.2)) continue;
        const own = book.products[book.model_allocations[a]!.product_id]!;
        const alt = funds.find((f) => f !== book.model_allocations[a]!.product_id && book.products[f]!.sub_class === own.sub_class && !members.includes(f));
        if (alt !== undefined) book.model_equivalents.push({ model_allocation_id: a, product_id: alt, rank: 1 });
      }
    }
    for (let s = 0; s < 20; s++) {
      const [from, to] = rng.sample(funds.length, 2).map((k) => funds[k]!) as [number, number];
      // One substitute a product, and no chain (the rules of substitutions/rules.ts).
      if (!book.product_substitutions.some((x) => [x.product_id, x.substitute_product_id].some((p) => p === from || p === to))) book.product_substitutions.push({ account_id: null, product_id: from, substitute_product_id: to });
    }
    book.restricted_plans = PLAN_NAMES.map((name) => ({ name, name_key: name.toLowerCase(), use_in_trade_file: 0, external_plan_id: null }));
    // A plan lists the securities an account may hold (the engine sends lines outside it to
    // cash): the shelf less a few exclusions, with priorities on a handful.
    book.restricted_plan_securities = PLAN_NAMES.flatMap((_, plan_id) => {
      const excluded = new Set(rng.sample(productIds.length - 1, rng.int(2, 6)).map((k) => k + 1));
      const prioritised = new Map(rng.sample(productIds.length - 1, rng.int(3, 10)).map((k) => [k + 1, rng.weighted([40, 30, 15, 15])]));
      return productIds
        .filter((product_id) => book.products[product_id]!.is_cash === 0 && !excluded.has(product_id))
        .map((product_id) => {
          const kind = prioritised.get(product_id);
          return {
            plan_id,
            product_id,
            // The flag applies firm-wide (every account's equivalents), so a real firm sets it rarely; left off here.
            do_not_buy_group_equivalency: 0,
            buy_priority_id: kind === 0 ? 1 : kind === 3 ? 5 : null,
            sell_priority_id: kind === 1 ? 1 : kind === 2 ? 3 : null,
          } as const;
        });
    });
  } else {
    for (const [name, size] of INDEX_MODELS) {
      const members = rng.sample(stocks.length, Math.min(size, stocks.length)).map((k) => stocks[k]!);
      // Capitalisation weights fall off like an index's: a few names weigh percents, most a few basis points.
      addModel(name, 'Direct indexing: single stocks replicating an index', 1, members, members.map((_, k) => 1 / (k + 10)));
    }
  }
  return book;
}

interface Extras {
  /** Right after an account and its positions are in the chunk. */
  account(chunk: ChunkRows, accountId: number, registrationId: number, value: number): void;
  /** Accounts of this profile hold this much more value than the demo's (direct indexing has minimums). */
  valueScale: number;
  /** Number of tax lots for a position, when the profile sets it. */
  lots?: (units: number) => number;
  /** Cost per share of a lot relative to today's price. */
  lotCostFactor?: () => number;
  /** Which models accounts are drawn from. */
  models: number[];
}

/** The per-account features a profile adds, drawn from their own stream. */
export function profileExtras(profile: ProfileName, seed: number, asOf: string, firm: BookTables, demoModels: number): Extras | undefined {
  if (profile === 'demo') return undefined;
  const rng = new Random(seed ^ 0xacc0);
  const models = firm.models.map((_, i) => i).slice(demoModels);
  const plans = firm.restricted_plans?.length ?? 0;
  const firmSubstituted = new Set(firm.product_substitutions.flatMap((x) => (x.account_id === null ? [x.product_id, x.substitute_product_id] : [])));
  let blockSerial = 0;
  const block = (chunk: ChunkRows, entity_enum: EntityCode, entity_id: number) => {
    const started = -rng.int(1, 400);
    const ended = rng.chance(0.2) ? started + rng.int(1, 399) : rng.chance(0.2) ? rng.int(1, 200) : null;
    chunk.trade_block_details.push({
      // Unique within the firm; the seed draws ids from a counter so the book is reproducible.
      global_id: `00000000-0000-4000-9${String(seed & 0xfff).padStart(3, '0')}-${String(++blockSerial).padStart(12, '0')}`,
      entity_enum,
      entity_id,
      entity_table: entity_enum === EntityEnum.Account ? 'accounts' : 'registrations',
      reason_id: rng.weighted([70, 20, 5, 5]),
      description: rng.pick(['Client request', 'Pending transfer', 'Compliance review', 'Cash raise in progress', 'Account under review']),
      start_date: shift(asOf, started),
      end_date: ended === null ? null : shift(asOf, ended),
      is_deleted: 0,
      version: 1,
    });
  };
  let lastRegistration = -1;
  return {
    valueScale: profile === 'direct-indexing' ? 12 : 1,
    models,
    lots: profile === 'direct-indexing' ? (units) => Math.min(units, rng.int(4, 12)) : undefined,
    lotCostFactor: profile === 'direct-indexing' ? () => rng.between(0.55, 1.35) : undefined,
    account(chunk, accountId, registrationId, value) {
      if (registrationId !== lastRegistration) {
        lastRegistration = registrationId;
        if (rng.chance(0.01)) block(chunk, EntityEnum.Registration, registrationId);
      }
      if (profile !== 'advisory') return;
      if (rng.chance(0.03)) block(chunk, EntityEnum.Account, accountId);
      if (plans > 0 && rng.chance(0.08)) chunk.accounts[accountId]!.restricted_plan_id = rng.int(0, plans - 1);
      if (rng.chance(0.07)) {
        const percent = rng.chance(0.25);
        const dated = rng.chance(0.4);
        const cents = Math.round(Math.min(value * 0.1, rng.between(1_000, 25_000)) * 100);
        chunk.set_aside_cash.push({
          account_id: accountId,
          description: rng.pick(['Tax payment', 'Upcoming distribution', 'Client reserve', 'Fee reserve']),
          cash_amount_type_id: percent ? 2 : 1,
          cash_amount_cents: percent ? null : cents,
          initial_amount_cents: percent ? null : cents,
          cash_amount_pct: percent ? rng.int(1, 5) : null,
          percent_calculation_type_id: percent ? 0 : null,
          expiration_type_id: dated ? 1 : 3,
          expiration_date: dated ? shift(asOf, rng.int(-30, 365)) : null,
          start_date: shift(asOf, -rng.int(1, 365)),
        });
      }
      if (rng.chance(0.02)) {
        const held = chunk.positions.length > 0 ? chunk.positions[chunk.positions.length - 1]! : undefined;
        if (held && held.account_id === accountId) {
          const substitute = rng.int(1, firm.products.length - 1);
          // Never the product itself, nor a product on either side of a firm substitution (a chain).
          const clear = (p: number) => !firmSubstituted.has(p);
          if (substitute !== held.product_id && clear(held.product_id) && clear(substitute)) {
            chunk.product_substitutions.push({ account_id: accountId, product_id: held.product_id, substitute_product_id: substitute });
          }
        }
      }
    },
  };
}

const DAY_MS = 86_400_000;
const shift = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
