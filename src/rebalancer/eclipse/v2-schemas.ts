import { Type, type Static } from 'typebox';
import { IdSchema } from '../../http/ids.js';
import { Skip, Top, WholeListQuery } from '../../http/paging.js';
import { Nullable } from '../../http/nullable.js';
import { AccountDetail, AccountListItem, AccountSimple } from '../accounts/schemas.js';

/**
 * The source system's Eclipse v2 reads (`api/v2/…`; docs/decisions/eclipse-concepts.md): accounts,
 * restricted plans' accounts, set aside settings, trade block reasons and details, trading blocks,
 * sleeve strategies, teams and the searches. The v1 reads' schemas are in schemas.ts.
 */

const NullableText = Nullable(Type.String());
const NullableNumber = Nullable(Type.Number());
const IsoDate = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
const SearchText = (description: string) => Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description });
const SEARCH = 'Matched case-insensitively anywhere in the text (part of a number, a name or a ticker), or equal to the id when all digits';

export const V2AccountsQuery = Type.Object({
  filterId: Type.Optional(Type.Integer({ minimum: 0, maximum: 0, description: '0: every active account (the only filter here; the book keeps no saved account filters)' })),
  ...WholeListQuery.properties,
});

export const V2AccountListItem = Type.Object({
  ...AccountListItem.properties,
  registrationId: Type.Integer(),
  restrictedPlanName: NullableText,
  isDisabled: Type.Integer({ minimum: 0, maximum: 1, description: '1 when the account is blocked from trading' }),
});

const { restrictedPlan: _plan, ...detailFields } = AccountDetail.properties;
export const V2AccountDetail = Type.Object({
  ...detailFields,
  restrictedPlanId: Nullable(Type.Integer()),
  restrictedPlanName: NullableText,
  isDisabled: Type.Integer({ minimum: 0, maximum: 1 }),
  accountValue: Type.Object({
    totalValue: Type.Number(),
    holdings: Type.Array(
      Type.Object({ securityId: Type.Integer(), securityName: Type.String(), securitySymbol: Type.String(), marketValue: Type.Number(), unit: Type.Number({ description: 'Shares' }), price: NullableNumber, percentage: Type.Number(), pendingValue: Type.Number() }),
    ),
  }),
});

export const V2AccountParams = Type.Object({ accountId: IdSchema() });

export const RestrictedPlanAccountsQuery = Type.Object({
  restrictedPlanId: Type.Optional(IdSchema({ description: 'The plan id; this or externalPlanId is required' })),
  externalPlanId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The plan\'s external id' })),
  ...WholeListQuery.properties,
});

export const SetAsideSettingsBody = Type.Array(IdSchema(), { minItems: 0, maxItems: 200_000, description: 'Account ids; each must be an account of the firm' });

export const SetAsideSetting = Type.Object({
  id: Type.Integer(),
  accountId: Type.Integer(),
  accountNumber: Type.String(),
  description: NullableText,
  setAsideCashAmountType: Type.Integer({ description: '1 dollars, 2 percent' }),
  cashAmountTypeId: Type.Integer(),
  cashAmountType: Type.String(),
  setAsideCashAmount: Type.Number(),
  minCashAmount: NullableNumber,
  maxCashAmount: NullableNumber,
  transactionAmountTolerance: NullableNumber,
  setAsidePercentCalculationTypeId: Nullable(Type.Integer()),
  isActive: Type.Boolean(),
  expirationTypeId: Type.Integer({ description: '1 Date, 2 Transaction, 3 None' }),
  expirationType: Type.String(),
  expirationValue: NullableText,
  startDate: Type.String(),
  expiredOn: NullableText,
  expiredBy: NullableText,
  createdOn: Type.String(),
  createdBy: Type.String(),
  editedOn: Type.String(),
  editedBy: Type.String(),
});

export const EditableReason = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  globalId: Type.String({ format: 'uuid' }),
  isSystemMaintained: Type.Boolean({ description: 'Always false: system-maintained reasons cannot be edited' }),
  allowDetailAssignment: Type.Boolean(),
  eclipseFirmId: Type.Integer(),
});

export const RelatedTypeParam = Type.Union([Type.Literal(16), Type.Literal(32)], { description: '16 = Portfolio (registration), 32 = Account' });

export const HistoryParams = Type.Object({ entityType: RelatedTypeParam, id: IdSchema({ description: 'The registration or account id' }) });
export const HistoryQuery = Type.Object({
  startDate: Type.Optional(IsoDate),
  endDate: Type.Optional(IsoDate),
});

