import { Type, type Static } from 'typebox';
import { HouseholdDetails } from './households/schemas.js';
import { IdSchema } from '../http/ids.js';
import { TAX_STATUSES, type TaxStatus } from './registration-types.js';
import { Nullable } from '../http/nullable.js';

const Id = IdSchema();
const Audit = {
  createdDate: Type.String({ format: 'date-time' }),
  createdBy: Type.String(),
  editedDate: Type.String({ format: 'date-time' }),
  editedBy: Type.String(),
};
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Dollars = Type.Number({ minimum: -1e13, maximum: 1e13, description: 'US dollars' });
const IsoDate = Type.String({ format: 'date', description: 'YYYY-MM-DD' });

export { PageQuery } from '../http/paging.js';

export const KeyParams = Type.Object({ key: IdSchema() });

// Households (`clients`).
export const ClientInput = Type.Object({
  name: Name,
  representativeId: Id,
  notes: Type.Optional(Nullable(Type.String({ maxLength: 4000 }))),
});
export const ClientRecord = Type.Object({
  id: Id,
  ...ClientInput.properties,
  notes: Nullable(Type.String()),
  ...Audit,
  // Section 2.16's household verbose record; read-only, and ignored when a record is sent back.
  ...HouseholdDetails,
});

export const RegistrationInput = Type.Object({
  clientId: Id,
  name: Name,
  type: Type.String({ minLength: 1, maxLength: 60, description: 'e.g. Individual, Joint, IRA, Roth IRA, Trust' }),
  isSleeved: Type.Optional(Type.Boolean()),
  doNotTrade: Type.Optional(Type.Boolean({ description: 'Legacy registration-level trade block' })),
});
export const RegistrationRecord = Type.Object({
  id: Id,
  ...RegistrationInput.properties,
  isSleeved: Type.Boolean(),
  doNotTrade: Type.Boolean(),
  ...Audit,
});

export const AccountInput = Type.Object({
  registrationId: Id,
  number: Type.String({ minLength: 1, maxLength: 50 }),
  name: Name,
  custodian: Type.String({ minLength: 1, maxLength: 100 }),
  modelId: Type.Optional(Nullable(Id)),
  cash: Type.Optional(Dollars),
  isTradingBlocked: Type.Optional(Type.Boolean({ description: 'Legacy account-level trade block' })),
  isActive: Type.Optional(Type.Boolean()),
  restrictedPlanId: Type.Optional(Nullable(IdSchema(), { description: 'The id of a restricted plan of the rebalancing application (its `GET /v1/restrictedPlans`); null for none' })),
  taxStatus: Type.Optional(
    Nullable(Type.Unsafe<TaxStatus>({ type: 'string', enum: [...TAX_STATUSES] }), {
      description: 'How gains are taxed in tax-aware rebalancing: Taxable, TaxDeferred or TaxExempt; null (the default) takes it from the registration type',
    }),
  ),
  isSma: Type.Optional(Type.Boolean({ description: 'A separately managed account (SMA); false by default. The rebalancer integration sets it with UpdateDoNotTradeAndSma.' })),
});
const NullableNumber = Nullable(Type.Number());
export const AccountRecord = Type.Object({
  id: Id,
  ...AccountInput.properties,
  modelId: Nullable(Id),
  cash: Type.Number(),
  isTradingBlocked: Type.Boolean(),
  isActive: Type.Boolean(),
  restrictedPlanId: Nullable(Id),
  taxStatus: Type.Unsafe<TaxStatus>({ type: 'string', enum: [...TAX_STATUSES], description: 'Effective tax status: the account\'s own, else its registration type\'s' }),
  isSma: Type.Boolean({ description: 'A separately managed account (SMA)' }),
  sleeveType: Nullable(Type.String()),
  sleeveTargetPercent: NullableNumber,
  sleeveToleranceLower: NullableNumber,
  sleeveToleranceUpper: NullableNumber,
  ...Audit,
});

export const PRODUCT_TYPES = ['Equity', 'ETF', 'MutualFund', 'FixedIncome', 'Cash'] as const;
const OptionalText = Type.Optional(Nullable(Type.String({ maxLength: 100 })));
export const ProductInput = Type.Object({
  ticker: Type.String({ minLength: 1, maxLength: 20, pattern: '^[A-Za-z0-9.\\-/ ]+$' }),
  name: Name,
  type: Type.Union(PRODUCT_TYPES.map((t) => Type.Literal(t))),
  class: OptionalText,
  subClass: OptionalText,
  category: OptionalText,
  price: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 1e9 }))),
  priceDate: Type.Optional(Nullable(IsoDate)),
  isCash: Type.Optional(Type.Boolean()),
  allowsFractionalShares: Type.Optional(Type.Boolean()),
  washSaleGroup: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'Products of one group are substantially identical for wash sales (share classes of one fund); null: only itself' }))),
  harvestReplacementProductId: Type.Optional(Nullable(IdSchema(), { description: 'What tax-loss harvesting buys instead of this product; null: the model line\'s first equivalent outside its wash-sale group' })),
});
const NullableText = Nullable(Type.String());
export const ProductRecord = Type.Object({
  id: Id,
  ...ProductInput.properties,
  class: NullableText,
  subClass: NullableText,
  category: NullableText,
  price: NullableNumber,
  priceDate: NullableText,
  isCash: Type.Boolean(),
  allowsFractionalShares: Type.Boolean(),
  washSaleGroup: NullableText,
  harvestReplacementProductId: Nullable(Id),
  ...Audit,
});

export const TaxLotInput = Type.Object({
  shares: Type.Number({ exclusiveMinimum: 0, maximum: 1e12 }),
  costBasis: Type.Number({ minimum: 0, maximum: 1e13 }),
  acquiredDate: IsoDate,
});
export const PositionInput = Type.Object({
  productId: Id,
  shares: Type.Number({ minimum: 0, maximum: 1e12 }),
  costBasis: Type.Optional(Type.Number({ minimum: 0, maximum: 1e13 })),
  taxLots: Type.Optional(Type.Array(TaxLotInput, { maxItems: 1000 })),
});
export const PositionRecord = Type.Object({
  id: Id,
  accountId: Id,
  productId: Id,
  ticker: Type.String(),
  shares: Type.Number(),
  costBasis: Type.Number(),
  price: NullableNumber,
  marketValue: NullableNumber,
  taxLots: Type.Array(Type.Object({ id: Id, ...TaxLotInput.properties })),
});

export const PriceInput = Type.Object({
  productId: Id,
  date: IsoDate,
  price: Type.Number({ exclusiveMinimum: 0, maximum: 1e9 }),
});
export const PriceRecord = Type.Object({ date: IsoDate, price: Type.Number() });

export type ClientInput = Static<typeof ClientInput>;
export type ClientRecord = Static<typeof ClientRecord>;
export type RegistrationInput = Static<typeof RegistrationInput>;
export type RegistrationRecord = Static<typeof RegistrationRecord>;
export type AccountInput = Static<typeof AccountInput>;
export type AccountRecord = Static<typeof AccountRecord>;
export type ProductInput = Static<typeof ProductInput>;
export type ProductRecord = Static<typeof ProductRecord>;
export type PositionInput = Static<typeof PositionInput>;
export type PositionRecord = Static<typeof PositionRecord>;
export type PriceInput = Static<typeof PriceInput>;
export type PriceRecord = Static<typeof PriceRecord>;
