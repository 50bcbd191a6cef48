import { Type, type Static } from 'typebox';
import { IdSchema } from '../../http/ids.js';
import { WholeListQuery } from '../../http/paging.js';
import { Nullable } from '../../http/nullable.js';

const Flag = Type.Integer({ minimum: 0, maximum: 1 });
const NullableText = Nullable(Type.String());
const NullableNumber = Nullable(Type.Number());

/** Every account unless `$top` is given (WholeListQuery): the source system's clients read them all in one call. */
export const AccountsQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Matches the account id, or is contained in the account name, account number or portfolio (registration) name; case-insensitive' })),
  ...WholeListQuery.properties,
});

export const SimpleAccountsQuery = Type.Object({
  ...AccountsQuery.properties,
  includevalue: Type.Optional(Type.Boolean({ description: 'true: each item also carries value (positions at the latest price plus custodial cash)' })),
});

export const AccountParams = Type.Object({ accountId: IdSchema({ description: 'The account id (the same id as in the portfolio platform)' }) });
export const OutOfToleranceParams = Type.Object({ modelId: IdSchema({ description: 'A model of the firm' }), assetId: IdSchema({ description: 'A security (product) id that the model targets' }) });
export const OutOfToleranceQuery = Type.Object({
  assetType: Type.String({
    default: 'security',
    maxLength: 20,
    description: '`security` or `securityset`: assetId is a model security. `class`, `subClass` and `category` are refused with a 400 (the book has no ids for them)',
  }),
});

export const AccountSimple = Type.Object(
  {
    id: Type.Integer({ description: 'Account id in the rebalancing application (the same as the platform account id)' }),
    name: Type.String(),
    accountId: Type.String({ description: 'The platform account id, as text (the source system\'s external account id)' }),
    accountNumber: Type.String({ description: 'Custodial account number' }),
    accountType: Type.String({ description: 'The registration type, e.g. Individual, IRA' }),
    isSleeve: Flag,
    portfolioId: Type.Integer({ description: 'The registration id (a portfolio of the rebalancing application)' }),
    portfolioName: Type.String(),
    modelId: Nullable(Type.Integer()),
    isDeleted: Type.Integer({ minimum: 0, maximum: 1, description: '1 for a closed (inactive) account' }),
    value: Type.Optional(Type.Number({ description: 'With includevalue=true' })),
    createdOn: Type.String(),
    createdBy: Type.String(),
    editedOn: Type.String(),
    editedBy: Type.String(),
  },
  { examples: [{ id: 87032, name: 'Brett George', accountId: '87032', accountNumber: 'L5C2-ELPMAS', accountType: 'Roth IRA', isSleeve: 0, portfolioId: 4100, portfolioName: 'George Roth', modelId: 41, isDeleted: 0, createdOn: '2026-01-10T10:44:47.000Z', createdBy: 'admin@firm', editedOn: '2026-02-21T07:56:58.000Z', editedBy: 'admin@firm' }] },
);

const ListFields = {
  ...AccountSimple.properties,
  portfolio: Type.String({ description: 'Portfolio (registration) name' }),
  custodian: Type.String(),
  value: Type.Number({ description: 'Positions at their latest price plus custodial cash' }),
  managedValue: Type.Number(),
  excludedValue: Type.Number({ description: 'Always 0: the book excludes no holdings from management' }),
  model: NullableText,
  sleeveType: Type.String({ description: '`None` when the account is not a sleeve' }),
  isTradingBlocked: Flag,
  setAsideCashActual: Type.Number({ description: 'Cash protected by active set aside records' }),
  currentCash: Type.Number({ description: 'Custodial cash' }),
  currentCashPercent: Type.Number(),
  targetCash: Type.Number({ description: 'The model cash target on the investable value, plus the protected cash' }),
  targetCashPercent: Type.Number({ description: 'The model cash target percent (0 without a model)' }),
  pendingCashValue: Type.Number({ description: 'Custodial cash after the account\'s open trade orders' }),
};

export const AccountListItem = Type.Object({ ...ListFields, restrictedPlan: Nullable(Type.String(), { description: 'Name of the assigned restricted plan' }) });

export const AccountDetail = Type.Object({
  ...ListFields,
  registrationId: Type.Integer(),
  sleeveTarget: NullableNumber,
  sleeveToleranceLower: NullableNumber,
  sleeveToleranceUpper: NullableNumber,
  restrictedPlan: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
  generalSection: Type.Object(
    { accountName: Type.String(), accountNumber: Type.String(), accountId: Type.String(), accountType: Type.String(), portfolioId: Type.Integer(), portfolioName: Type.String(), custodian: Type.String(), model: NullableText },
    { description: 'The account\'s identity as the source system\'s client reads it before an account update (accountName, portfolioId)' },
  ),
  summarySection: Type.Object({
    grandTotal: Type.Number(),
    totalValue: Type.Number(),
    managedValue: Type.Number(),
    excludedValue: Type.Number(),
    totalCashValue: Type.Number({ description: 'Custodial cash' }),
    cashReserve: Type.Number({ description: 'The model cash target in dollars, on the value less protected cash' }),
    setAsideCash: Type.Number({ description: 'Cash protected by active set aside records' }),
    cashAvailable: Type.Number({ description: 'Custodial cash less set aside cash and the cash reserve, not below 0' }),
    pendingCashValue: Type.Number(),
  }),
});

export const AccountHolding = Type.Object({
  id: Type.Integer({ description: 'Holding (position) id' }),
  securityId: Type.Integer(),
  accountNumber: Type.String(),
  securityName: Type.String(),
  securitySymbol: Type.String(),
  price: NullableNumber,
  shares: Type.Number(),
  value: Type.Number(),
  currentInPer: Type.Number({ description: 'Percent of the account value' }),
  targetInPer: Type.Number({ description: 'The model target percent of the security (0 when not a target)' }),
  pendingValue: Type.Number({ description: 'Value after the account\'s open trade orders' }),
  pendingInPer: Type.Number(),
  excluded: Type.String({ description: 'Always `No`' }),
  isCash: Type.String({ description: '`Yes` or `No`' }),
  inModel: Type.String({ description: '`Yes` when the security is a target or an equivalent of the account\'s model' }),
  isDeleted: Flag,
});

export const OutOfToleranceItem = Type.Object({
  accountId: Type.Integer(),
  accountName: Type.String(),
  accountNumber: Type.String(),
  targetInPercentage: Type.Number(),
  currentInPercentage: Type.Number({ description: 'Weight of the security and its equivalents in the investable value (value less protected cash)' }),
  postTradeInPercentage: Type.Number({ description: 'The same after the account\'s open trade orders' }),
  differenceInPercentage: Type.Number({ description: 'current − target: positive when overweight' }),
  currentInDollar: Type.Number(),
  postTradeInDollar: Type.Number(),
  differenceInDollar: Type.Number({ description: 'current − target dollars' }),
  currentInShares: Type.Number(),
  postTradeInShares: Type.Number(),
  differenceInShares: Type.Number({ description: 'differenceInDollar at the security\'s price' }),
});

export const CodeItem = Type.Object({ id: Type.Integer(), name: Type.String() });

export type AccountSimple = Static<typeof AccountSimple>;
export type AccountListItem = Static<typeof AccountListItem>;
export type AccountDetail = Static<typeof AccountDetail>;
export type AccountHolding = Static<typeof AccountHolding>;
export type OutOfToleranceItem = Static<typeof OutOfToleranceItem>;
