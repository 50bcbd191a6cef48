import {
  BROKER_DEALERS,
  CUSTODIANS,
  EQUIVALENTS,
  FIRST_NAMES,
  LAST_NAMES,
  MODEL_AGGS,
  MODELS,
  PRODUCTS,
  WASH_SALE_GROUPS,
  REGISTRATION_TYPES,
  SUBSTITUTIONS,
  TEAMS,
} from './demo-data.js';
import { Random } from './random.js';
import type { BookTables, ChunkRows } from './rows.js';
import { addDays } from './dates.js';
import { HouseholdBuilder } from './households.js';
import { customFieldDefinitions, FieldValueDrawer } from './custom-fields.js';
import { type ProfileName, profileExtras, profileFirmBook } from './profiles.js';
import { systemReasonRows } from './reasons.js';

export interface GeneratorOptions {
  households: number;
  seed: number;
  /** YYYY-MM-DD: latest price date; every date and audit stamp of the book derives from it. */
  asOf: string;
  /** Households per chunk; one chunk is one transaction and the most ever held in memory. */
  chunkSize?: number;
  /** Book profile (src/seed/profiles.ts); demo when absent. */
  profile?: ProfileName;
}


export const DEFAULT_CHUNK_SIZE = 1000;
export const TRADE_GROUPS = [
  'Quarterly Rebalance - East',
  'Quarterly Rebalance - West',
  'Tax-Loss Harvest Review',
  'New Accounts Onboarding',
  'Annual Review - Q4',
];

const PRICE_HISTORY_DAYS = 5;

export const representativeCount = (households: number): number => Math.max(3, Math.ceil(households / 200));

const productIndex = new Map(PRODUCTS.map((p, i) => [p.ticker, i]));
export function productAt(ticker: string): number {
  const index = productIndex.get(ticker);
  if (index === undefined) throw new Error(`demo data names unknown ticker ${ticker}`);
  return index;
}
const modelIndex = (name: string): number => MODELS.findIndex((m) => m.name === name);

/** Mutual funds price to four decimals (NAV); everything else trades in cents. */
export const priceStep = (type: string): number => (type === 'MutualFund' ? 100 : 10_000);

/** The last `n` weekdays up to and including asOf, oldest first. */
function priceDates(asOf: string, n: number): string[] {
  const dates: string[] = [];
  for (let back = 0; dates.length < n; back++) {
    const date = addDays(asOf, -back);
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) dates.unshift(date);
  }
  return dates;
}

