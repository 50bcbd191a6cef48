import type { EntityDescriptor } from './entity-descriptor.js';
import type { AccountTable, ClientTable, ProductTable, RegistrationTable } from '../db/schema.js';
import { centsToDollars, dollarsToCents, microsToPrice, priceToMicros } from '../shared/money.js';
import { representatives } from './representatives/entity.js';
import { audit, flag, type Row } from './mapping.js';
import { bareDetails, withHouseholdDetails } from './households/details.js';
import { HouseholdDetailsRepository } from './households/repository.js';
import { effectiveTaxStatus } from './registration-types.js';
import {
  AccountInput,
  AccountRecord,
  ClientInput,
  ClientRecord,
  ProductInput,
  ProductRecord,
  RegistrationInput,
  RegistrationRecord,
} from './schemas.js';

export type { BookTable, EntityDescriptor, ReferencedTable } from './entity-descriptor.js';

export const clients: EntityDescriptor<ClientInput, ClientRecord> = {
  path: 'Clients',
  label: 'household',
  table: 'clients',
  level: 'Household',
  input: ClientInput,
  record: ClientRecord,
  toRecord: (row: Row<ClientTable>) => ({
    id: row.id,
    name: row.name,
    representativeId: row.representative_id,
    notes: row.notes,
    ...audit(row),
    ...bareDetails({ name: row.name, representativeId: row.representative_id }),
  }),
  details: (tx, firmId, records) => withHouseholdDetails(tx.bind((db) => new HouseholdDetailsRepository(db)), firmId, records),
  toColumns: (input) => ({ name: input.name, representative_id: input.representativeId, notes: input.notes }),
  references: [{ field: 'representativeId', table: 'representatives', label: 'representative' }],
  uniques: [],
};

export const registrations: EntityDescriptor<RegistrationInput, RegistrationRecord> = {
  path: 'Registrations',
  label: 'registration',
  table: 'registrations',
  level: 'Registration',
  input: RegistrationInput,
  record: RegistrationRecord,
  toRecord: (row: Row<RegistrationTable>) => ({
    id: row.id,
    clientId: row.client_id,
    name: row.name,
    type: row.type,
    isSleeved: row.is_sleeved === 1,
    doNotTrade: row.do_not_trade === 1,
    ...audit(row),
  }),
  toColumns: (input) => ({
    client_id: input.clientId,
    name: input.name,
    type: input.type,
    is_sleeved: flag(input.isSleeved),
    do_not_trade: flag(input.doNotTrade),
  }),
  references: [{ field: 'clientId', table: 'clients', label: 'household' }],
  uniques: [],
};

export const accounts: EntityDescriptor<AccountInput, AccountRecord> = {
  path: 'Accounts',
  label: 'account',
  table: 'accounts',
  level: 'Account',
  input: AccountInput,
  record: AccountRecord,
  toRecord: (row: Row<AccountTable> & { registration_type: string | null }) => ({
    id: row.id,
    registrationId: row.registration_id,
    number: row.number,
    name: row.name,
    custodian: row.custodian,
    modelId: row.model_id,
    cash: centsToDollars(row.cash_cents),
    isTradingBlocked: row.is_trading_blocked === 1,
    isActive: row.is_active === 1,
    restrictedPlanId: row.restricted_plan_id,
    // The effective status: the account's own, else its registration type's (read by `joined`;
    // a left join, so a missing registration would read as no type rather than lose the account).
    taxStatus: effectiveTaxStatus(row.tax_status, row.registration_type ?? ''),
    isSma: row.is_sma === 1,
    sleeveType: row.sleeve_type,
    sleeveTargetPercent: row.sleeve_target_pct,
    sleeveToleranceLower: row.sleeve_tolerance_lower,
    sleeveToleranceUpper: row.sleeve_tolerance_upper,
    ...audit(row),
  }),
  joined: { table: 'registrations', on: 'registration_id', columns: { registration_type: 'type' } },
  toColumns: (input) => ({
    registration_id: input.registrationId,
    number: input.number,
    name: input.name,
    custodian: input.custodian,
    model_id: input.modelId,
    cash_cents: input.cash === undefined ? undefined : dollarsToCents(input.cash),
    is_trading_blocked: flag(input.isTradingBlocked),
    is_active: flag(input.isActive),
    restricted_plan_id: input.restrictedPlanId,
    tax_status: input.taxStatus,
    is_sma: flag(input.isSma),
  }),
  references: [
    { field: 'registrationId', table: 'registrations', label: 'registration' },
    { field: 'modelId', table: 'models', label: 'model' },
    { field: 'restrictedPlanId', table: 'restricted_plans', label: 'restricted plan' },
  ],
  uniques: [{ field: 'number', column: 'number' }],
};

export const products: EntityDescriptor<ProductInput, ProductRecord> = {
  path: 'Products',
  label: 'product',
  table: 'products',
  level: 'Product',
  input: ProductInput,
  record: ProductRecord,
  toRecord: (row: Row<ProductTable>) => ({
    id: row.id,
    ticker: row.ticker,
    name: row.name,
    type: row.type as ProductRecord['type'],
    class: row.class,
    subClass: row.sub_class,
    category: row.category,
    price: row.price_micros === null ? null : microsToPrice(row.price_micros),
    priceDate: row.price_date,
    isCash: row.is_cash === 1,
    allowsFractionalShares: row.allows_fractional === 1,
    washSaleGroup: row.wash_sale_group,
    harvestReplacementProductId: row.harvest_replacement_product_id,
    ...audit(row),
  }),
  toColumns: (input) => ({
    ticker: input.ticker,
    name: input.name,
    type: input.type,
    class: input.class,
    sub_class: input.subClass,
    category: input.category,
    price_micros: input.price === undefined ? undefined : input.price === null ? null : priceToMicros(input.price),
    price_date: input.priceDate,
    is_cash: flag(input.isCash),
    allows_fractional: flag(input.allowsFractionalShares),
    wash_sale_group: input.washSaleGroup === undefined || input.washSaleGroup === null ? input.washSaleGroup : input.washSaleGroup.trim(),
    harvest_replacement_product_id: input.harvestReplacementProductId,
  }),
  references: [{ field: 'harvestReplacementProductId', table: 'products', label: 'product' }],
  uniques: [{ field: 'ticker', column: 'ticker' }],
  // Tickers are matched case-insensitively everywhere, so they are stored upper-case.
  normalize: (input) => ({ ...input, ticker: input.ticker.trim().toUpperCase() }),
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const VERBOSE_ENTITIES: EntityDescriptor<any, any>[] = [clients, registrations, accounts, products, representatives];
