import { Type, type Static } from 'typebox';
import { IdSchema, MAX_ID } from '../http/ids.js';
import { Nullable } from '../http/nullable.js';

const NullableNumber = Nullable(Type.Number());
const NullableText = Nullable(Type.String());
const Flag = Type.Integer({ minimum: 0, maximum: 1 });

/** Section 4.6's create body; codes are checked by the service so that a 400 names the field plainly. */
export const SetAsideInput = Type.Object({
  id: Type.Optional(Nullable(Type.Integer(), { description: 'Ignored (the DCA samples send 0)' })),
  cashAmountTypeId: Type.Integer({ description: '1 dollars, 2 percent' }),
  cashAmount: Type.Number(),
  expirationTypeId: Type.Integer({ description: '1 Date, 2 Transaction, 3 None' }),
  expirationValue: Type.Optional(
    Type.Union([Type.Integer(), Type.String({ maxLength: 40 }), Type.Null()], { description: 'Type 1: the last protected date; type 2: 1 Distribution / Merge Out, 3 Fee' }),
  ),
  percentCalculationTypeId: Type.Optional(Nullable(Type.Integer(), { description: '0 managed value (default), 1 total value, 2 excluded value' })),
  toleranceValue: Type.Optional(NullableNumber),
  description: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  startDate: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  minCashAmount: Type.Optional(NullableNumber),
  maxCashAmount: Type.Optional(NullableNumber),
  isDepleteOverTime: Type.Optional(Nullable(Type.Boolean())),
  setAsideAccountTypeId: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MAX_ID }))),
});

const Audit = { createdOn: Type.String(), createdBy: Type.String(), editedOn: Type.String(), editedBy: Type.String() };

export const SetAsideDetail = Type.Object({
  id: Type.Integer(),
  accountId: Type.Integer(),
  description: NullableText,
  cashAmountTypeId: Type.Integer(),
  cashAmount: Type.Number(),
  minCashAmount: NullableNumber,
  maxCashAmount: NullableNumber,
  expirationTypeId: Type.Integer(),
  expirationValue: Type.Union([Type.Integer(), Type.String(), Type.Null()], { description: 'The date for type 1, the transaction code for type 2' }),
  toleranceValue: NullableNumber,
  isExpired: Flag,
  startDate: Type.String(),
  isDeleted: Flag,
  percentCalculationTypeId: Nullable(Type.Integer()),
  isDepleteOverTime: Flag,
  ...Audit,
});

export const SetAsideListItem = Type.Object({
  id: Type.Integer(),
  description: NullableText,
  cashAmountTypeId: Type.Integer(),
  cashAmountTypeName: Type.String(),
  cashAmount: Type.Number(),
  expirationTypeId: Type.Integer(),
  expirationTypeName: Type.String(),
  expirationValue: NullableText,
  toleranceValue: NullableNumber,
  expiredOn: NullableText,
  isExpired: Flag,
  portfolioSetAsideCashId: Nullable(Type.Integer()),
  setAsideAccountTypeName: NullableText,
  isSystematic: Flag,
  startDate: Type.String(),
  isActive: Flag,
  isBilling: Flag,
  amountExpired: Type.Number(),
  initialAmount: Type.Number(),
  isDeleted: Flag,
  minCashAmount: NullableNumber,
  maxCashAmount: NullableNumber,
  percentCalculationTypeId: Nullable(Type.Integer()),
  percentCalculationType: NullableText,
  expiredBy: NullableText,
  expiredByUser: NullableText,
  isDepleteOverTime: Flag,
  ...Audit,
});

export const AccountParams = Type.Object({ eclipseAccountId: IdSchema() });
export const RecordParams = Type.Object({ eclipseAccountId: IdSchema(), setAsideCashId: IdSchema() });
export const DeleteResult = Type.Object({ id: Type.String(), message: Type.String() });

export const CashNeed = Type.Object({
  accountId: Type.Integer(),
  accountNumber: Type.String(),
  accountName: Type.String(),
  modelId: Nullable(Type.Integer()),
  accountValue: Type.Number(),
  cash: Type.Number(),
  protectedCash: Type.Number(),
  modelCashTarget: Type.Number({ description: 'The model cash percent of the value left after protected cash' }),
  cashNeed: Type.Number({ description: 'protectedCash + modelCashTarget' }),
  shortfall: Type.Number({ description: 'cashNeed - cash' }),
});

export type SetAsideInput = Static<typeof SetAsideInput>;
export type SetAsideDetail = Static<typeof SetAsideDetail>;
export type SetAsideListItem = Static<typeof SetAsideListItem>;
export type CashNeed = Static<typeof CashNeed>;
