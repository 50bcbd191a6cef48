import { Type, type Static } from 'typebox';
import { Nullable } from '../../http/nullable.js';

/*
 * Section 2.16 lists 22 fields of the household verbose record and shows the shape of none but
 * userDefinedFields. Each of the others has a shape of its own here (docs/decisions/source-system-client-reads.md); those the
 * book has data for are filled from it, the rest are empty until the platform keeps such data.
 */

const Money = Type.Number({ description: 'US dollars' });

const Billing = Type.Object(
  {
    isBillable: Type.Boolean(),
    feeScheduleId: Nullable(Type.Integer()),
    billingFrequency: Nullable(Type.String()),
    billingStartDate: Nullable(Type.String()),
  },
  { description: 'How the household is billed; the platform does not bill, so it is not billable' },
);

const Portfolio = Type.Object(
  {
    name: Type.String(),
    representativeId: Type.Integer(),
    representativeName: Nullable(Type.String()),
    registrationCount: Type.Integer(),
    accountCount: Type.Integer(),
    activeAccountCount: Type.Integer(),
    cash: Money,
    holdingsValue: Type.Number({ description: 'Priced holdings, US dollars' }),
    totalValue: Money,
  },
  { description: 'The household\'s book in figures' },
);

const Member = Type.Object(
  { registrationId: Type.Integer(), name: Type.String(), registrationType: Type.String() },
  { description: 'One owner of the household\'s accounts, as the book knows owners: a registration' },
);

const AdditionalAccount = Type.Object({
  id: Type.Integer(),
  number: Type.String(),
  name: Type.String(),
  custodian: Type.String(),
  registrationId: Type.Integer(),
  modelId: Nullable(Type.Integer()),
  isActive: Type.Boolean(),
  totalValue: Money,
});

const Suitability = Type.Object(
  { riskScore: Nullable(Type.Integer()), riskCategory: Nullable(Type.String()), surveyDate: Nullable(Type.String()) },
  { description: 'The risk-profiling result of the household\'s partner client, null before a survey' },
);

const TargetAllocation = Type.Object(
  { modelId: Type.Integer(), modelName: Type.String(), accountIds: Type.Array(Type.Integer()), value: Money, percent: Type.Number({ description: 'Share of the household\'s modelled value, 0 to 100' }) },
  { description: 'A model the household\'s accounts follow, weighted by their value' },
);

const AssetExclusion = Type.Object(
  { accountId: Type.Integer(), restrictedPlanId: Type.Integer(), restrictedPlanName: Type.String() },
  { description: 'A restricted plan excluding products from one of the household\'s accounts' },
);

export const HouseholdDetails = {
  billing: Billing,
  recurringAdjustments: Type.Array(Type.Object({ id: Type.Integer(), description: Type.String(), amount: Money, frequency: Type.String() })),
  feePayingAccounts: Type.Array(Type.Object({ accountId: Type.Integer(), percent: Type.Number() })),
  tieredFeeAccounts: Type.Array(Type.Object({ accountId: Type.Integer() })),
  householdBills: Type.Array(Type.Object({ id: Type.Integer(), periodStart: Type.String(), periodEnd: Type.String(), amount: Money, status: Type.String() })),
  financialPlanningFee: Nullable(Type.Object({ amount: Money, frequency: Type.String() })),
  portfolio: Portfolio,
  householdMembers: Type.Array(Member),
  documents: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), documentType: Type.String(), uploadedDate: Type.String() })),
  additionalAccounts: Type.Array(AdditionalAccount),
  suitability: Suitability,
  entityOptions: Type.Array(Type.Object({ code: Type.String(), value: Type.String() })),
  targetAllocations: Type.Array(TargetAllocation),
  creditCard: Nullable(Type.Object({ lastFour: Type.String(), expires: Type.String() })),
  assetExclusions: Type.Array(AssetExclusion),
  portfolioGroups: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
  appLinks: Type.Array(Type.Object({ name: Type.String(), url: Type.String() })),
  additionalRepresentatives: Type.Array(Type.Object({ representativeId: Type.Integer(), name: Type.String(), role: Type.String() })),
};

export const HouseholdDetailsRecord = Type.Object(HouseholdDetails);
export type HouseholdDetails = Static<typeof HouseholdDetailsRecord>;
