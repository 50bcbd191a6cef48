import { dollarsToCents, MAX_DOLLARS, MICROS, priceToMicros } from '../shared/money.js';
import { TAX_STATUSES } from '../book/registration-types.js';
import type { ChunkRows, FirmRows } from '../seed/rows.js';
import { RowReader } from './fields.js';
import { Lookups } from './lookups-repository.js';
import type { Entity, ImportIssue, SourceRow } from './sources.js';
import { ACCOUNT_VALUE_FIELDS, accountValueRow, type AccountValueRow, PRICE_FIELDS, priceRow, type PriceRow } from '../performance/import-rows.js';
import { historyOf } from '../performance/import-repository.js';

export const PRODUCT_TYPES = ['Equity', 'ETF', 'MutualFund', 'FixedIncome', 'Cash'] as const;

/** Columns of each entity, as documented in docs/import.md. */
export const FIELDS: Record<Entity, readonly string[]> = {
  broker_dealers: ['name', 'code'],
  representatives: ['number', 'first_name', 'last_name', 'name', 'email', 'broker_dealer', 'is_active'],
  products: ['ticker', 'name', 'type', 'class', 'sub_class', 'category', 'price', 'price_date', 'allows_fractional', 'is_cash', 'wash_sale_group', 'harvest_replacement'],
  clients: ['name', 'representative', 'notes'],
  registrations: ['client', 'name', 'type', 'is_sleeved', 'do_not_trade'],
  accounts: [
    'number', 'name', 'custodian', 'client', 'registration', 'model', 'cash', 'is_trading_blocked',
    'sleeve_type', 'sleeve_target_pct', 'sleeve_tolerance_lower', 'sleeve_tolerance_upper', 'tax_status',
  ],
  positions: ['account', 'ticker', 'shares', 'cost', 'acquired_date'],
  tax_lots: ['account', 'ticker', 'shares', 'cost', 'acquired_date'],
  substitutions: ['ticker', 'substitute', 'account'],
  prices: PRICE_FIELDS,
  account_values: ACCOUNT_VALUE_FIELDS,
};

export type ImportTables = Pick<FirmRows, 'broker_dealers' | 'representatives' | 'products' | 'product_prices'> &
  Pick<ChunkRows, 'clients' | 'registrations' | 'accounts' | 'positions' | 'tax_lots'> & {
    /** Price history rows, written with the products' own prices (see forWriting). */
    prices: PriceRow[];
    account_values: AccountValueRow[];
  };

export const emptyTables = (): ImportTables => ({
  broker_dealers: [],
  representatives: [],
  products: [],
  product_prices: [],
  clients: [],
  registrations: [],
  accounts: [],
  positions: [],
  tax_lots: [],
  prices: [],
  account_values: [],
});

/** The tables as the writer takes them: imported prices are rows of product_prices. */
export const forWriting = (t: ImportTables): Omit<ImportTables, 'prices'> =>
  t.prices.length === 0 ? t : { ...t, product_prices: [...t.product_prices, ...t.prices], prices: [] } as ImportTables;

const key = Lookups.key;
const MONEY = { scale: 2, min: -MAX_DOLLARS, max: MAX_DOLLARS };
const PERCENT = { scale: 4, min: 0, max: 100 };

/**
 * Validates one row and, when good, appends its database rows. Keys are registered even for a
 * bad row: nothing is written then anyway, and later rows naming it get no misleading errors.
 */
export function handleRow(row: SourceRow, l: Lookups, t: ImportTables, issues: ImportIssue[]): void {
  const r = new RowReader(row, issues, FIELDS[row.entity]);
  HANDLERS[row.entity](r, l, t);
}

/** An id or a name that must match exactly one entry. */
function resolve(r: RowReader, field: string, ref: { id: number } | { key: string } | null, byId: (id: number) => number | undefined, byName: Map<string, number[]>, what: string): number | null {
  if (!ref) return null;
  if ('id' in ref) {
    const index = byId(ref.id);
    if (index === undefined) r.fail(field, `no ${what} with id ${ref.id} in this firm`);
    return index ?? null;
  }
  const matches = byName.get(key(ref.key)) ?? [];
  if (matches.length === 0) r.fail(field, `no ${what} named "${ref.key}" in this firm or earlier in this import`);
  else if (matches.length > 1) r.fail(field, `${matches.length} ${what}s are named "${ref.key}"; use the id`);
  return matches.length === 1 ? (matches[0] as number) : null;
}

