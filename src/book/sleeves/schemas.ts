import { Type, type Static, type TSchema } from 'typebox';
import { IdSchema, MAX_ID } from '../../http/ids.js';
import { TradeBlockDetail } from '../../trade-blocks/schemas.js';
import { literals } from '../../http/literals.js';
import { Nullable } from '../../http/nullable.js';

const Optional = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** Section 2.15: four sleeve types, three of them system sleeves. */
export const SleeveType = {
  Normal: 'Normal Sleeve',
  Custodial: 'Custodial Account',
  Contribution: 'Contribution Sleeve',
  Distribution: 'Distribution Sleeve',
} as const;
export const SLEEVE_TYPES = Object.values(SleeveType);
export const SYSTEM_SLEEVE_TYPES: readonly string[] = [SleeveType.Custodial, SleeveType.Contribution, SleeveType.Distribution];

export const ALLOCATION_METHODS = ['Assigned', 'Sleeve Current Percent', 'Sleeve Target Percent'] as const;
export type AllocationMethod = (typeof ALLOCATION_METHODS)[number];
export const AUTO_REBAL_FREQUENCIES = ['None', 'Monthly', 'Quarterly', 'Semi-Annually', 'Annually'] as const;
export type AutoRebalFrequency = (typeof AUTO_REBAL_FREQUENCIES)[number];
export const ModelType = { Strategy: 'Strategy', SelfDirected: 'Self-Directed' } as const;

const Percent = Type.Number({ minimum: 0, maximum: 100, description: 'percent' });
const Text = Type.String({ maxLength: 200 });
const IsoDate = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
const Method = (which: string) => literals(ALLOCATION_METHODS, `how ${which} are allocated across the sleeves`);

export const ModelAllocationInput = Type.Object({
  productId: IdSchema(),
  targetPercent: Type.Number({ exclusiveMinimum: 0, maximum: 100 }),
  lowerTolerance: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'percentage points below the target; default 0' })),
  upperTolerance: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'percentage points above the target; default 0' })),
});

export const AccountSleeveInput = Type.Object({
  accountId: Optional(Type.Integer({ minimum: 0, maximum: MAX_ID, description: 'the sleeve account; 0 or null adds a new sleeve' })),
  sleeveType: Optional(literals(SLEEVE_TYPES)),
  sleeveDescription: Optional(Text),
  targetAllocation: Optional(Percent),
  toleranceLower: Optional(Percent),
  toleranceUpper: Optional(Percent),
  contributionAllocation: Optional(Percent),
  distributionAllocation: Optional(Percent),
  corporateActionAllocation: Optional(Percent),
  sweepAssetId: Optional(IdSchema()),
  modelAggId: Optional(IdSchema({ description: 'the strategy model; null for a self-directed sleeve' })),
  managementStyleId: Optional(Type.Integer({ minimum: 0, maximum: MAX_ID })),
  managementStyle: Optional(Text),
  subAdvisorId: Optional(Type.Integer({ minimum: 0, maximum: MAX_ID })),
  subAdvisor: Optional(Text),
  modelAllocations: Optional(Type.Array(ModelAllocationInput, { maxItems: 500, description: 'a self-directed sleeve\'s own model; totals 100' })),
});

export const SleeveRegistrationInput = Type.Object({
  registrationId: IdSchema(),
  sleeveStrategyId: Optional(Type.Integer({ minimum: 0, maximum: MAX_ID })),
  isActive: Type.Optional(Type.Boolean()),
  asOfDate: Optional(IsoDate),
  contributionAllocationMethod: Type.Optional(Method('contributions')),
  distributionAllocationMethod: Type.Optional(Method('distributions')),
  corporateActionAllocationMethod: Type.Optional(Method('corporate actions')),
  autoRebalFrequency: Type.Optional(literals(AUTO_REBAL_FREQUENCIES)),
  autoRebalMonth: Optional(Type.Integer({ minimum: 1, maximum: 12 })),
  autoRebalDay: Optional(Type.Integer({ minimum: 1, maximum: 31 })),
  mandate: Type.Optional(Type.Boolean()),
  accountSleeves: Type.Array(AccountSleeveInput, { maxItems: 100 }),
});

const NullableNumber = Nullable(Type.Number());
const NullableInteger = Nullable(Type.Integer());
const NullableText = Nullable(Type.String());