export const DetailHistoryItem = Type.Object({
  id: Type.Integer({ description: 'The trade block detail id' }),
  changeType: Type.String({ description: 'Added, Edited or Deleted: the detail\'s last change' }),
  type: Type.String({ description: 'The reason name' }),
  description: Type.String(),
  startDate: IsoDate,
  endDate: Nullable(IsoDate),
  createdBy: Type.String(),
  createdDate: Type.String(),
  editedBy: Type.String(),
  editedDate: Type.String(),
});

export const RelatedEntitiesQuery = Type.Object({ entityId: IdSchema({ description: 'The registration or account id' }), entityType: RelatedTypeParam });
export const RelatedEntityItem = Type.Object({ id: Type.Integer(), entityType: Type.Integer({ description: '16 = Portfolio (registration), 32 = Account' }), name: Type.String() });

export const BlocksQuery = Type.Object({
  hasQuodd: Type.Optional(Type.Boolean({ description: 'Accepted for the client; the book keeps no Quodd quotes, so it narrows nothing' })),
  registrationStatus: Type.Optional(Type.String({ maxLength: 50, description: 'Accepted for the client; blocks are not registered with a broker here, so it narrows nothing' })),
  getAdv: Type.Optional(Type.Boolean({ description: 'Accepted for the client; the book keeps no average daily volume' })),
  $top: Top(50_000, 5000),
  $skip: Skip(),
});

export const TradingBlock = Type.Object({
  id: Type.Integer({ description: 'The lowest id of the block\'s trade orders' }),
  tradeActionId: Type.Integer({ description: '1 Buy, 2 Sell' }),
  securityId: Type.Integer(),
  symbol: Type.String(),
  securityName: Type.String(),
  orderQuantity: Type.Number({ description: 'Shares of the block' }),
  estimateAmount: Type.Number({ description: 'Dollars of the block' }),
  price: NullableNumber,
  tradeCount: Type.Integer(),
  accountCount: Type.Integer(),
  createdDate: Type.String({ description: 'When its oldest order was made' }),
});

export const SleeveStrategy = Type.Object({
  id: Type.Integer({ description: 'The model aggregate id' }),
  name: Type.String(),
  hasAssignedRegistrations: Type.Boolean({ description: 'A sleeved registration names it as its strategy' }),
  models: Type.Array(Type.Object({ modelId: Type.Integer(), name: Type.String(), weightPercent: Type.Number() })),
});

export const TeamsQuery = Type.Object({ externalId: Type.Optional(Type.String({ maxLength: 50, description: 'The team id as text: the book keeps no other team key' })) });
export const TeamItem = Type.Object({ id: Type.Integer(), name: Type.String() });

export const AccountSearchQuery = Type.Object({
  search: SearchText(`Account number, name or id. ${SEARCH}`),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Page size' }),
  offset: Skip(),
});

export const AccountSearchItem = Type.Object({
  ...AccountSimple.properties,
  custodian: Type.String(),
});

export const SecuritySearchQuery = Type.Object({
  search: SearchText(`Ticker, name or id. ${SEARCH}`),
  skip: Skip(),
  take: Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Page size' }),
  externalFirmId: Type.Optional(Type.Integer({ minimum: 1, description: 'When sent, the caller\'s firm id' })),
  externalAccountId: Type.Optional(IdSchema({ description: 'When sent, an account of the firm; it does not narrow the securities' })),
});

export const GlobalSearchQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 200, description: `Account number, name or id; portfolio or model name or id. ${SEARCH}` })),
  name: Type.Optional(Type.String({ maxLength: 200, description: 'Matches names only' })),
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('all')], { description: 'active (default): open accounts and active models; all: closed and inactive ones too' })),
  includeValue: Type.Boolean({ default: false, description: 'true: portfolios and accounts carry value' }),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 20, description: 'At most this many of each kind' }),
});

const SearchHit = Type.Object({ id: Type.Integer(), name: Type.String(), value: Type.Optional(Type.Number()), isDeleted: Type.Boolean() });
export const GlobalSearchResult = Type.Object({ portfolios: Type.Array(SearchHit), accounts: Type.Array(SearchHit), models: Type.Array(SearchHit) });

export type V2AccountListItem = Static<typeof V2AccountListItem>;
export type V2AccountDetail = Static<typeof V2AccountDetail>;
export type SetAsideSetting = Static<typeof SetAsideSetting>;
export type DetailHistoryItem = Static<typeof DetailHistoryItem>;
export type TradingBlock = Static<typeof TradingBlock>;
export type SleeveStrategy = Static<typeof SleeveStrategy>;
export type AccountSearchItem = Static<typeof AccountSearchItem>;
export type GlobalSearchResult = Static<typeof GlobalSearchResult>;