const HANDLERS: Record<Entity, (r: RowReader, l: Lookups, t: ImportTables) => void> = {
  broker_dealers(r, l, t) {
    const name = r.text('name', true);
    const code = r.text('code');
    for (const [field, value] of [['name', name], ['code', code]] as const) {
      if (value && l.brokerDealerByKey.has(key(value))) r.fail(field, `a broker/dealer "${value}" already exists`);
    }
    const index = l.brokerDealers.next();
    if (name) l.addMulti(l.brokerDealerByKey, name, index);
    if (code) l.addMulti(l.brokerDealerByKey, code, index);
    if (!r.bad) t.broker_dealers.push({ name, code, is_active: 1 });
  },

  representatives(r, l, t) {
    const number = r.text('number', true, 50);
    const first_name = r.text('first_name', true);
    const last_name = r.text('last_name', true);
    const name = r.text('name') ?? `${first_name} ${last_name}`;
    const email = r.text('email');
    if (email && !/^[^@\s]+@[^@\s]+$/.test(email)) r.fail('email', 'must be an email address');
    const bd = r.text('broker_dealer', true);
    const matches = l.brokerDealerByKey.get(key(bd)) ?? [];
    if (bd && matches.length !== 1) {
      r.fail('broker_dealer', matches.length ? `"${bd}" names ${matches.length} broker/dealers` : `no broker/dealer "${bd}" in this firm or earlier in this import`);
    }
    if (number && l.representativeByNumber.has(key(number))) r.fail('number', `representative number ${number} already exists`);
    const is_active = r.flag('is_active', 1);
    if (number) l.representativeByNumber.set(key(number), l.representatives.next());
    if (!r.bad) {
      t.representatives.push({ broker_dealer_id: matches[0] as number, first_name, last_name, name, number, email, is_active, details: '{}' });
    }
  },

  products(r, l, t) {
    const ticker = r.text('ticker', true, 20).toUpperCase();
    const name = r.text('name', true);
    const type = r.oneOf('type', PRODUCT_TYPES, true);
    const price = r.decimal('price', { scale: 6, min: 0, max: MAX_DOLLARS });
    const price_date = r.date('price_date', price !== null);
    if (price_date && price === null) r.fail('price', 'is required when price_date is given');
    const allows_fractional = r.flag('allows_fractional', type === 'MutualFund' || type === 'Cash' ? 1 : 0);
    const is_cash = r.flag('is_cash', type === 'Cash' ? 1 : 0);
    if (ticker && l.productByTicker.has(key(ticker))) r.fail('ticker', `product ${ticker} already exists`);
    const index = l.products.next();
    if (ticker) l.productByTicker.set(key(ticker), { index, fractional: allows_fractional === 1 });
    const wash_sale_group = r.text('wash_sale_group', false, 64);
    const replacement = r.text('harvest_replacement', false, 20);
    if (replacement && key(replacement) === key(ticker)) r.fail('harvest_replacement', 'must name another product');
    if (r.bad || !type) return;
    if (replacement) l.replacements.push({ index, ticker: replacement, file: r.row.file, line: r.row.line });
    const price_micros = price === null ? null : priceToMicros(price);
    t.products.push({
      ticker, name, type,
      class: r.text('class'), sub_class: r.text('sub_class'), category: r.text('category'),
      price_micros, price_date, is_cash, allows_fractional, wash_sale_group,
    });
    if (price_micros !== null && price_date) t.product_prices.push({ product_id: index, price_date, price_micros });
    if (price_micros !== null && price_date) historyOf(l).priceDays.add(index, Date.parse(price_date) / 86_400_000);
  },

  clients(r, l, t) {
    const name = r.text('name', true);
    const rep = r.text('representative', true, 50);
    const representative_id = l.representativeByNumber.get(key(rep));
    if (rep && representative_id === undefined) r.fail('representative', `no representative number "${rep}" in this firm or earlier in this import`);
    const notes = r.text('notes', false, 2000);
    const index = l.clients.next();
    if (name) l.addMulti(l.clientByName, name, index);
    if (!r.bad) t.clients.push({ representative_id: representative_id as number, name, notes });
  },

  registrations(r, l, t) {
    const client = resolve(r, 'client', r.reference('client'), (id) => l.clients.indexOfId(id), l.clientByName, 'client');
    const name = r.text('name', true);
    const type = r.text('type', true, 50);
    const is_sleeved = r.flag('is_sleeved', 0);
    const do_not_trade = r.flag('do_not_trade', 0);
    const index = l.registrations.next();
    if (client !== null && name) {
      l.addMulti(l.registrationByClientAndName, l.registrationKey(client, name), index);
      l.registrationClient.set(index, client);
    }
    l.registrationSleeved.set(index, is_sleeved === 1);
    if (!r.bad) t.registrations.push({ client_id: client as number, name, type, is_sleeved, do_not_trade });
  },

  accounts(r, l, t) {
    const number = r.text('number', true, 50);
    const name = r.text('name', true);
    const custodian = r.text('custodian', true);
    const registration = accountRegistration(r, l);
    const modelName = r.text('model');
    const model_id = modelName ? (l.modelByName.get(key(modelName)) ?? null) : null;
    if (modelName && model_id === null) r.fail('model', `no model named "${modelName}" in this firm`);
    const cash = r.decimal('cash', MONEY) ?? 0;
    const sleeve_target_pct = r.decimal('sleeve_target_pct', PERCENT);
    const sleeve = {
      sleeve_type: r.text('sleeve_type', false, 50) ?? (sleeve_target_pct !== null ? 'Normal Sleeve' : null),
      sleeve_target_pct,
      sleeve_tolerance_lower: r.decimal('sleeve_tolerance_lower', PERCENT),
      sleeve_tolerance_upper: r.decimal('sleeve_tolerance_upper', PERCENT),
    };
    if (registration !== null && l.registrationSleeved.get(registration) && sleeve_target_pct === null) {
      r.fail('sleeve_target_pct', 'is required for an account of a sleeved registration');
    }
    if (registration !== null && !l.registrationSleeved.get(registration) && sleeve.sleeve_type !== null) {
      r.fail(sleeve_target_pct !== null ? 'sleeve_target_pct' : 'sleeve_type', 'only accounts of a sleeved registration are sleeves');
    }
    if (number && l.accountByNumber.has(key(number))) r.fail('number', `account number ${number} already exists`);
    if (registration !== null && sleeve_target_pct !== null && registration >= l.registrations.ids.length) {
      const sum = l.sleeveTotals.get(registration)?.total ?? 0;
      l.sleeveTotals.set(registration, { total: sum + sleeve_target_pct, file: r.row.file, line: r.row.line });
    }
    const is_trading_blocked = r.flag('is_trading_blocked', 0);
    const tax_status = r.oneOf('tax_status', TAX_STATUSES, false);
    if (number) l.accountByNumber.set(key(number), l.accounts.next());
    if (r.bad) return;
    t.accounts.push({
      registration_id: registration as number,
      number, name, custodian, model_id,
      cash_cents: dollarsToCents(cash),
      is_trading_blocked, is_active: 1,
      ...sleeve,
      tax_status,
    });
  },

  positions(r, l, t) {
    const { number, account, ticker, product } = accountAndProduct(r, l);
    const shares_micros = r.scaled('shares', { required: true, scale: 6, positive: true, max: 1e9 }, 6);
    if (shares_micros !== null && product && !product.fractional && shares_micros % MICROS !== 0) {
      r.fail('shares', `${ticker.toUpperCase()} trades in whole shares`);
    }
    const cost_cents = r.scaled('cost', { ...MONEY, min: 0 }, 2) ?? 0;
    const acquired_date = r.date('acquired_date');
    if (account !== undefined && product) {
      const pair = Lookups.heldKey(account, product.index);
      if (l.held.has(pair)) r.fail('ticker', `account ${number} already holds ${ticker.toUpperCase()}`);
      l.held.add(pair);
    }
    if (r.bad || shares_micros === null || account === undefined || !product) return;
    const position_id = t.positions.length;
    const position = { account_id: account, product_id: product.index, shares_micros, cost_cents };
    if (l.keepsImportedPositions) l.importedHeld.set(Lookups.heldKey(account, product.index), { shares: shares_micros, cost: cost_cents });
    t.positions.push(position);
    // One lot for the whole position keeps lots summing to the position, as the seed guarantees;
    // tax_lots rows for the position replace it.
    if (acquired_date) t.tax_lots.push({ position_id, shares_micros: position.shares_micros, cost_cents: position.cost_cents, acquired_date });
  },

  tax_lots(r, l) {
    const { number, account, ticker, product } = accountAndProduct(r, l);
    const shares_micros = r.scaled('shares', { required: true, scale: 6, positive: true, max: 1e9 }, 6);
    const cost_cents = r.scaled('cost', { ...MONEY, min: 0, required: true }, 2);
    const acquired_date = r.date('acquired_date', true);
    const pair = account !== undefined && product ? Lookups.heldKey(account, product.index) : null;
    if (pair !== null && !l.importedHeld.has(pair)) {
      r.fail('ticker', `account ${number} has no ${ticker.toUpperCase()} position in this import's positions`);
    }
    if (r.bad || pair === null || account === undefined || !product || shares_micros === null || cost_cents === null || !acquired_date) return;
    const sum = l.lotSums.get(pair) ?? { shares: 0, cost: 0, file: r.row.file, line: r.row.line };
    l.lotSums.set(pair, { shares: sum.shares + shares_micros, cost: sum.cost + cost_cents, file: r.row.file, line: r.row.line });
    l.lotRows.push({ account, product: product.index, shares_micros, cost_cents, acquired_date, file: r.row.file, line: r.row.line });
  },

  /** Checked against each other and the firm's once every product and account is written (substitutions.ts). */
  substitutions(r, l) {
    const ticker = r.text('ticker', true, 20);
    const product = l.productByTicker.get(key(ticker));
    if (ticker && !product) r.fail('ticker', `no product "${ticker}" in this firm or earlier in this import`);
    const substituteTicker = r.text('substitute', true, 20);
    const substitute = l.productByTicker.get(key(substituteTicker));
    if (substituteTicker && !substitute) r.fail('substitute', `no product "${substituteTicker}" in this firm or earlier in this import`);
    const number = r.text('account', false, 50);
    const account = number ? l.accountByNumber.get(key(number)) : null;
    if (number && account === undefined) r.fail('account', `no account number "${number}" in this firm or earlier in this import`);
    if (r.bad || !product || !substitute || account === undefined) return;
    l.substitutionRows.push({ account, product: product.index, substitute: substitute.index, file: r.row.file, line: r.row.line });
  },

  prices(r, l, t) {
    priceRow(r, l, historyOf(l), t.prices);
  },

  account_values(r, l, t) {
    accountValueRow(r, l, historyOf(l), t.account_values);
  },
};