/** Firm-level book tables: small, independent of the household count except for representatives. */
export function generateFirmBook(options: GeneratorOptions): BookTables {
  // A separate stream from the households', so the firm's tables do not shift when N changes.
  const rng = new Random(options.seed ^ 0x5eed);
  const dates = priceDates(options.asOf, PRICE_HISTORY_DAYS);

  const products: BookTables['products'] = PRODUCTS.map((p) => ({
    ticker: p.ticker,
    name: p.name,
    type: p.type,
    class: p.class,
    sub_class: p.subClass,
    category: p.category,
    price_micros: Math.round(p.price * 1_000_000),
    price_date: options.asOf,
    is_cash: p.type === 'Cash' ? 1 : 0,
    allows_fractional: p.type === 'MutualFund' || p.type === 'Cash' ? 1 : 0,
    wash_sale_group: WASH_SALE_GROUPS[p.ticker] ?? null,
  }));

  const product_prices: BookTables['product_prices'] = [];
  products.forEach((p, product_id) => {
    const step = priceStep(p.type);
    let price = p.price_micros as number;
    const history: number[] = [price];
    // Walk back from the latest price so that products.price_micros is the newest history row.
    for (let i = 1; i < dates.length; i++) {
      price = p.is_cash ? price : Math.max(step, Math.round((price * (1 + rng.between(-0.015, 0.015))) / step) * step);
      history.unshift(price);
    }
    dates.forEach((price_date, i) => product_prices.push({ product_id, price_date, price_micros: history[i] as number }));
  });

  const models: BookTables['models'] = MODELS.map((m) => ({
    name: m.name,
    description: m.description,
    cash_target_pct: m.cash.target,
    cash_lower_pct: m.cash.lower,
    cash_upper_pct: m.cash.upper,
    is_active: 1,
  }));
  const model_allocations: BookTables['model_allocations'] = [];
  const model_equivalents: BookTables['model_equivalents'] = [];
  MODELS.forEach((m, model_id) => {
    for (const [ticker, target_pct, lower_pct, upper_pct] of m.allocations) {
      const model_allocation_id = model_allocations.length;
      model_allocations.push({ model_id, product_id: productAt(ticker), target_pct, lower_pct, upper_pct });
      (EQUIVALENTS[ticker] ?? []).forEach((alt, i) =>
        model_equivalents.push({ model_allocation_id, product_id: productAt(alt), rank: i + 1 }),
      );
    }
  });

  const representatives: BookTables['representatives'] = [];
  for (let i = 0; i < representativeCount(options.households); i++) {
    const first_name = rng.pick(FIRST_NAMES);
    const last_name = rng.pick(LAST_NAMES);
    representatives.push({
      broker_dealer_id: i % BROKER_DEALERS.length,
      first_name,
      last_name,
      name: `${first_name} ${last_name}`,
      // CRD-like seven digits; 7919 is prime to 9,000,000, so numbers never repeat.
      number: String(1_000_000 + ((i * 7919) % 9_000_000)),
      email: `${first_name}.${last_name}.${i + 1}@summitwealth.example`.toLowerCase(),
      is_active: 1,
      details: '{}',
    });
  }

  const fieldValues = new FieldValueDrawer(new Random(options.seed ^ 0xf1e1d), options.asOf);
  const user_defined_values: BookTables['user_defined_values'] = [];
  fieldValues.draw('Representative', 0, representatives.length, user_defined_values);
  fieldValues.draw('Product', 0, products.length, user_defined_values);

  const book: BookTables = {
    broker_dealers: BROKER_DEALERS.map((b) => ({ name: b.name, code: b.code, is_active: 1 })),
    representatives,
    products,
    product_prices,
    models,
    model_allocations,
    model_equivalents,
    model_aggs: MODEL_AGGS.map((a) => ({ name: a.name })),
    model_agg_models: MODEL_AGGS.flatMap((a, model_agg_id) =>
      a.models.map(([name, weight_pct]) => ({ model_agg_id, model_id: modelIndex(name), weight_pct })),
    ),
    teams: TEAMS.map((t) => ({ name: t.name })),
    model_teams: TEAMS.flatMap((t, team_id) => t.models.map((name) => ({ model_id: modelIndex(name), team_id }))),
    trade_groups: TRADE_GROUPS.map((name) => ({ name })),
    product_substitutions: SUBSTITUTIONS.map(([from, to]) => ({
      account_id: null,
      product_id: productAt(from),
      substitute_product_id: productAt(to),
    })),
    user_defined_definitions: customFieldDefinitions(),
    user_defined_values,
    // Spec 2.5: the system reasons exist from the moment the firm does, not on first use, so every path that reads them finds them.
    trade_block_reasons: systemReasonRows(),
  };
  return profileFirmBook(options.profile ?? 'demo', options.seed, options.asOf, book);
}

/**
 * Households in chunks of `chunkSize`. Only the current chunk is alive, and the random stream
 * runs household after household, so the book does not depend on the chunk size.
 */
export function* generateHouseholdChunks(options: GeneratorOptions, firm: BookTables): Generator<ChunkRows> {
  // A direct-indexing household holds ~60 times a demo household's rows: smaller chunks keep memory flat.
  const chunkSize = options.chunkSize ?? (options.profile === 'direct-indexing' ? DEFAULT_CHUNK_SIZE / 20 : DEFAULT_CHUNK_SIZE);
  const builder = new HouseholdBuilder(new Random(options.seed), options.asOf, firm, {
    representatives: firm.representatives.length,
    custodians: CUSTODIANS,
    registrationTypes: REGISTRATION_TYPES,
    firstNames: FIRST_NAMES,
    lastNames: LAST_NAMES,
    tradeGroups: TRADE_GROUPS.length,
  }, profileExtras(options.profile ?? 'demo', options.seed, options.asOf, firm, MODELS.length));
  const fieldValues = new FieldValueDrawer(new Random(options.seed ^ 0xc0ffee), options.asOf);
  for (let start = 0; start < options.households; start += chunkSize) {
    const chunk = emptyChunk();
    const end = Math.min(options.households, start + chunkSize);
    for (let h = start; h < end; h++) {
      const [clients, registrations, accounts] = [chunk.clients.length, chunk.registrations.length, chunk.accounts.length];
      builder.household(chunk);
      fieldValues.draw('Household', clients, chunk.clients.length, chunk.user_defined_values);
      fieldValues.draw('Registration', registrations, chunk.registrations.length, chunk.user_defined_values);
      fieldValues.draw('Account', accounts, chunk.accounts.length, chunk.user_defined_values);
    }
    yield chunk;
  }
}

export const emptyChunk = (): ChunkRows => ({
  clients: [],
  registrations: [],
  accounts: [],
  positions: [],
  tax_lots: [],
  pending_transactions: [],
  trade_group_accounts: [],
  product_substitutions: [],
  user_defined_values: [],
  sleeve_registrations: [],
  set_aside_cash: [],
  trade_block_details: [],
});