export const ModelAllocationRecord = Type.Object({
  id: Type.Integer(),
  productId: Type.Integer(),
  productName: Type.String(),
  productClass: NullableText,
  ticker: Type.String(),
  targetPercent: Type.Number(),
  lowerTolerance: Type.Number(),
  upperTolerance: Type.Number(),
});

export const AccountSleeveRecord = Type.Object({
  accountId: Type.Integer(),
  accountNumber: Type.String(),
  registrationId: Type.Integer(),
  sleeveType: Type.String(),
  sleeveDescription: Type.String(),
  targetAllocation: NullableNumber,
  currentAllocation: Type.Number({ description: 'percent of the Normal Sleeves\' combined value (the base of targets and bands)' }),
  currentValue: Type.Number({ description: 'positions at their latest price plus cash, in dollars' }),
  toleranceLower: NullableNumber,
  toleranceUpper: NullableNumber,
  contributionAllocation: NullableNumber,
  distributionAllocation: NullableNumber,
  corporateActionAllocation: NullableNumber,
  sweepAssetId: NullableInteger,
  modelAggId: NullableInteger,
  modelAgg: NullableText,
  modelType: NullableText,
  modelId: Nullable(Type.Integer({ description: 'the model the sleeve account trades to (the strategy model or its self-directed model)' })),
  managementStyleId: NullableInteger,
  managementStyle: NullableText,
  subAdvisorId: NullableInteger,
  subAdvisor: NullableText,
  modelAllocations: Nullable(Type.Array(ModelAllocationRecord)),
});

export const SleeveRegistrationRecord = Type.Object({
  registrationId: Type.Integer(),
  sleeveStrategyId: NullableInteger,
  isActive: Type.Boolean(),
  custodialAccountNumber: NullableText,
  asOfDate: NullableText,
  contributionAllocationMethod: Type.String(),
  distributionAllocationMethod: Type.String(),
  corporateActionAllocationMethod: Type.String(),
  autoRebalFrequency: Type.String(),
  autoRebalMonth: NullableInteger,
  autoRebalDay: NullableInteger,
  mandate: Type.Boolean(),
  doNotTrade: Type.Boolean({ description: 'an active registration-level trade block (or the legacy flag) stops its rebalancing' }),
  createdBy: NullableText,
  createdDate: NullableText,
  editedBy: NullableText,
  editedDate: NullableText,
  accountSleeves: Type.Array(AccountSleeveRecord),
});

export const DoNotTradeItem = Type.Object({ registrationId: IdSchema(), doNotTrade: Type.Boolean() });
export const DoNotTradeBody = Type.Array(DoNotTradeItem, { minItems: 1, maxItems: 1000 });
export const DoNotTradeQuery = Type.Object({
  syncToEclipse: Type.Boolean({ default: true, description: 'true: publish the change to the rebalancing application (as trade blocks do); false: store only' }),
});
export const DoNotTradeState = Type.Object({
  registrationId: Type.Integer(),
  doNotTrade: Type.Boolean(),
  tradeBlocks: Type.Array(TradeBlockDetail, { description: 'the registration\'s own live trade block details (empty without multi trade block)' }),
});

export const SleeveTransferRecord = Type.Object({
  id: Type.Integer(),
  tradeInstanceId: Type.Integer(),
  batchProcessingId: Type.Integer(),
  registrationId: Type.Integer(),
  accountId: Type.Integer(),
  accountNumber: Type.String(),
  amount: Type.Number({ description: 'dollars moved into (+) or out of (−) the sleeve' }),
  currentAllocation: Type.Number(),
  targetAllocation: Type.Number(),
  outOfBand: Type.Boolean(),
  status: Type.String({ description: 'Open, or Cancelled with its trade instance' }),
});

export type ModelAllocationInput = Static<typeof ModelAllocationInput>;
export type AccountSleeveInput = Static<typeof AccountSleeveInput>;
export type SleeveRegistrationInput = Static<typeof SleeveRegistrationInput>;
export type AccountSleeveRecord = Static<typeof AccountSleeveRecord>;
export type SleeveRegistrationRecord = Static<typeof SleeveRegistrationRecord>;
export type ModelAllocationRecord = Static<typeof ModelAllocationRecord>;
export type DoNotTradeItem = Static<typeof DoNotTradeItem>;
export type DoNotTradeState = Static<typeof DoNotTradeState>;
export type SleeveTransferRecord = Static<typeof SleeveTransferRecord>;