/** The `account` number and `ticker` of a position or lot row, each resolved or reported. */
function accountAndProduct(r: RowReader, l: Lookups) {
  const number = r.text('account', true, 50);
  const account = l.accountByNumber.get(key(number));
  if (number && account === undefined) r.fail('account', `no account number "${number}" in this firm or earlier in this import`);
  const ticker = r.text('ticker', true, 20);
  const product = l.productByTicker.get(key(ticker));
  if (ticker && !product) r.fail('ticker', `no product "${ticker}" in this firm or earlier in this import`);
  return { number, account, ticker, product };
}

/** A new sleeved registration's sleeves must total 100; reported on its last sleeve's line. */
export function checkSleeveTotals(l: Lookups, issues: ImportIssue[]): void {
  for (const { total, file, line } of l.sleeveTotals.values()) {
    // Percents carry at most four places: compare in ten-thousandths to avoid float noise.
    if (Math.round(total * 10_000) !== 1_000_000) {
      issues.push({ file, line, field: 'sleeve_target_pct', message: `sleeve targets of the registration total ${total}, not 100` });
    }
  }
}

/** `registration` is an id, or a name within `client`. */
function accountRegistration(r: RowReader, l: Lookups): number | null {
  const ref = r.reference('registration');
  if (!ref) return null;
  if ('id' in ref) {
    const index = l.registrations.indexOfId(ref.id);
    if (index === undefined) r.fail('registration', `no registration with id ${ref.id} in this firm`);
    return index ?? null;
  }
  const client = resolve(r, 'client', r.reference('client'), (id) => l.clients.indexOfId(id), l.clientByName, 'client');
  if (client === null) return null;
  const matches = l.registrationByClientAndName.get(l.registrationKey(client, ref.key)) ?? [];
  if (matches.length !== 1) {
    r.fail('registration', matches.length ? `the client has ${matches.length} registrations named "${ref.key}"; use the id` : `the client has no registration named "${ref.key}"`);
    return null;
  }
  return matches[0] as number;
}
