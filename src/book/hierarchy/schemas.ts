import { type Static, Type } from 'typebox';
import { IdSchema } from '../../http/ids.js';
import { CountQuery, MAX_SKIP } from '../../http/paging.js';
import { Nullable } from '../../http/nullable.js';

/*
 * The source system's own reads of the portfolio hierarchy, in its field names. Its clients page
 * with `top`/`skip` (and our `$top`/`$skip` work too) and search with `search`.
 */


const top = Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Page size, 1 to 1000 (default 20)' }));
const skip = Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SKIP, description: 'Records to skip (default 0)' }));
const $count = CountQuery.properties.$count;

export const SearchQuery = Type.Object({
  search: Type.String({ minLength: 1, maxLength: 200, description: 'Text the name (or number, ticker) contains, any case' }),
  top,
  $top: top,
  skip,
  $skip: skip,
  $count,
  isActive: Type.Optional(Type.Boolean({ description: 'true (default): active records only; false: every record' })),
});
export type SearchQuery = Static<typeof SearchQuery>;

export const ClientParams = Type.Object({ clientId: IdSchema() });
export const RegistrationParams = Type.Object({ registrationId: IdSchema() });
export const AccountParams = Type.Object({ accountId: IdSchema() });

export const ClientSimple = Type.Object({
  id: IdSchema(),
  name: Type.String(),
  isActive: Type.Boolean(),
  representativeId: IdSchema(),
  representativeName: Type.String(),
});

export const RegistrationSimple = Type.Object({
  id: IdSchema(),
  name: Type.String(),
  clientId: IdSchema(),
  clientName: Type.String(),
  typeId: Nullable(Type.Integer({ description: 'The id in Registrations/Types, null for a type outside that list' })),
  type: Type.String(),
  taxStatus: Nullable(Type.String()),
  isActive: Type.Boolean(),
  isSleeved: Type.Boolean(),
});

export const RegistrationType = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  taxStatus: Type.String({ description: 'Taxable, TaxDeferred or TaxExempt' }),
});

export const AccountSimple = Type.Object({
  id: IdSchema(),
  number: Type.String(),
  name: Type.String(),
  custodian: Type.String(),
  registrationId: IdSchema(),
  registrationName: Type.String(),
  clientId: IdSchema(),
  clientName: Type.String(),
  modelId: Nullable(IdSchema()),
  modelName: Nullable(Type.String()),
  isActive: Type.Boolean(),
  currentValue: Type.Number({ description: 'Cash plus priced holdings, US dollars' }),
});

export const AssetsQuery = Type.Object({
  accountId: IdSchema({ description: 'The account whose assets to list' }),
  hasValue: Type.Optional(Type.Boolean({ description: 'true (default): only assets with a current value' })),
});

export const Asset = Type.Object({
  id: IdSchema(),
  accountId: IdSchema(),
  productId: IdSchema(),
  ticker: Type.String(),
  name: Type.String(),
  productType: Type.String(),
  shares: Type.Number(),
  price: Nullable(Type.Number()),
  priceDate: Nullable(Type.String()),
  currentValue: Nullable(Type.Number({ description: 'US dollars; null while the product has no price' })),
  costBasis: Type.Number(),
  isCash: Type.Boolean(),
});

export const AssetSearchQuery = Type.Object({
  search: SearchQuery.properties.search,
  top,
  $top: top,
  skip,
  $skip: skip,
  $count,
});

export const TreeQuery = Type.Object({
  includeAdditional: Type.Optional(Type.Boolean({ description: 'Adds notes, registration types and account models' })),
  includeRep: Type.Optional(Type.Boolean({ description: 'Adds the household\'s representative' })),
  filterType: Type.Optional(
    Type.Union([Type.Literal('PortfolioTree'), Type.Literal('PortfolioGroups'), Type.Literal('RegistrationsOnly'), Type.Literal('AccountsOnly')], {
      description: 'PortfolioTree (default) and PortfolioGroups: registrations with their accounts; RegistrationsOnly; AccountsOnly',
    }),
  ),
});
export type TreeQuery = Static<typeof TreeQuery>;

const TreeAccount = Type.Object({
  id: IdSchema(),
  number: Type.String(),
  name: Type.String(),
  custodian: Type.String(),
  isActive: Type.Boolean(),
  currentValue: Type.Number(),
  modelId: Type.Optional(Nullable(IdSchema())),
  modelName: Type.Optional(Nullable(Type.String())),
});

const TreeRegistration = Type.Object({
  id: IdSchema(),
  name: Type.String(),
  currentValue: Type.Number(),
  type: Type.Optional(Type.String()),
  typeId: Type.Optional(Nullable(Type.Integer())),
  accounts: Type.Optional(Type.Array(TreeAccount)),
});

export const PortfolioTree = Type.Object({
  id: IdSchema(),
  name: Type.String(),
  currentValue: Type.Number(),
  notes: Type.Optional(Nullable(Type.String())),
  representativeId: Type.Optional(IdSchema()),
  representativeName: Type.Optional(Type.String()),
  registrations: Type.Optional(Type.Array(TreeRegistration)),
  accounts: Type.Optional(Type.Array(TreeAccount)),
});
export type PortfolioTree = Static<typeof PortfolioTree>;

export const TRANSACTION_STATUSES = ['Complete', 'Pending', 'Rejected', 'Reversed', 'Inactive', 'PendingCorpAction'] as const;

export const TransactionsQuery = Type.Object({
  accountId: Type.Optional(IdSchema()),
  clientId: Type.Optional(IdSchema()),
  registrationId: Type.Optional(IdSchema()),
  startDate: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD, inclusive' })),
  endDate: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD, inclusive' })),
  status: Type.Optional(Type.Union(TRANSACTION_STATUSES.map((s) => Type.Literal(s)), { description: 'Recorded transactions are Complete' })),
  transTypeIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 1000 }), { maxItems: 50, description: 'Transaction type ids; repeat the parameter for several' })),
  hasErrors: Type.Optional(Type.Boolean()),
  top,
  $top: top,
  skip,
  $skip: skip,
  $count,
});
export type TransactionsQuery = Static<typeof TransactionsQuery>;

export const Transaction = Type.Object({
  id: IdSchema(),
  accountId: IdSchema(),
  accountNumber: Type.String(),
  registrationId: IdSchema(),
  clientId: IdSchema(),
  transTypeId: Type.Integer(),
  transType: Type.String(),
  status: Type.String(),
  tradeDate: Type.String(),
  amount: Type.Number(),
  description: Nullable(Type.String()),
  hasErrors: Type.Boolean(),
  createdDate: Type.String(),
  createdBy: Type.String(),
});

export const AuthorizationUser = Type.Object({
  loginUserId: Type.String({ description: 'The user name the caller logs in with' }),
  userId: IdSchema(),
  displayName: Type.String(),
  email: Nullable(Type.String()),
  userType: Type.String({ description: 'user, api or service' }),
  roleName: Type.String(),
  firmId: IdSchema(),
  firmName: Type.String(),
  firmCode: Type.String(),
  isActive: Type.Boolean(),
  privileges: Type.Array(Type.String()),
});

export const DefinitionEntityParams = Type.Object({
  entity: Type.String({ minLength: 1, maxLength: 40, description: 'client (or household), registration, account, representative or product' }),
});
