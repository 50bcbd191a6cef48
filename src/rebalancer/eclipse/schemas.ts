import { Type, type Static } from 'typebox';
import { IdSchema } from '../../http/ids.js';
import { CountQuery, Skip, Top, WholeListQuery } from '../../http/paging.js';
import { Nullable } from '../../http/nullable.js';
import { AccountHolding } from '../accounts/schemas.js';

/**
 * The source system's Eclipse reads (docs/decisions/eclipse-concepts.md): a portfolio is a
 * registration, a security set is a model's lines, a trade order is a trade of a trade instance.
 */

const NullableText = Nullable(Type.String());
const NullableNumber = Nullable(Type.Number());
const IsoDate = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
const SearchText = (description: string) => Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description });
const SEARCH = 'Matched case-insensitively anywhere in the text (part of a number, a name or a ticker), or equal to the id when all digits';

export const PortfolioParams = Type.Object({ portfolioId: IdSchema({ description: 'A portfolio: the id of a registration of the firm' }) });

export const PortfoliosQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 200, description: `The portfolio (registration) name or id. ${SEARCH}` })),
  includevalue: Type.Boolean({ default: false, description: 'true: each portfolio also carries value (its active accounts\' positions at the latest price plus custodial cash)' }),
  ...WholeListQuery.properties,
});

export const PortfolioSimple = Type.Object(
  {
    id: Type.Integer({ description: 'The registration id' }),
    name: Type.String({ description: 'The registration name' }),
    householdId: Type.Integer({ description: 'The household (client) the registration belongs to' }),
    householdName: Type.String(),
    registrationId: Type.Integer({ description: 'The same as id: a portfolio is a registration' }),
    accountType: Type.String({ description: 'The registration type' }),
    isSleevePortfolio: Type.Boolean(),
    doNotTrade: Type.Boolean(),
    isDeleted: Type.Integer({ minimum: 0, maximum: 0, description: 'Always 0: registrations are never closed' }),
    value: Type.Optional(Type.Number({ description: 'With includevalue=true' })),
    createdOn: Type.String(),
    createdBy: Type.String(),
    editedOn: Type.String(),
    editedBy: Type.String(),
  },
  { examples: [{ id: 4100, name: 'George Roth', householdId: 2100, householdName: 'George household', registrationId: 4100, accountType: 'Roth IRA', isSleevePortfolio: false, doNotTrade: false, isDeleted: 0, value: 125000.5, createdOn: '2026-01-10T10:44:47.000Z', createdBy: 'admin@firm', editedOn: '2026-01-10T10:44:47.000Z', editedBy: 'admin@firm' }] },
);

export const PortfolioDetail = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  isDeleted: Type.Integer({ minimum: 0, maximum: 0 }),
  isDisabled: Type.Integer({ minimum: 0, maximum: 1, description: '1 when the registration is marked do-not-trade' }),
  general: Type.Object({
    portfolioName: Type.String(),
    registrationId: Type.Integer(),
    householdId: Type.Integer(),
    householdName: Type.String(),
    accountType: Type.String(),
    sleevePortfolio: Type.Boolean(),
    doNotTrade: Type.Boolean(),
    modelIds: Type.Array(Type.Integer(), { description: 'The models its active accounts follow' }),
  }),
  teams: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() }), { description: 'Teams that may see the models its accounts follow (empty: the models are seen by every user)' }),
  issues: Type.Object({
    accountCount: Type.Integer({ description: 'Active accounts' }),
    accountsWithoutModel: Type.Integer(),
    tradeBlockedAccounts: Type.Integer(),
    pendingTrades: Type.Integer({ description: 'Open trade orders of its accounts' }),
  }),
  summary: Type.Object({
    totalValue: Type.Number({ description: 'Positions at the latest price plus custodial cash, over its active accounts' }),
    cashValue: Type.Number({ description: 'Custodial cash' }),
    cashPercent: Type.Number(),
  }),
  createdOn: Type.String(),
  createdBy: Type.String(),
  editedOn: Type.String(),
  editedBy: Type.String(),
});

export const HoldingsQuery = Type.Object({
  inAccountId: Type.Optional(IdSchema({ description: 'The holdings of this account (the client\'s name for it)' })),
  inPortfolioId: Type.Optional(IdSchema({ description: 'The holdings of every active account of this portfolio (registration)' })),
  accountId: Type.Optional(IdSchema({ description: 'The same as inAccountId' })),
  portfolioId: Type.Optional(IdSchema({ description: 'The same as inPortfolioId' })),
  search: Type.Optional(Type.String({ maxLength: 200, description: `The security's ticker, name or id. ${SEARCH}` })),
  $top: Top(20_000, 5000),
  $skip: Skip(),
});

export const HoldingSimple = Type.Object({
  ...AccountHolding.properties,
  accountId: Type.Integer(),
  portfolioId: Type.Integer({ description: 'The account\'s registration' }),
});

export const SecuritiesQuery = Type.Object({
  search: SearchText(`Ticker, name or id. ${SEARCH}`),
  top: Type.Integer({ minimum: 1, maximum: 1000, default: 20, description: 'At most this many securities' }),
  excludeCashSecurity: Type.Boolean({ default: false, description: 'true: cash securities are left out' }),
});

export const Security = Type.Object({
  id: Type.Integer({ description: 'The product id' }),
  symbol: Type.String({ description: 'The ticker' }),
  name: Type.String(),
  securityType: Type.String({ description: 'The product type, e.g. ETF' }),
  assetClass: NullableText,
  subClass: NullableText,
  category: NullableText,
  price: NullableNumber,
  priceDate: NullableText,
  isCash: Type.Boolean(),
});

