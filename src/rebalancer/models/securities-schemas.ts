import { Type, type Static } from 'typebox';
import { IdSchema } from '../../http/ids.js';
import { Skip, Top } from '../../http/paging.js';
import { Nullable } from '../../http/nullable.js';

const NullableInt = Nullable(Type.Integer());
const NullableText = Nullable(Type.String());

export const AllocationsQuery = Type.Object({
  aggregateAllocations: Type.Boolean({ default: true, description: 'true (default): id, securityId, name, symbol and targetInPercent only; false: every field' }),
});

export const Allocation = Type.Object(
  {
    id: Type.Integer({ description: 'Security (product) id' }),
    securityId: Type.Integer(),
    name: Type.String(),
    symbol: Type.String(),
    targetInPercent: Type.Number(),
    modelDetailId: Type.Optional(Type.Integer({ description: 'The model target row (aggregateAllocations=false)' })),
    lowerModelTolerancePercent: Type.Optional(Type.Number()),
    upperModelTolerancePercent: Type.Optional(Type.Number()),
    assetClassNameOfSecurity: Type.Optional(NullableText),
    assetSubClassNameOfSecurity: Type.Optional(NullableText),
    assetCategoryNameOfSecurity: Type.Optional(NullableText),
    equivalents: Type.Optional(Type.Array(Type.Integer(), { description: 'Ordered equivalent security ids' })),
    buyPriorityId: Type.Optional(NullableInt),
    sellPriorityId: Type.Optional(NullableInt),
  },
  { examples: [{ id: 40153, securityId: 40153, name: 'Vanguard Total Stock Market ETF', symbol: 'VTI', targetInPercent: 60 }] },
);

/** A model's portfolios: a firm may put most of its registrations on one model, so they page; the default page takes in all but the largest. */
export const ModelPortfoliosQuery = Type.Object({ $top: Top(100_000, 10_000), $skip: Skip() });

export const ModelPortfolio = Type.Object({
  id: Type.Integer({ description: 'Registration id (a portfolio of the rebalancing application)' }),
  name: Type.String(),
  substitutedModelId: NullableInt,
  status: Type.String({ description: 'Always `APPROVED`: a model assignment takes effect at once (no approval step)' }),
  accountCount: Type.Integer({ description: 'Active accounts of the registration on the model' }),
});

export const SecurityPriority = Type.Object({
  securityId: Type.Integer(),
  securityName: Type.String(),
  securitySymbol: Type.String(),
  isEquivalent: Type.Integer({ minimum: 0, maximum: 1, description: '1 for an equivalent, 0 for a target' }),
  buyPriorityId: NullableInt,
  buyPriority: NullableText,
  sellPriorityId: NullableInt,
  sellPriority: NullableText,
  editedOn: NullableText,
  editedBy: NullableText,
});

export const SecurityPriorityInput = Type.Object({
  securityId: IdSchema({ description: 'A target or an equivalent of the model' }),
  buyPriorityId: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 6 }), { description: 'Buy priority (1 to 6, as GET /v1/priorities lists them); null or omitted: none' })),
  buyPriority: Type.Optional(Nullable(Type.String({ maxLength: 100 }), { description: 'Optional; when given it must be the description of buyPriorityId' })),
  sellPriorityId: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 6 }), { description: 'Sell priority (1 to 6, as GET /v1/priorities lists them); null or omitted: none' })),
  sellPriority: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
});

export const PrioritiesUpdate = Type.Object(
  { securities: Type.Array(SecurityPriorityInput, { minItems: 1, maxItems: 2000, description: 'Listed securities get exactly these priorities; others keep theirs' }) },
  { examples: [{ securities: [{ securityId: 12, sellPriorityId: 1, sellPriority: 'Do Not Sell' }, { securityId: 15, buyPriorityId: 5 }] }] },
);

export type Allocation = Static<typeof Allocation>;
export type ModelPortfolio = Static<typeof ModelPortfolio>;
export type SecurityPriority = Static<typeof SecurityPriority>;
export type PrioritiesUpdate = Static<typeof PrioritiesUpdate>;