export const SecuritySetLine = Type.Object({
  securitySetId: Type.Integer({ description: 'The model id' }),
  securityId: Type.Integer(),
  symbol: Type.String(),
  rank: Type.Integer({ description: 'Position of the line in the model, from 1' }),
  targetPercent: Type.Number(),
  lowerModelTolerancePercent: Type.Number(),
  upperModelTolerancePercent: Type.Number(),
  equivalences: Type.Array(Type.Object({ securityId: Type.Integer() }), { description: 'Equivalent securities, in rank order' }),
});

export const SecuritySetsQuery = Type.Object({ $top: Top(100_000, 1000), $skip: Skip() });

export const SecuritySet = Type.Object({
  id: Type.Integer({ description: 'The model id: a security set is a model\'s lines' }),
  name: Type.String(),
  description: NullableText,
  isDynamic: Type.Boolean({ description: 'Always false' }),
  isDeleted: Type.Integer({ minimum: 0, maximum: 1, description: '1 for an inactive model' }),
  cashTargetPercent: Type.Number(),
  details: Type.Array(SecuritySetLine),
  createdDate: Type.String(),
  createdBy: Type.String(),
  editedDate: Type.String(),
  editedBy: Type.String(),
});

export const SecuritySetParams = Type.Object({ securitySetId: IdSchema({ description: 'A security set: the id of a model the caller may see' }) });

const SecurityRef = {
  id: Type.Integer({ description: 'The security (product) id' }),
  securityId: Type.Integer({ description: 'The same id' }),
  symbol: Type.String({ description: 'The ticker' }),
  name: Type.String(),
};

export const SecuritySetSecurity = Type.Object({
  ...SecurityRef,
  rank: Type.Integer({ description: 'Position of the line in the model, from 1' }),
  targetPercent: Type.Number(),
  lowerModelTolerancePercent: Type.Number({ description: 'Percentage points below the target before it is out of tolerance' }),
  upperModelTolerancePercent: Type.Number({ description: 'Percentage points above the target' }),
  equivalences: Type.Array(Type.Object(SecurityRef), { description: 'Equivalent securities, in rank order' }),
});

export const SecuritySetDetail = Type.Object({
  ...SecuritySet.properties,
  securities: Type.Array(SecuritySetSecurity, { description: 'The model\'s lines with each security\'s symbol and name, and its equivalents\' (what the source system\'s client reads)' }),
});

export const InstancesQuery = Type.Object({
  startDate: IsoDate,
  endDate: IsoDate,
  $top: Top(10_000, 1000),
  $skip: Skip(),
});

export const TradeInstance = Type.Object({
  id: Type.Integer(),
  tradeInstanceType: Type.Integer({ description: 'The source system\'s codes: 6 Rebalance, 5 Quick Trade' }),
  tradeInstanceSubType: Type.Integer({ description: '14 Standard Rebalance, 11 Quick Trade' }),
  orderCount: Type.Integer({ description: 'Trade orders of the instance' }),
  status: Type.String({ description: 'Open or Cancelled' }),
  notes: NullableText,
  createdOn: Type.String(),
  createdBy: Type.String(),
  cancelledOn: NullableText,
  cancelledBy: NullableText,
});

export const TradesQuery = Type.Object({
  isPending: Type.Optional(Type.Boolean({ description: 'true: open trade orders; false: executed or cancelled ones; omitted: all' })),
  portfolioId: Type.Optional(IdSchema({ description: 'Trade orders of the accounts of this portfolio (registration)' })),
  ...WholeListQuery.properties,
  ...CountQuery.properties,
});

export const TradeOrder = Type.Object({
  id: Type.Integer(),
  tradeInstanceId: Type.Integer(),
  accountId: Type.Integer(),
  accountNumber: Type.String(),
  accountType: Type.String({ description: 'The registration type' }),
  custodian: Type.String(),
  portfolioId: Type.Integer({ description: 'The account\'s registration' }),
  registrationName: Type.String(),
  securityId: Type.Integer(),
  ticker: Type.String(),
  productName: Type.String(),
  action: Type.Integer({ description: '1 Buy, 2 Sell' }),
  tradeType: Type.String({ description: 'Dollars or Shares' }),
  orderQty: Type.Number({ description: 'Shares' }),
  tradeAmount: Type.Number({ description: 'Dollars' }),
  price: Type.Number(),
  status: Type.String({ description: 'Open, Executed or Cancelled' }),
  isPending: Type.Boolean({ description: 'true while the order is open' }),
  notes: Type.String({ description: 'Why the rebalancer made the trade' }),
  instanceNotes: NullableText,
  createdBy: Type.String(),
  createdDate: Type.String(),
  executedDate: NullableText,
});

export const SleeveItem = Type.Object({
  id: Type.Integer({ description: 'The sleeve account id' }),
  accountId: Type.String(),
  accountNumber: Type.String(),
  name: Type.String(),
  portfolioId: Type.Integer(),
  portfolioName: Type.String(),
  sleeveType: Type.String(),
  sleeveTarget: NullableNumber,
  sleeveToleranceLower: NullableNumber,
  sleeveToleranceUpper: NullableNumber,
  modelId: Nullable(Type.Integer()),
  modelName: NullableText,
  isDeleted: Type.Integer({ minimum: 0, maximum: 1 }),
});

export type PortfolioSimple = Static<typeof PortfolioSimple>;
export type PortfolioDetail = Static<typeof PortfolioDetail>;
export type HoldingSimple = Static<typeof HoldingSimple>;
export type Security = Static<typeof Security>;
export type SecuritySet = Static<typeof SecuritySet>;
export type SecuritySetDetail = Static<typeof SecuritySetDetail>;
export type TradeInstance = Static<typeof TradeInstance>;
export type TradeOrder = Static<typeof TradeOrder>;
export type SleeveItem = Static<typeof SleeveItem>;
